/** Latency percentiles by the nearest-rank method, on a copy (the input order is kept). */
export function percentiles(samples: readonly number[], ps: readonly number[]): Record<string, number> {
  const sorted = [...samples].sort((a, b) => a - b);
  const out: Record<string, number> = {};
  for (const p of ps) {
    if (sorted.length === 0) {
      out[`p${p}`] = Number.NaN;
      continue;
    }
    const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
    out[`p${p}`] = sorted[rank - 1]!;
  }
  return out;
}
