import type { PlanPrice } from '@onair/protocol';

/** Spec §9: checkout polling, at most 20 tries, waiting 500 ms × the try's number. */
export const CHECKOUT_POLL_TRIES = 20;
export const CHECKOUT_POLL_STEP_MS = 500;

/** Spec §9: minor units, whole when divisible by 100, else with two decimals. */
export function formatPrice(minor: number, currency: string): string {
  const whole = minor % 100 === 0;
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(minor / 100);
}

/** Spec §9: dates like 'MMMM d, yyyy'. */
export function formatBillingDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

export interface PlanOffer {
  monthly?: PlanPrice;
  yearly?: PlanPrice;
}

/** A plan's monthly and yearly prices. */
export function offerOf(plans: readonly PlanPrice[], planId: PlanPrice['planId']): PlanOffer {
  return { monthly: plans.find((p) => p.planId === planId && p.interval === 'month'), yearly: plans.find((p) => p.planId === planId && p.interval === 'year') };
}

/** Spec §9: yearly per month = yearly / 12; savings = 12 × monthly − yearly (minor units; 0 when there is nothing to compare). */
export function yearlySavings(offer: PlanOffer): number {
  if (!offer.monthly || !offer.yearly) return 0;
  return Math.max(0, 12 * offer.monthly.unitAmount - offer.yearly.unitAmount);
}

/** What the price reads as on a plan card: per month, the yearly price spread over 12 months. */
export function perMonth(price: PlanPrice): string {
  return formatPrice(price.interval === 'year' ? Math.round(price.unitAmount / 12) : price.unitAmount, price.currency);
}

/** Spec §2: what a cancelled paid plan takes away. */
export const CANCEL_LOSSES = [
  'Replacing or hiding the OnAir logo',
  'Uploading your own backgrounds and videos',
  'Adding guests to your stream',
  'Streaming at 1080p',
] as const;
