import { Router } from 'express';
import { billingEndpoints, STRIPE_WEBHOOK_PATH } from '@onair/protocol';
import type { SessionResolver } from '../http/auth-context.ts';
import { middleware, type Platform } from '../module.ts';
import type { MoneyWebhooks } from '../money/index.ts';
import { BillingService } from './billing-service.ts';
import { classicStudioUrl, type BillingSettings } from './config.ts';
import { billingRoutes, stripeWebhookHandlers } from './routes.ts';
import { billingStudioSocket } from './studio-socket.ts';

export interface BillingServices {
  billing: BillingService;
}

/** Plans and subscriptions through Stripe, learnt from its signed webhooks. */
export const billingModule = {
  name: 'billing',
  build: (deps: Platform & { stripeSettings: BillingSettings | undefined; moneyWebhooks: MoneyWebhooks }): BillingServices => ({
    billing: new BillingService({
      db: deps.db,
      redis: deps.redis,
      logger: deps.logger,
      publicUrl: deps.config.PUBLIC_URL,
      settings: deps.stripeSettings,
      classicStudioUrl: classicStudioUrl(deps.config),
      money: deps.moneyWebhooks,
    }),
  }),
  /** `/ws`: a user's subscription changes, to every tab. */
  studioSocket: { name: 'billing', build: (c: Platform) => billingStudioSocket(c) },
  http: {
    /** Before the JSON parser: the signature covers the raw bytes. */
    stripeWebhook: middleware((c: BillingServices) => Router().post(STRIPE_WEBHOOK_PATH, ...stripeWebhookHandlers(c.billing))),
    routes: {
      endpoints: billingEndpoints,
      mount: (c: Platform & BillingServices & { resolveSession: SessionResolver }) =>
        billingRoutes({ db: c.db, billing: c.billing, resolveSession: c.resolveSession }),
    },
  },
};
