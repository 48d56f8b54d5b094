import { describe, expect, it } from 'vitest';
import { formatBillingDate, formatPrice, offerOf, perMonth, yearlySavings } from './billing.ts';

const monthly = { planId: 'Premium' as const, priceId: 'm', interval: 'month' as const, unitAmount: 1999, currency: 'usd' };
const yearly = { planId: 'Premium' as const, priceId: 'y', interval: 'year' as const, unitAmount: 19188, currency: 'usd' };

describe('billing figures (spec §9)', () => {
  it('shows minor units whole when divisible by 100, else with two decimals', () => {
    expect(formatPrice(2000, 'usd')).toBe('$20');
    expect(formatPrice(1999, 'usd')).toBe('$19.99');
    expect(formatPrice(48, 'usd')).toBe('$0.48');
  });

  it('computes the yearly saving and the yearly price per month', () => {
    const offer = offerOf([monthly, yearly], 'Premium');
    expect(yearlySavings(offer)).toBe(12 * 1999 - 19188);
    expect(formatPrice(yearlySavings(offer), 'usd')).toBe('$48');
    expect(perMonth(yearly)).toBe('$15.99');
    expect(yearlySavings(offerOf([monthly], 'Premium'))).toBe(0);
  });

  it('writes dates as MMMM d, yyyy', () => {
    expect(formatBillingDate('2026-12-25T10:00:00.000Z')).toBe('December 25, 2026');
  });
});
