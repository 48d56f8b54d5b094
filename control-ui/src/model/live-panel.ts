import { destinationKinds, type BroadcastView, type DestinationOutput, type DestinationView, type IngestState } from '@onair/protocol';
import { formatBitrate, formatElapsed, healthLight, type HealthLight } from './destinations.ts';

/**
 * The studio's side column while live (issue 52): what Go Live checks first, what the summary
 * after End Broadcast says, and how much room the destinations take from the chat below them.
 */

/** One thing that keeps an enabled destination from receiving the stream, named before Go Live. */
export interface GoLiveProblem {
  destinationId: string;
  name: string;
  /** 'needs-sign-in': connected once, its access since revoked; 'not-connected': never signed in. */
  kind: 'needs-sign-in' | 'not-connected';
  text: string;
}

/**
 * What is not ready among the destinations Go Live would push to. An empty list means ready. The
 * api would skip such a destination silently (it has no address to publish to): the creator is
 * asked instead, to sign in or to switch it off for this broadcast.
 */
export function goLiveProblems(destinations: readonly DestinationView[]): GoLiveProblem[] {
  return destinations
    .filter((d) => d.enabled && !d.authenticated)
    .map((d) => {
      const label = destinationKinds[d.type].label;
      return d.needsSignIn
        ? { destinationId: d.id, name: d.name, kind: 'needs-sign-in', text: `OnAir's access to this ${label} account was revoked or expired.` }
        : { destinationId: d.id, name: d.name, kind: 'not-connected', text: `This ${label} account is not connected yet.` };
    });
}

/** One destination's line in the summary after End Broadcast. */
export interface SummaryRow {
  destinationId: string;
  name: string;
  /** The last state the studio saw while live; 'off' when the broadcast never reported it. */
  light: HealthLight;
  reconnects: number;
  reason: string | null;
}

export interface BroadcastSummary {
  /** H:MM:SS from the start to the end (or to `now` when the end is not written yet). */
  duration: string;
  rows: SummaryRow[];
  recordingId: string | null;
}

/**
 * The summary after End Broadcast, from the broadcast the api returned and the health the studio
 * last saw for each destination while live (the api forgets it shortly after the end).
 */
export function broadcastSummary(
  broadcast: BroadcastView,
  destinations: readonly DestinationView[],
  lastHealth: Readonly<Record<string, DestinationOutput>>,
  now: number,
): BroadcastSummary {
  const started = broadcast.startedAt ? Date.parse(broadcast.startedAt) : null;
  const ended = broadcast.endedAt ? Date.parse(broadcast.endedAt) : now;
  const rows = destinations
    .filter((d) => d.enabled || lastHealth[d.id])
    .map((d): SummaryRow => {
      const output = lastHealth[d.id];
      return {
        destinationId: d.id,
        name: d.name,
        light: healthLight({ ...d, enabled: true }, output, true),
        reconnects: output?.reconnects ?? 0,
        reason: output?.reason ?? null,
      };
    });
  return { duration: formatElapsed(started === null ? 0 : ended - started), rows, recordingId: broadcast.recordingId ?? null };
}

/** The compact row's status: a word for the light, and the bitrate while it streams. */
export function compactStatus(light: HealthLight, output: DestinationOutput | undefined): string {
  const word = { off: 'Off air', connecting: 'Connecting', live: 'Live', reconnecting: 'Reconnecting', failed: 'Failed' }[light];
  return light === 'live' && output ? formatBitrate(output.bitrateKbps) : word;
}

/** The destinations list's height the creator can drag to, in CSS pixels. */
export const DESTINATIONS_HEIGHT_MIN = 64;
export const DESTINATIONS_HEIGHT_MAX = 480;

export function clampDestinationsHeight(px: number): number {
  if (!Number.isFinite(px)) return DESTINATIONS_HEIGHT_MIN;
  return Math.round(Math.min(DESTINATIONS_HEIGHT_MAX, Math.max(DESTINATIONS_HEIGHT_MIN, px)));
}

/**
 * Whether Auto Live has a place in the side column: a camera-only project has no feed to wait for,
 * so the block shows once a Twitch channel is linked (Auto Live's requirement), when it is on, or
 * while a feed is arriving. Until then its settings stay one click away from the destinations.
 */
export function autoLiveRelevant(destinations: readonly DestinationView[], autoLive: boolean, ingestState: IngestState | undefined): boolean {
  if (autoLive) return true;
  if (ingestState !== undefined && ingestState !== 'waiting') return true;
  return destinations.some((d) => d.type === 'Twitch');
}
