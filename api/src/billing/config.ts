import { z } from 'zod';

/**
 * Billing (Stripe). With STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET set, plans are sold through
 * Stripe; STRIPE_API_URL points the client elsewhere (the one-machine stack's Stripe double, in
 * test mode). The operator names the Stripe price of each plan and period.
 */
export const billingConfigShape = {
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Another Stripe API address (the local double: http://127.0.0.1:PORT); real Stripe when unset. */
  STRIPE_API_URL: z.url().optional(),
  STRIPE_PRICE_PREMIUM_MONTHLY: z.string().min(1).optional(),
  STRIPE_PRICE_PREMIUM_YEARLY: z.string().min(1).optional(),
  /** Prices of plans not sold at checkout but recognised in webhooks (granted or older plans). */
  STRIPE_PRICE_VIP: z.string().min(1).optional(),
  STRIPE_PRICE_LEGACY: z.string().min(1).optional(),
  /** The older studio a Legacy (Classic) user opens from the Plan & Billing page. */
  STUDIO_CLASSIC_URL: z.url().optional(),
};

export interface BillingSettings {
  secretKey: string;
  webhookSecret: string;
  apiUrl?: URL;
  /** The price ids the operator configured, with their plan and whether checkout sells them. */
  prices: { priceId: string; planId: 'Premium' | 'VIP' | 'Legacy'; sold: boolean }[];
}

export const classicStudioUrl = (config: { STUDIO_CLASSIC_URL?: string | undefined }): string | null => config.STUDIO_CLASSIC_URL ?? null;

export function billingSettings(config: { [K in keyof typeof billingConfigShape]?: z.infer<(typeof billingConfigShape)[K]> }): BillingSettings | undefined {
  if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) return undefined;
  const prices: BillingSettings['prices'] = [];
  if (config.STRIPE_PRICE_PREMIUM_MONTHLY) prices.push({ priceId: config.STRIPE_PRICE_PREMIUM_MONTHLY, planId: 'Premium', sold: true });
  if (config.STRIPE_PRICE_PREMIUM_YEARLY) prices.push({ priceId: config.STRIPE_PRICE_PREMIUM_YEARLY, planId: 'Premium', sold: true });
  if (config.STRIPE_PRICE_VIP) prices.push({ priceId: config.STRIPE_PRICE_VIP, planId: 'VIP', sold: false });
  if (config.STRIPE_PRICE_LEGACY) prices.push({ priceId: config.STRIPE_PRICE_LEGACY, planId: 'Legacy', sold: false });
  return {
    secretKey: config.STRIPE_SECRET_KEY,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    ...(config.STRIPE_API_URL ? { apiUrl: new URL(config.STRIPE_API_URL) } : {}),
    prices,
  };
}
