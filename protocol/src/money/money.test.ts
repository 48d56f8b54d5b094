import { describe, expect, it } from 'vitest';
import { addBusinessDays, isValidAbaRouting, paymentMethodInputSchema, tipAmountProblem, tipSettingsSchema } from './money.ts';

describe('money rules', () => {
  it('counts business days over weekends', () => {
    // Friday 2026-11-27 + 1 business day = Monday 2026-11-30; + 3 = Wednesday 2026-12-02.
    expect(addBusinessDays(new Date('2026-11-27T15:00:00Z'), 1).toISOString().slice(0, 10)).toBe('2026-11-30');
    expect(addBusinessDays(new Date('2026-11-27T15:00:00Z'), 3).toISOString().slice(0, 10)).toBe('2026-12-02');
    expect(addBusinessDays(new Date('2026-11-28T10:00:00Z'), 1).toISOString().slice(0, 10)).toBe('2026-11-30');
  });

  it('checks ABA routing numbers by their checksum', () => {
    expect(isValidAbaRouting('110000000')).toBe(true);
    expect(isValidAbaRouting('021000021')).toBe(true);
    expect(isValidAbaRouting('021000022')).toBe(false);
    expect(isValidAbaRouting('12345678')).toBe(false);
  });

  it('words a tip outside the limits, and tip settings outside §9', () => {
    const limits = { minTip: 200, maxTip: 200_000, currency: 'usd' } as const;
    expect(tipAmountProblem(50, limits)).toBe('The smallest tip is $2.00');
    expect(tipAmountProblem(250_000, limits)).toBe('The largest tip is $2,000.00');
    expect(tipAmountProblem(-500, limits)).toBe('Enter an amount greater than zero');
    expect(tipAmountProblem(1000, limits)).toBeNull();
    const issues = (s: object) =>
      tipSettingsSchema.safeParse({ enabled: false, paymentEmail: '', currency: 'usd', minTip: 200, maxTip: 1000, ...s }).error?.issues.map((i) => i.message) ??
      [];
    expect(issues({})).toEqual([]);
    expect(issues({ minTip: 100 })).toEqual(['The minimum tip must be more than $1.00']);
    expect(issues({ maxTip: 200_001 })).toEqual(['The maximum tip can be at most $2,000.00']);
    expect(issues({ minTip: 1000 })).toEqual(['The maximum tip must be more than the minimum tip']);
  });

  it('normalises an IBAN and a BIC, and refuses bad ones', () => {
    const base = {
      region: 'international',
      name: 'A',
      email: 'a@example.test',
      addressLine1: 'x',
      accountHolder: 'A',
      bankName: 'B',
      country: 'DE',
      currency: 'eur',
    };
    const ok = paymentMethodInputSchema.parse({ ...base, iban: 'de89 3704 0044 0532 0130 00', swift: 'cobadeff' });
    expect(ok).toMatchObject({ iban: 'DE89370400440532013000', swift: 'COBADEFF' });
    expect(paymentMethodInputSchema.safeParse({ ...base, iban: 'DE89 3704 0044 0532 0130 01', swift: 'COBADEFF' }).success).toBe(false);
  });
});
