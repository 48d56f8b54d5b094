import express, { Router, type RequestHandler } from 'express';
import {
  cancelSubscriptionEndpoint,
  createCheckoutEndpoint,
  getBillingEndpoint,
  openBillingPortalEndpoint,
  renewSubscriptionEndpoint,
  setVipEndpoint,
} from '@onair/protocol';
import { OnAirError } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { BillingService } from './billing-service.ts';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';

/** Largest Stripe webhook body accepted (Stripe's events are a few KB). */
const WEBHOOK_MAX_BYTES = 512 * 1024;

export function billingRoutes(deps: { db: Db; billing: BillingService; resolveSession: SessionResolver }): Router {
  const router = Router();
  router.use(['/api/v1/billing', '/api/v1/admin/vip'], authenticate(deps.db, deps.resolveSession));
  mount(router, getBillingEndpoint, async (_input, { req }) => deps.billing.overview(getCurrentUser(req)));
  mount(router, createCheckoutEndpoint, async ({ body }, { req }) => deps.billing.checkout(getCurrentUser(req), body.priceId));
  mount(router, openBillingPortalEndpoint, async (_input, { req }) => deps.billing.portal(getCurrentUser(req)));
  mount(router, cancelSubscriptionEndpoint, async ({ body }, { req }) => deps.billing.setCancellation(getCurrentUser(req), body.subscriptionId, true));
  mount(router, renewSubscriptionEndpoint, async ({ body }, { req }) => deps.billing.setCancellation(getCurrentUser(req), body.subscriptionId, false));
  mount(router, setVipEndpoint, async ({ body }, { req }) => {
    const admin = getCurrentUser(req);
    if (admin.userType !== 'ADMIN') throw new OnAirError('FORBIDDEN', 'Only an administrator can grant or take back VIP.');
    return deps.billing.setVip(admin, body.email, body.vip);
  });
  return router;
}

/**
 * Stripe's webhooks: the signature is computed over the exact bytes sent, so this route reads the
 * raw body itself and must be mounted before the JSON body parser.
 */
export function stripeWebhookHandlers(billing: BillingService): RequestHandler[] {
  return [
    express.raw({ type: () => true, limit: WEBHOOK_MAX_BYTES }),
    (req, res, next) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      billing
        .handleWebhook(body, req.header('stripe-signature'))
        .then(() => res.json({ received: true }))
        .catch(next);
    },
  ];
}
