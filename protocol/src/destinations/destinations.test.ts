import { describe, expect, it } from 'vitest';
import { planEntitlements } from '../plans.ts';
import { serverMessageSchema } from '../ws.ts';
import { canTransitionBroadcast, broadcastStates, streamLimitSeconds } from './broadcast.ts';
import {
  destinationKinds,
  destinationTypes,
  isDestinationTypeAllowed,
  removeDestinationText,
  requiresAuthenticationText,
  upgradeTooltipFor,
} from './catalogue.ts';
import { destinationChannels } from './events.ts';
import { checkRtmpUrlTarget, createDestinationBodySchema, destinationFieldMessages, updateDestinationBodySchema, validateDestinationForm } from './schemas.ts';

const long = (n: number) => 'x'.repeat(n);

describe('destination catalogue (spec §3)', () => {
  it('knows every kind with its provider id and a brand colour', () => {
    expect(destinationTypes.map((t) => destinationKinds[t].providerId)).toEqual([
      'facebook',
      'twitchtv',
      'youtube',
      'youtube-manual',
      'amazon',
      'dlive',
      'douyu',
      'huya',
      'instagram',
      'linkedin',
      'tiktok',
      'trovo',
      'vimeo',
      'wowza',
      'custom',
      'local',
    ]);
    for (const t of destinationTypes) expect(destinationKinds[t].brandColor).toMatch(/^#[0-9A-F]{6}$/);
    expect(destinationTypes.filter((t) => destinationKinds[t].connection === 'oauth')).toEqual(['Facebook', 'Twitch', 'YouTube']);
    expect(destinationKinds.YouTubeManual.available).toBe(false);
    // Issue 20: the canvas a new destination gets; TikTok (added with it) needs its per-stream server URL.
    expect(destinationTypes.filter((t) => destinationKinds[t].defaultCanvas === 'vertical')).toEqual(['Instagram', 'TikTok']);
    expect(destinationKinds.TikTok).toMatchObject({ connection: 'stream-key', ingest: { defaultUrl: null, urlEditable: true }, plan: 'custom-destinations' });
  });

  it('locks custom destinations beyond the free set without the custom-destinations entitlement', () => {
    const free = destinationTypes.filter((t) => isDestinationTypeAllowed(planEntitlements.Free, t));
    expect(free).toEqual(['Facebook', 'Twitch', 'YouTube', 'YouTubeManual', 'Local']);
    expect(destinationTypes.every((t) => isDestinationTypeAllowed(planEntitlements.Premium, t))).toBe(true);
    expect(upgradeTooltipFor('CustomRTMP')).toBe('Add Custom RTMP destinations...');
    expect(upgradeTooltipFor('Vimeo')).toBe('Add more destinations');
  });

  it('words the delete confirmation and the authentication warning as spec §8', () => {
    expect(removeDestinationText('Twitch')).toBe("This channel will be removed from your account. You can't use it to log in.");
    expect(removeDestinationText('CustomRTMP')).toBe('You will no longer be able to stream to this channel.');
    expect(requiresAuthenticationText('YouTube')).toBe('Your YouTube account requires authentication.');
  });
});

describe('destination validation (spec §5)', () => {
  it('custom RTMP: name 1 to 100 and an rtmp:// or rtmps:// URL in any case; the key is free', () => {
    const ok = (body: object) => createDestinationBodySchema.safeParse({ type: 'CustomRTMP', ...body }).success;
    expect(ok({ name: 'Mine', rtmpUrl: 'rtmp://live.example.com/app' })).toBe(true);
    expect(ok({ name: 'Mine', rtmpUrl: 'RTMPS://live.example.com:443/app', streamKey: 'abc' })).toBe(true);
    expect(ok({ name: long(100), rtmpUrl: 'rtmp://a.example/x' })).toBe(true);
    expect(ok({ name: long(101), rtmpUrl: 'rtmp://a.example/x' })).toBe(false);
    expect(ok({ name: '  ', rtmpUrl: 'rtmp://a.example/x' })).toBe(false);
    expect(ok({ name: 'Mine', rtmpUrl: 'http://a.example/x' })).toBe(false);
    expect(ok({ name: 'Mine', rtmpUrl: 'rtmp:/a.example' })).toBe(false);
    expect(validateDestinationForm({ type: 'CustomRTMP', name: '', rtmpUrl: 'srt://x' })).toEqual([
      { field: 'name', message: destinationFieldMessages.name },
      { field: 'rtmpUrl', message: destinationFieldMessages.rtmpUrl },
    ]);
  });

  it('YouTube manual: name 1 to 100', () => {
    expect(validateDestinationForm({ type: 'YouTubeManual', name: long(101), streamKey: 'k' })).toEqual([
      { field: 'name', message: destinationFieldMessages.name },
    ]);
  });

  it('Twitch: title required, at most 100', () => {
    expect(validateDestinationForm({ type: 'Twitch', settings: { title: '' } })).toEqual([{ field: 'settings.title', message: 'Enter a title.' }]);
    expect(validateDestinationForm({ type: 'Twitch', settings: { title: long(101) } })[0]?.message).toBe(destinationFieldMessages.titleTooLong);
    expect(validateDestinationForm({ type: 'Twitch', settings: { title: long(100) } })).toEqual([]);
  });

  it('YouTube and Facebook: title at most 100, description at most 1500', () => {
    for (const type of ['YouTube', 'Facebook']) {
      expect(validateDestinationForm({ type, settings: {} })).toEqual([]);
      expect(validateDestinationForm({ type, settings: { title: long(100), description: long(1500) } })).toEqual([]);
      expect(validateDestinationForm({ type, settings: { title: long(101), description: long(1501) } }).map((e) => e.field)).toEqual([
        'settings.title',
        'settings.description',
      ]);
    }
    expect(createDestinationBodySchema.parse({ type: 'Facebook' })).toMatchObject({ settings: { privacy: 'EVERYONE' }, applyMetadataToAll: false });
    expect(validateDestinationForm({ type: 'Facebook', settings: { privacy: 'PUBLIC' } })).toHaveLength(1);
  });

  it('an update may leave the stream key out, and refuses unknown fields', () => {
    expect(updateDestinationBodySchema.parse({ enabled: false })).toEqual({ enabled: false });
    expect(updateDestinationBodySchema.safeParse({ streamKeyEnc: 'x' }).success).toBe(false);
  });

  it('refuses RTMP URLs on private and loopback literals before any DNS', () => {
    expect(checkRtmpUrlTarget('rtmp://127.0.0.1/live').ok).toBe(false);
    expect(checkRtmpUrlTarget('RTMP://10.1.2.3/live')).toMatchObject({ ok: false, code: 'private' });
    expect(checkRtmpUrlTarget('rtmp://localhost/live')).toMatchObject({ ok: false, code: 'loopback' });
    expect(checkRtmpUrlTarget('rtmps://live.example.com/app')).toMatchObject({ ok: true, port: 443 });
  });
});

describe('broadcast state machine', () => {
  it('moves idle → starting → live → ending → ended, fails from any state not over, and never goes back', () => {
    const path = ['idle', 'starting', 'live', 'ending', 'ended'] as const;
    for (let i = 0; i + 1 < path.length; i++) expect(canTransitionBroadcast(path[i]!, path[i + 1]!)).toBe(true);
    for (const s of broadcastStates) expect(canTransitionBroadcast(s, 'failed')).toBe(s !== 'ended' && s !== 'failed');
    expect(canTransitionBroadcast('live', 'starting')).toBe(false);
    expect(canTransitionBroadcast('ended', 'live')).toBe(false);
    expect(streamLimitSeconds('Free')).toBe(36_000);
    expect(streamLimitSeconds('VIP')).toBe(172_800);
  });

  it('carries destination messages on /ws and names their Redis channel once', () => {
    const projectId = '00000000-0000-4000-8000-000000000001';
    expect(destinationChannels.projectOf(destinationChannels.project(projectId))).toBe(projectId);
    expect(destinationChannels.projectOf(`onair:projects:${projectId}:scene`)).toBeNull();
    const msg = { type: 'destination.event', projectId, event: 'Removed', destinationId: projectId, destination: null };
    expect(serverMessageSchema.parse(msg)).toEqual(msg);
  });
});
