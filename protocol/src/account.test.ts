import { describe, expect, it } from 'vitest';
import { labelsForEmail, normaliseTesterEmail, resolutionForRole } from './account.ts';

describe('tester e-mail normalisation (spec §5)', () => {
  it('lower-cases, trims, drops the plus part and strips dots, hyphens, underscores and spaces from the local part', () => {
    expect(normaliseTesterEmail('  Jane.Doe+stream@OnAir.Dev ')).toBe('janedoe@onair.dev');
    expect(normaliseTesterEmail('j_a-n e@onair.dev')).toBe('jane@onair.dev');
    // The domain keeps its dots: only the local part is stripped.
    expect(normaliseTesterEmail('a.b@mail.example.com')).toBe('ab@mail.example.com');
  });

  it('labels listed testers after normalisation, whole tester domains, and demo/draft by exact address', () => {
    const rules = { demo: ['demo@example.com'], draft: ['Draft@Example.com'], tester: ['qa.person@example.com'], testerDomains: ['onair.dev'] };
    expect(labelsForEmail('QA-Person+x@example.com', rules)).toEqual(['tester']);
    expect(labelsForEmail('anyone@ONAIR.dev', rules)).toEqual(['tester']);
    expect(labelsForEmail('draft@example.com', rules)).toEqual(['draft']);
    expect(labelsForEmail('demo+1@example.com', rules)).toEqual([]);
    expect(labelsForEmail('qaperson@other.com', rules)).toEqual([]);
  });
});

describe('resolution from role (spec §9)', () => {
  it('is 1280x720 for Free and 1920x1080 for every paid role', () => {
    expect(resolutionForRole('Free')).toEqual({ x: 1280, y: 720 });
    for (const role of ['Premium', 'VIP', 'Legacy'] as const) expect(resolutionForRole(role)).toEqual({ x: 1920, y: 1080 });
  });
});
