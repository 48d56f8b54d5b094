/** The fastest transit is the minimum over windows this long, so the sender's clock drift is followed. */
const BASE_WINDOW_MS = 10_000;
/** A peak of lateness is remembered this long: a keyframe paced out over many packets is rare, and the buffer must still fit the next one. */
export const PEAK_HOLD_MS = 30_000;

/**
 * How late a track's packets arrive compared with its fastest ones: the jitter buffer must hold a
 * packet at least that long, or it gives the packet up as lost. Transit is arrival time minus the
 * packet's RTP timestamp in ms, so the sender's clock offset cancels out; lateness is transit above
 * the smallest transit seen. It includes the spread of a frame's packets (the browser paces a big
 * keyframe out over tens of ms), network jitter, and retransmissions after a loss (NACK).
 */
export class ArrivalLateness {
  private lastTimestamp: number | undefined;
  /** RTP timestamps wrap at 2^32: whole wraps seen so far. */
  private wraps = 0;
  private base = { current: Infinity, previous: Infinity, since: -Infinity };
  /** Highest lateness per second, for the last PEAK_HOLD_MS. */
  private readonly peaks: { second: number; lateness: number }[] = [];

  constructor(private readonly clockRate: number) {}

  /** A new stream (another SSRC, or one resuming after a pause): its timestamps start afresh. */
  reset(): void {
    this.lastTimestamp = undefined;
    this.wraps = 0;
    this.base = { current: Infinity, previous: Infinity, since: -Infinity };
  }

  record(rtpTimestamp: number, arrivalMs: number): void {
    if (this.lastTimestamp !== undefined) {
      // A jump back by more than half the range is a wrap; a small one is reordering.
      if (rtpTimestamp < this.lastTimestamp && this.lastTimestamp - rtpTimestamp > 2 ** 31) this.wraps += 1;
      else if (rtpTimestamp > this.lastTimestamp && rtpTimestamp - this.lastTimestamp > 2 ** 31) return;
    }
    this.lastTimestamp = rtpTimestamp;
    const transit = arrivalMs - ((this.wraps * 2 ** 32 + rtpTimestamp) * 1000) / this.clockRate;
    if (arrivalMs - this.base.since > BASE_WINDOW_MS) this.base = { current: transit, previous: this.base.current, since: arrivalMs };
    else this.base.current = Math.min(this.base.current, transit);
    const lateness = Math.max(0, transit - Math.min(this.base.current, this.base.previous));
    const second = Math.floor(arrivalMs / 1000);
    const last = this.peaks[this.peaks.length - 1];
    if (last?.second === second) last.lateness = Math.max(last.lateness, lateness);
    else this.peaks.push({ second, lateness });
    while (this.peaks.length > 0 && (second - this.peaks[0]!.second) * 1000 > PEAK_HOLD_MS) this.peaks.shift();
  }

  /** The highest lateness of the last PEAK_HOLD_MS (ms); 0 before any packet. */
  peakMs(nowMs: number): number {
    const since = Math.floor(nowMs / 1000) - PEAK_HOLD_MS / 1000;
    return this.peaks.reduce((peak, p) => (p.second >= since ? Math.max(peak, p.lateness) : peak), 0);
  }
}

/** Above the highest lateness seen: the part of the next peak not seen yet, and the decoder's turn. */
export const JITTER_MARGIN_MS = 20;
/** A lower latency is only taken when it is lower by this much (each change re-times the program). */
export const JITTER_STEP_DOWN_MS = 20;

/** The jitter buffer latency a peak lateness needs (ms), in steps of 10, within the protocol's bounds. */
export function jitterTarget(peakLatenessMs: number, bounds: { min: number; max: number }): number {
  const wanted = Math.ceil((peakLatenessMs + JITTER_MARGIN_MS) / 10) * 10;
  return Math.min(bounds.max, Math.max(bounds.min, wanted));
}

/** The latency to set now, or undefined to keep `current`: up at once, down only by a real step. */
export function nextJitterLatency(current: number, target: number): number | undefined {
  if (target > current) return target;
  if (current - target >= JITTER_STEP_DOWN_MS) return target;
  return undefined;
}
