import { describe, expect, it } from 'vitest';
import { percentiles } from './stats.ts';

describe('percentiles', () => {
  it('uses the nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentiles(samples, [50, 95, 99, 100])).toEqual({ p50: 50, p95: 95, p99: 99, p100: 100 });
  });
  it('handles one sample and none', () => {
    expect(percentiles([7], [50, 99])).toEqual({ p50: 7, p99: 7 });
    expect(Number.isNaN(percentiles([], [50]).p50)).toBe(true);
  });
});
