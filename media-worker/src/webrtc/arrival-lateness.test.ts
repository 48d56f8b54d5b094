import { describe, expect, it } from 'vitest';
import { ArrivalLateness, jitterTarget, nextJitterLatency, PEAK_HOLD_MS } from './arrival-lateness.ts';

const VIDEO = 90_000;
const BOUNDS = { min: 40, max: 400 };

/** 30 fps frames of `packets` packets each, sent at capture time + 5 ms of network, `spread` ms apart within a frame. */
function sendFrames(l: ArrivalLateness, from: { ts: number; at: number }, frames: number, spread = 0, packets = 1): { ts: number; at: number } {
  let { ts, at } = from;
  for (let f = 0; f < frames; f++) {
    for (let p = 0; p < packets; p++) l.record(ts >>> 0, at + 5 + p * spread);
    ts += 3000;
    at += 1000 / 30;
  }
  return { ts, at };
}

describe('ArrivalLateness', () => {
  it('is zero for packets that arrive as regularly as they were captured', () => {
    const l = new ArrivalLateness(VIDEO);
    const end = sendFrames(l, { ts: 1000, at: 0 }, 90);
    expect(l.peakMs(end.at)).toBeLessThan(1);
  });

  it('measures a keyframe paced out over many packets', () => {
    const l = new ArrivalLateness(VIDEO);
    let at = sendFrames(l, { ts: 1000, at: 0 }, 30);
    // 40 packets 1.5 ms apart: the last one is 58.5 ms later than the frame's first.
    at = sendFrames(l, at, 1, 1.5, 40);
    at = sendFrames(l, at, 30);
    expect(l.peakMs(at.at)).toBeCloseTo(58.5, 0);
  });

  it('remembers a peak for PEAK_HOLD_MS, then lets it go', () => {
    const l = new ArrivalLateness(VIDEO);
    let at = sendFrames(l, { ts: 0, at: 0 }, 1, 2, 30);
    at = sendFrames(l, at, Math.ceil(((PEAK_HOLD_MS - 5000) / 1000) * 30));
    expect(l.peakMs(at.at)).toBeGreaterThan(50);
    at = sendFrames(l, at, 10 * 30);
    expect(l.peakMs(at.at)).toBeLessThan(1);
  });

  it('follows RTP timestamps across their 32-bit wrap', () => {
    const l = new ArrivalLateness(VIDEO);
    const end = sendFrames(l, { ts: 2 ** 32 - 3000 * 15, at: 0 }, 30);
    expect(l.peakMs(end.at)).toBeLessThan(1);
  });

  it('starts afresh for a new stream', () => {
    const l = new ArrivalLateness(VIDEO);
    sendFrames(l, { ts: 5_000_000, at: 0 }, 10);
    l.reset();
    // Timestamps of another stream, far behind: without the reset they would read as ~55 s late.
    const end = sendFrames(l, { ts: 100, at: 1000 }, 30);
    expect(l.peakMs(end.at)).toBeLessThan(1);
  });
});

describe('jitter buffer latency', () => {
  it('is the peak lateness plus the margin, in steps of 10, within bounds', () => {
    expect(jitterTarget(0, BOUNDS)).toBe(40);
    expect(jitterTarget(58.5, BOUNDS)).toBe(80);
    expect(jitterTarget(1000, BOUNDS)).toBe(400);
  });

  it('goes up at once and down only by a real step', () => {
    expect(nextJitterLatency(150, 160)).toBe(160);
    expect(nextJitterLatency(150, 140)).toBeUndefined();
    expect(nextJitterLatency(150, 60)).toBe(60);
    expect(nextJitterLatency(60, 60)).toBeUndefined();
  });
});
