import { describe, expect, it } from 'vitest';
import { availabilityWords, campaignInputSchema, createPromoCodeBodySchema } from './campaigns.ts';

describe('campaign rules', () => {
  it('counts the key availability down in days, hours or minutes', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const at = (ms: number) => availabilityWords(new Date(now.getTime() + ms), now);
    expect(at(-1)).toBe('now');
    expect(at(60_000)).toBe('in 1 minute');
    expect(at(59 * 60_000)).toBe('in 59 minutes');
    expect(at(59 * 60_000 + 1)).toBe('in 1 hour');
    expect(at(3_600_000)).toBe('in 1 hour');
    expect(at(47 * 3_600_000)).toBe('in 1 day');
    expect(at(50 * 3_600_000)).toBe('in 2 days');
  });

  it('takes promo codes of A–Z and digits only', () => {
    expect(createPromoCodeBodySchema.safeParse({ code: 'ADA15', discountPercent: 10 }).success).toBe(true);
    for (const code of ['ada15', 'ADA-15', 'ÄDA15', 'AB', 'A'.repeat(21), '=1+1'])
      expect(createPromoCodeBodySchema.safeParse({ code, discountPercent: 10 }).success, code).toBe(false);
  });

  it('refuses a discount range upside down and a revenue share without its percent', () => {
    const base = { name: 'X', kind: 'game-key', game: 'G', platforms: ['Steam'] } as const;
    expect(campaignInputSchema.safeParse({ ...base, promoDiscount: { kind: 'range', minPercent: 10, maxPercent: 10 } }).success).toBe(false);
    expect(campaignInputSchema.safeParse({ ...base, kind: 'revenue-share' }).success).toBe(false);
    expect(campaignInputSchema.safeParse({ ...base, promoDiscount: { kind: 'fixed', percent: 15 } }).success).toBe(true);
  });
});
