import { z } from 'zod';
import { entitlementsSchema, planIdSchema } from '../plans.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * Plans and billing (spec §2 "Plan & Billing page", §4 "Checkout", §7 /subscription calls). Prices
 * come from the billing provider (Stripe), configured by the operator by price id; the server learns
 * of every change from the provider's signed webhooks. `testMode` is true when the server runs the
 * local Stripe double (no real payment), which the UI must say.
 */
export const billingIntervalSchema = z.enum(['month', 'year']);

export const planPriceSchema = z.object({
  planId: planIdSchema,
  priceId: z.string(),
  interval: billingIntervalSchema,
  /** Minor units (cents). */
  unitAmount: z.number().int().nonnegative(),
  currency: z.string(),
});
export type PlanPrice = z.infer<typeof planPriceSchema>;

/** Spec §3 subscription statuses. */
export const subscriptionStatusSchema = z.enum(['active', 'in_trial', 'non_renewing', 'paused', 'cancelled', 'future']);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

export const subscriptionViewSchema = z.object({
  id: z.string(),
  planId: planIdSchema,
  status: subscriptionStatusSchema,
  priceId: z.string(),
  periodUnit: billingIntervalSchema,
  /** ISO time of the next billing date, or the end of the plan when non_renewing. */
  nextBillingAt: z.string().nullable(),
});
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>;

export const billingOverviewSchema = z.object({
  available: z.boolean(),
  testMode: z.boolean(),
  plans: z.array(planPriceSchema),
  role: planIdSchema,
  entitlements: entitlementsSchema,
  subscription: subscriptionViewSchema.nullable(),
  hasBillingHistory: z.boolean(),
  /** The older studio a Legacy (Classic) user opens ('Open Studio Classic'), when the operator runs one. */
  classicStudioUrl: z.string().nullable(),
});
export type BillingOverview = z.infer<typeof billingOverviewSchema>;

export const getBillingEndpoint = defineEndpoint({
  id: 'getBilling',
  method: 'get',
  path: '/api/v1/billing',
  summary: "The plans on sale with their prices, and the caller's role, entitlements and current subscription.",
  tag: 'billing',
  access: 'user',
  response: billingOverviewSchema,
});

export const createCheckoutEndpoint = defineEndpoint({
  id: 'createCheckout',
  method: 'post',
  path: '/api/v1/billing/checkout',
  summary: 'Opens a hosted checkout for a price; the page returns to the Plan & Billing page.',
  tag: 'billing',
  access: 'user',
  body: z.strictObject({ priceId: z.string().min(1).max(200) }),
  response: z.object({ url: z.string() }),
});

export const openBillingPortalEndpoint = defineEndpoint({
  id: 'openBillingPortal',
  method: 'post',
  path: '/api/v1/billing/portal',
  summary: 'Opens the hosted customer portal (payment method, billing history, cancel, renew, switch period).',
  tag: 'billing',
  access: 'user',
  response: z.object({ url: z.string() }),
});

const subscriptionIdBody = z.strictObject({ subscriptionId: z.string().min(1).max(200) });

export const cancelSubscriptionEndpoint = defineEndpoint({
  id: 'cancelSubscription',
  method: 'post',
  path: '/api/v1/billing/cancel',
  summary: 'Cancels the subscription at the end of its term (it becomes non_renewing).',
  tag: 'billing',
  access: 'user',
  body: subscriptionIdBody,
  response: billingOverviewSchema,
});

export const renewSubscriptionEndpoint = defineEndpoint({
  id: 'renewSubscription',
  method: 'post',
  path: '/api/v1/billing/renew',
  summary: 'Takes back a cancellation: the subscription renews again.',
  tag: 'billing',
  access: 'user',
  body: subscriptionIdBody,
  response: billingOverviewSchema,
});

/** VIP is not sold: an administrator grants it to an account, or takes it back (audited). */
export const setVipEndpoint = defineEndpoint({
  id: 'setVip',
  method: 'post',
  path: '/api/v1/admin/vip',
  summary: 'Grants the VIP plan to the account with this e-mail address, or takes it back (administrators only; audited).',
  tag: 'billing',
  access: 'admin',
  body: z.strictObject({ email: z.email().max(254), vip: z.boolean() }),
  response: z.object({ userId: z.string(), email: z.string(), role: planIdSchema }),
});

export const billingEndpoints = [
  getBillingEndpoint,
  createCheckoutEndpoint,
  openBillingPortalEndpoint,
  cancelSubscriptionEndpoint,
  renewSubscriptionEndpoint,
  setVipEndpoint,
] as const;

/** The price id of a VIP plan granted by an administrator (no billing provider behind it). */
export const GRANTED_VIP_PRICE_ID = 'VIP-granted';

/** Where Stripe sends its webhooks (raw body, Stripe-Signature; outside the JSON contract). */
export const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe';
