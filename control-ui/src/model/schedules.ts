import type { ScheduledBroadcast } from '@onair/protocol';

/** How long a broadcast that did not go out stays listed, with its reason. */
const FAILED_SHOWN_MS = 24 * 3600_000;

/** The ones worth showing: still to come, on air now, and those that failed lately (with why). */
export function upcoming(scheduled: readonly ScheduledBroadcast[], now = Date.now()): ScheduledBroadcast[] {
  return scheduled.filter((s) => s.state === 'scheduled' || s.state === 'live' || (s.state === 'failed' && now - Date.parse(s.startAt) < FAILED_SHOWN_MS));
}
