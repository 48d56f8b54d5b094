import { describe, expect, it } from 'vitest';
import { drawWeighted, entryWeight, type RandomInt } from './raffle-draw.ts';

/**
 * A seeded generator (SplitMix64) with an unbiased integer below `max` (rejection sampling): the
 * same draws on every run, so the statistical test below is deterministic and cannot flake.
 */
function seeded(seed: bigint): RandomInt {
  let state = seed;
  const mask = (1n << 64n) - 1n;
  const next = (): bigint => {
    state = (state + 0x9e3779b97f4a7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    return z ^ (z >> 31n);
  };
  return (max) => {
    const m = BigInt(max);
    const limit = (1n << 64n) - ((1n << 64n) % m);
    for (;;) {
      const x = next();
      if (x < limit) return Number(x % m);
    }
  };
}

/** Pearson's chi-square of observed counts against the expected shares. */
function chiSquare(observed: readonly number[], weights: readonly number[]): number {
  const n = observed.reduce((a, b) => a + b, 0);
  const total = weights.reduce((a, b) => a + b, 0);
  return observed.reduce((sum, o, i) => {
    const expected = (n * weights[i]!) / total;
    return sum + (o - expected) ** 2 / expected;
  }, 0);
}

const DRAWS = 10_000;
/** Chi-square's 99.9th percentile for 6 degrees of freedom (7 entries). */
const CRITICAL_6DF_P001 = 22.458;

// Seven viewers: one ticket each, two with three tickets, two subscribers with luck 2.
const LUCK = 2;
const entries = [
  { tickets: 1, subscriber: false },
  { tickets: 1, subscriber: false },
  { tickets: 3, subscriber: false },
  { tickets: 1, subscriber: true },
  { tickets: 3, subscriber: true },
  { tickets: 1, subscriber: false },
  { tickets: 1, subscriber: false },
];
const weights = entries.map((e) => entryWeight(e, LUCK));

function tally(draw: (weights: readonly number[], random: RandomInt) => number | null, seed: bigint): number[] {
  const random = seeded(seed);
  const counts = weights.map(() => 0);
  for (let i = 0; i < DRAWS; i++) counts[draw(weights, random)!]! += 1;
  return counts;
}

/** A draw with a classic slip (≤ instead of <): each viewer's span moves one unit to the one before. */
function offByOneDraw(w: readonly number[], random: RandomInt): number | null {
  const total = w.reduce((a, b) => a + b, 0);
  const r = random(total);
  let before = 0;
  for (let i = 0; i < w.length; i++) {
    before += w[i]!;
    if (r <= before) return i;
  }
  return w.length - 1;
}

describe('the giveaway draw', () => {
  it('weighs tickets and the subscribers’ luck', () => {
    expect(weights).toEqual([1, 1, 3, 2, 6, 1, 1]);
    expect(drawWeighted([], seeded(1n))).toBeNull();
    expect(drawWeighted([0, 0], seeded(1n))).toBeNull();
    expect(drawWeighted([0, 5, 0], seeded(1n))).toBe(1);
    expect(() => drawWeighted([1.5], seeded(1n))).toThrow(RangeError);
    expect(() => drawWeighted([2], () => 2)).toThrow(RangeError);
  });

  it('is fair: 10 000 seeded draws match each viewer’s share (chi-square below its 99.9th percentile)', () => {
    const counts = tally(drawWeighted, 20261128n);
    const stat = chiSquare(counts, weights);
    expect(stat).toBeLessThan(CRITICAL_6DF_P001);
    // Every viewer won at least once; the subscriber with three lucky tickets most often.
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(counts.indexOf(Math.max(...counts))).toBe(4);
  });

  it('the same test catches a biased draw (an off-by-one) and one that ignores the weights', () => {
    expect(chiSquare(tally(offByOneDraw, 20261128n), weights)).toBeGreaterThan(CRITICAL_6DF_P001);
    const uniform = (w: readonly number[], random: RandomInt) => random(w.length);
    expect(chiSquare(tally(uniform, 20261128n), weights)).toBeGreaterThan(CRITICAL_6DF_P001);
  });
});
