import { describe, expect, it } from 'vitest';
import type { Readiness } from '@onair/protocol';
import { describeOutage, readinessParts } from './readiness.ts';

const base: Readiness = {
  ready: true,
  checks: {
    database: { ok: true },
    redis: { ok: true },
    mediaWorkers: { ok: true, count: 2 },
    renderWorkers: { ok: true, count: 1 },
  },
};

describe('readiness wording', () => {
  it('names every part with its worker count', () => {
    expect(readinessParts(base).map((part) => part.label)).toEqual(['Database', 'Redis', 'Media workers (2)', 'Render workers (1)']);
  });

  it('lists what is down in one sentence', () => {
    expect(describeOutage(base)).toBe('Every service is up');
    const redisDown = { ...base, checks: { ...base.checks, redis: { ok: false, detail: 'ECONNREFUSED' } } };
    expect(describeOutage(redisDown)).toBe('Redis is down');
    const threeDown = {
      ...redisDown,
      checks: { ...redisDown.checks, database: { ok: false }, renderWorkers: { ok: false, count: 0 } },
    };
    expect(describeOutage(threeDown)).toBe('Database, Redis and Render workers (0) are down');
  });
});
