import type { CataloguePrice, RunningStripeDouble } from './stripe-double.ts';

/**
 * The plans of the one-machine stack's test mode (and of the tests): Premium monthly and yearly
 * (yearly = 12 × 15.99, a 20 % saving), and VIP and Classic prices, which checkout does not sell but
 * webhooks recognise. Amounts in cents.
 */
export const DEFAULT_STRIPE_CATALOGUE: readonly CataloguePrice[] = [
  { id: 'price_onair_premium_monthly', product: { id: 'prod_onair_premium', name: 'Premium' }, unitAmount: 1999, currency: 'usd', interval: 'month' },
  { id: 'price_onair_premium_yearly', product: { id: 'prod_onair_premium', name: 'Premium' }, unitAmount: 19188, currency: 'usd', interval: 'year' },
  { id: 'price_onair_vip', product: { id: 'prod_onair_vip', name: 'VIP' }, unitAmount: 0, currency: 'usd', interval: 'month' },
  { id: 'price_onair_legacy', product: { id: 'prod_onair_legacy', name: 'Classic' }, unitAmount: 999, currency: 'usd', interval: 'month' },
];

/** The api's billing configuration for a running double with the default catalogue. */
export function stripeDoubleEnv(double: Pick<RunningStripeDouble, 'url' | 'secretKey' | 'webhookSecret'>): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: double.secretKey,
    STRIPE_WEBHOOK_SECRET: double.webhookSecret,
    STRIPE_API_URL: double.url,
    STRIPE_PRICE_PREMIUM_MONTHLY: 'price_onair_premium_monthly',
    STRIPE_PRICE_PREMIUM_YEARLY: 'price_onair_premium_yearly',
    STRIPE_PRICE_VIP: 'price_onair_vip',
    STRIPE_PRICE_LEGACY: 'price_onair_legacy',
  };
}
