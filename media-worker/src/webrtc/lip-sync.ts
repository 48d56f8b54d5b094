/** Never hold a stream back more than this: beyond it the browser's clocks are not to be trusted. */
export const MAX_SYNC_DELAY_MS = 400;
/** Transit estimates are the minimum over a window this long (network jitter only ever adds). */
const WINDOW_MS = 2000;

interface Transit {
  /** Minimum of the current and the previous window. */
  current: number;
  previous: number;
  since: number;
  lastAt: number;
}

/**
 * Lip-sync of one participant's tracks from their RTCP sender reports. The pipeline stamps each
 * track by arrival, so a track that reaches the worker later after capture (video: encoding and
 * pacing) would play late against the other (audio). Each track's transit, arrival time minus
 * capture time on the sender's NTP clock (from its SR mapping), is tracked; the faster tracks are
 * held back by the difference before they are forwarded. The sender's clock offset cancels out.
 */
export class LipSync {
  private readonly transits = new Map<string, Transit>();

  record(stream: string, transitMs: number, now: number): void {
    const t = this.transits.get(stream);
    if (!t) {
      this.transits.set(stream, { current: transitMs, previous: transitMs, since: now, lastAt: now });
      return;
    }
    t.lastAt = now;
    if (now - t.since > WINDOW_MS) {
      t.previous = t.current;
      t.current = transitMs;
      t.since = now;
    } else {
      t.current = Math.min(t.current, transitMs);
    }
  }

  forget(stream: string): void {
    this.transits.delete(stream);
  }

  /** How long to hold this stream's packets so that it lines up with the slowest one still sending. */
  delayFor(stream: string): number {
    const own = this.estimate(stream);
    const at = this.transits.get(stream)?.lastAt;
    if (own === undefined || at === undefined) return 0;
    let slowest = own;
    for (const [key, t] of this.transits) if (at - t.lastAt < WINDOW_MS) slowest = Math.max(slowest, this.estimate(key)!);
    return Math.min(MAX_SYNC_DELAY_MS, Math.max(0, slowest - own));
  }

  private estimate(stream: string): number | undefined {
    const t = this.transits.get(stream);
    return t ? Math.min(t.current, t.previous) : undefined;
  }
}

/** A 64-bit NTP timestamp as milliseconds (on the sender's clock; only differences matter). */
export function ntpToMs(ntp: bigint): number {
  return Number(ntp >> 32n) * 1000 + (Number(ntp & 0xffffffffn) * 1000) / 2 ** 32;
}
