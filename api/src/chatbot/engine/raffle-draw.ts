/** A uniform integer in [0, max): crypto.randomInt in a replica, a seeded generator in tests. */
export type RandomInt = (max: number) => number;

/**
 * The winner of a giveaway: the index of one entry, each with the chance of its weight (its
 * tickets, times the subscribers' luck for a subscriber) over the total. Weights are whole
 * numbers so one uniform integer below the total decides, with no rounding: the entry whose
 * span [before, before + weight) holds it wins. Null when nobody entered.
 */
export function drawWeighted(weights: readonly number[], randomInt: RandomInt): number | null {
  let total = 0;
  for (const w of weights) {
    if (!Number.isSafeInteger(w) || w < 0) throw new RangeError(`a weight must be a whole number ≥ 0, not ${w}`);
    total += w;
  }
  if (total === 0) return null;
  const r = randomInt(total);
  let before = 0;
  for (let i = 0; i < weights.length; i++) {
    before += weights[i]!;
    if (r < before) return i;
  }
  // Only a randomInt that breaks its promise (r ≥ total) gets here.
  throw new RangeError(`random ${r} is outside [0, ${total})`);
}

/** An entry's weight: its tickets, times the luck for a subscriber. */
export function entryWeight(entry: { tickets: number; subscriber: boolean }, subscriberLuck: number): number {
  return entry.tickets * (entry.subscriber ? subscriberLuck : 1);
}
