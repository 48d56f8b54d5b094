import { describe, expect, it } from 'vitest';
import type { BroadcastView, DestinationOutput, DestinationView } from '@onair/protocol';
import {
  autoLiveRelevant,
  broadcastSummary,
  clampDestinationsHeight,
  compactStatus,
  DESTINATIONS_HEIGHT_MAX,
  DESTINATIONS_HEIGHT_MIN,
  goLiveProblems,
} from './live-panel.ts';

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
  streamKeyMasked: null,
  authenticated: true,
  needsSignIn: false,
  autoLive: false,
  canvas: 'horizontal',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const output = (over: Partial<DestinationOutput> = {}): DestinationOutput => ({
  destinationId: view().id,
  state: 'live',
  bitrateKbps: 3200,
  reconnects: 0,
  ...over,
});
const broadcast = (over: Partial<BroadcastView> = {}): BroadcastView => ({
  id: '00000000-0000-4000-8000-0000000000b1',
  projectId: view().projectId,
  state: 'ended',
  failureReason: null,
  startedAt: '2026-01-01T10:00:00.000Z',
  endedAt: '2026-01-01T11:02:03.000Z',
  endsAt: null,
  outputs: [],
  recordingId: null,
  ...over,
});

describe('Go Live check (issue 52)', () => {
  it('names each enabled destination that is not signed in, and says whether it never was or lost its access', () => {
    const never = view({ id: 'a', type: 'YouTube', name: 'My channel', authenticated: false });
    const revoked = view({ id: 'b', type: 'Twitch', name: 'ada', authenticated: false, needsSignIn: true });
    const off = view({ id: 'c', type: 'Facebook', authenticated: false, enabled: false });
    const ready = view({ id: 'd' });
    expect(goLiveProblems([never, revoked, off, ready])).toEqual([
      { destinationId: 'a', name: 'My channel', kind: 'not-connected', text: 'This YouTube account is not connected yet.' },
      { destinationId: 'b', name: 'ada', kind: 'needs-sign-in', text: "OnAir's access to this Twitch account was revoked or expired." },
    ]);
  });

  it('is empty when every enabled destination can receive the stream', () => {
    expect(goLiveProblems([view(), view({ id: 'x', enabled: false, authenticated: false })])).toEqual([]);
  });
});

describe('the summary after End Broadcast', () => {
  it('gives the duration, each destination with its last health and reconnects, and the recording', () => {
    const local = view({ id: 'l', name: 'Local preview server' });
    const office = view({ id: 'o', name: 'Office' });
    const off = view({ id: 'f', name: 'Switched off', enabled: false });
    const summary = broadcastSummary(
      broadcast({ recordingId: '00000000-0000-4000-8000-0000000000c1' }),
      [local, office, off],
      {
        l: output({ destinationId: 'l', reconnects: 2 }),
        o: output({ destinationId: 'o', state: 'failed', bitrateKbps: 0, reason: 'The destination server could not be reached.' }),
      },
      0,
    );
    expect(summary.duration).toBe('1:02:03');
    expect(summary.recordingId).toBe('00000000-0000-4000-8000-0000000000c1');
    expect(summary.rows).toEqual([
      { destinationId: 'l', name: 'Local preview server', light: 'live', reconnects: 2, reason: null },
      { destinationId: 'o', name: 'Office', light: 'failed', reconnects: 0, reason: 'The destination server could not be reached.' },
    ]);
  });

  it('counts to now while the end is not written yet (post-roll), and says off for a destination never reported', () => {
    const now = Date.parse('2026-01-01T10:00:30.000Z');
    const summary = broadcastSummary(broadcast({ state: 'ending', endedAt: null }), [view({ id: 'x' })], {}, now);
    expect(summary.duration).toBe('0:00:30');
    expect(summary.rows[0]).toMatchObject({ light: 'off', reconnects: 0 });
  });
});

describe('the compact row (issue 52)', () => {
  it('shows the bitrate while live and the state otherwise', () => {
    expect(compactStatus('live', output({ bitrateKbps: 4100 }))).toBe('4.1 Mbps');
    expect(compactStatus('failed', output({ state: 'failed' }))).toBe('Failed');
    expect(compactStatus('connecting', undefined)).toBe('Connecting');
  });

  it('keeps a dragged list height within bounds', () => {
    expect(clampDestinationsHeight(10)).toBe(DESTINATIONS_HEIGHT_MIN);
    expect(clampDestinationsHeight(5000)).toBe(DESTINATIONS_HEIGHT_MAX);
    expect(clampDestinationsHeight(150.6)).toBe(151);
    expect(clampDestinationsHeight(Number.NaN)).toBe(DESTINATIONS_HEIGHT_MIN);
  });
});

describe('Auto Live in the side column', () => {
  it('is not shown to a camera-only project until a Twitch channel, Auto Live or a feed makes it relevant', () => {
    expect(autoLiveRelevant([view({ type: 'Local' })], false, 'waiting')).toBe(false);
    expect(autoLiveRelevant([view({ type: 'Twitch' })], false, 'waiting')).toBe(true);
    expect(autoLiveRelevant([], true, 'waiting')).toBe(true);
    expect(autoLiveRelevant([], false, 'receiving')).toBe(true);
  });
});
