import { describe, expect, it } from 'vitest';
import type { DestinationView } from '@onair/protocol';
import {
  counterText,
  encoderNotice,
  isTwitchRequired,
  formatBitrate,
  formatElapsed,
  formErrors,
  formFields,
  healthLight,
  initialFormValues,
  streamLimitWarning,
  toCreateBody,
  toUpdateBody,
} from './destinations.ts';

const view = (over: Partial<DestinationView> = {}): DestinationView => ({
  id: '00000000-0000-4000-8000-000000000001',
  projectId: '00000000-0000-4000-8000-000000000002',
  type: 'CustomRTMP',
  providerId: 'custom',
  name: 'Mine',
  enabled: true,
  username: null,
  logo: null,
  dashboardUrl: null,
  settings: {},
  rtmpUrl: 'rtmp://example.com/live',
  streamKeyMasked: '••••••••',
  authenticated: true,
  needsSignIn: false,
  autoLive: false,
  canvas: 'horizontal',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('destination form model', () => {
  it('shows the per-platform fields', () => {
    expect(formFields('CustomRTMP')).toEqual(['name', 'rtmpUrl', 'streamKey']);
    expect(formFields('Twitch')).toEqual(['title', 'applyMetadataToAll']);
    expect(formFields('YouTube')).toEqual(['title', 'description', 'privacy', 'applyMetadataToAll']);
    expect(formFields('Facebook')).toEqual(['title', 'description', 'privacy', 'applyMetadataToAll']);
    expect(formFields('Local')).toEqual(['name']);
  });

  it('words field errors with the rules of spec §5', () => {
    const v = { ...initialFormValues('CustomRTMP'), name: '', rtmpUrl: 'http://x' };
    expect(formErrors('CustomRTMP', v, null)).toEqual({
      name: 'Enter a name of 1 to 100 characters.',
      rtmpUrl: 'The server URL must start with rtmp:// or rtmps://.',
    });
    expect(formErrors('Twitch', initialFormValues('Twitch'), null)).toEqual({ title: 'Enter a title.' });
    expect(formErrors('YouTube', { ...initialFormValues('YouTube'), description: 'x'.repeat(1501) }, null)).toEqual({
      description: 'The description can be at most 1500 characters.',
    });
    // A stream-key platform needs a key when adding, not when editing one that has one saved.
    const trovo = { ...initialFormValues('Trovo'), streamKey: '' };
    expect(formErrors('Trovo', trovo, null)).toEqual({ streamKey: 'Enter the stream key.' });
    expect(formErrors('Trovo', trovo, view({ type: 'Trovo' }))).toEqual({});
  });

  it('never sends an empty key over a saved one, and only the metadata a platform takes', () => {
    const edit = initialFormValues('CustomRTMP', view());
    expect(edit.streamKey).toBe('');
    expect(toUpdateBody('CustomRTMP', edit)).toEqual({ name: 'Mine', rtmpUrl: 'rtmp://example.com/live', canvas: 'horizontal' });
    expect(toUpdateBody('Twitch', { ...initialFormValues('Twitch'), title: 'T', description: 'ignored' })).toEqual({
      settings: { title: 'T' },
      applyMetadataToAll: false,
      canvas: 'horizontal',
    });
    expect(toCreateBody('Facebook', { ...initialFormValues('Facebook'), title: 'F' })).toMatchObject({
      type: 'Facebook',
      settings: { title: 'F', privacy: 'EVERYONE' },
    });
  });
});

describe('destination canvas', () => {
  it('starts from the platform default (TikTok and Instagram vertical, the others horizontal) and keeps a saved choice', () => {
    expect(initialFormValues('TikTok').canvas).toBe('vertical');
    expect(initialFormValues('Instagram').canvas).toBe('vertical');
    expect(initialFormValues('Twitch').canvas).toBe('horizontal');
    expect(initialFormValues('CustomRTMP', view({ canvas: 'vertical' })).canvas).toBe('vertical');
    expect(toCreateBody('TikTok', { ...initialFormValues('TikTok'), rtmpUrl: 'rtmp://push.example.com/live', streamKey: 'k' })).toMatchObject({
      type: 'TikTok',
      canvas: 'vertical',
    });
  });
});

describe('destination list and health', () => {
  it("marks the last enabled Twitch destination 'Twitch required' while Auto Live is on", () => {
    const a = view({ id: 'a', type: 'Twitch' });
    const b = view({ id: 'b', type: 'Twitch' });
    expect(isTwitchRequired(a, [a, b], true)).toBe(false);
    expect(isTwitchRequired(a, [a, { ...b, enabled: false }], true)).toBe(true);
    expect(isTwitchRequired(a, [a], false)).toBe(false);
    expect(isTwitchRequired(view(), [view()], true)).toBe(false);
  });

  it('counts enabled of total', () => {
    expect(counterText([view(), view({ enabled: false }), view()])).toBe('2/3');
    expect(counterText([])).toBe('0/0');
  });

  it('lights a destination only while live and enabled', () => {
    const out = { destinationId: 'x', state: 'reconnecting' as const, bitrateKbps: 0, reconnects: 2 };
    expect(healthLight(view(), out, true)).toBe('reconnecting');
    expect(healthLight(view({ enabled: false }), out, true)).toBe('off');
    expect(healthLight(view(), out, false)).toBe('off');
    expect(healthLight(view(), undefined, true)).toBe('off');
  });

  it('formats bitrate, the timer and the stream-limit warning', () => {
    expect(formatBitrate(2999.6)).toBe('3.0 Mbps');
    expect(formatBitrate(640)).toBe('640 kbps');
    expect(formatElapsed(3_723_000)).toBe('1:02:03');
    const endsAt = '2026-01-01T10:00:00.000Z';
    const at = (iso: string) => new Date(iso).getTime();
    expect(streamLimitWarning(endsAt, at('2026-01-01T09:00:00.000Z'))).toBeNull();
    expect(streamLimitWarning(endsAt, at('2026-01-01T09:55:30.000Z'))).toBe("Your plan's stream limit ends this broadcast in 5 minutes.");
    expect(streamLimitWarning(endsAt, at('2026-01-01T10:00:01.000Z'))).toBeNull();
  });
});

describe('encoderNotice', () => {
  it('says nothing while the encoder runs as planned, and names what the busy server changed', () => {
    expect(encoderNotice(undefined)).toBeNull();
    expect(encoderNotice({ step: 0, steps: 3, preset: 'veryfast', width: 1280, height: 720 })).toBeNull();
    for (const [step, preset] of [
      [1, 'superfast'],
      [2, 'ultrafast'],
    ] as const) {
      expect(encoderNotice({ step, steps: 3, preset, width: 1280, height: 720 })).toBe(
        'The streaming server is busy: your stream is encoded with a faster setting (slightly softer picture) to keep 30 fps. It returns to normal when the server has room.',
      );
    }
  });
});
