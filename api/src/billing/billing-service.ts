import type { Redis } from 'ioredis';
import Stripe from 'stripe';
import {
  chooseCurrentSubscription,
  GRANTED_VIP_PRICE_ID,
  OnAirError,
  planEntitlements,
  subscriptionStatusSchema,
  userAccountChannel,
  type BillingOverview,
  type PlanId,
  type PlanPrice,
  type ServerMessage,
  type SubscriptionStatus,
  type SubscriptionView,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { loadCurrentUser, type CurrentUser } from '../http/auth-context.ts';
import type { MoneyWebhooks } from '../money/index.ts';
import type { BillingSettings } from './config.ts';

/** Prices are read from Stripe at most this often (the page shows them; the operator may change them). */
const PRICE_CACHE_MS = 60_000;

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

interface StoredSubscription {
  id: string;
  externalId: string | null;
  planId: string;
  itemPriceId: string;
  status: string;
  periodUnit: string;
  nextBillingAt: Date | null;
}

/**
 * Plans sold through Stripe (spec §2 Plan & Billing, §4 Checkout and subscription rules). Stripe
 * is the source of truth: checkout and the portal are Stripe's hosted pages, and the server learns
 * of every change from signed webhooks, applied once each (event ids are stored in the same
 * transaction as the change) and never rolled back by an older event arriving late. The
 * subscription row it writes is what every entitlement check on the server reads.
 */
export class BillingService {
  private readonly stripe: Stripe | undefined;
  private prices: { at: number; list: PlanPrice[] } | undefined;

  constructor(
    private readonly deps: {
      db: Db;
      redis: Redis;
      logger: Logger;
      publicUrl: string;
      settings: BillingSettings | undefined;
      classicStudioUrl: string | null;
      money?: MoneyWebhooks;
    },
  ) {
    const settings = deps.settings;
    if (settings) {
      const api = settings.apiUrl;
      this.stripe = new Stripe(settings.secretKey, {
        maxNetworkRetries: 2,
        timeout: 30_000,
        ...(api
          ? { host: api.hostname, port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)), protocol: api.protocol === 'https:' ? 'https' : 'http' }
          : {}),
      });
    }
  }

  /** Real payments are not taken: a Stripe test key, which the local double also uses. */
  get testMode(): boolean {
    return this.deps.settings?.secretKey.startsWith('sk_test_') ?? false;
  }

  async overview(user: CurrentUser): Promise<BillingOverview> {
    const rows = await this.subscriptionsOf(user.id);
    const current = chooseCurrentSubscription(rows);
    return {
      available: this.stripe !== undefined,
      testMode: this.testMode,
      plans: this.stripe ? await this.planPrices() : [],
      role: user.plan,
      entitlements: user.entitlements,
      subscription: current && current.externalId ? view(current) : null,
      hasBillingHistory: rows.some((r) => r.externalId !== null),
      classicStudioUrl: this.deps.classicStudioUrl,
    };
  }

  async checkout(user: CurrentUser & { email?: string }, priceId: string): Promise<{ url: string }> {
    const stripe = this.requireStripe();
    const price = this.deps.settings!.prices.find((p) => p.priceId === priceId && p.sold);
    if (!price) throw new OnAirError('BILLING_UNKNOWN_PRICE', undefined, { field: 'priceId' });
    if (user.plan === price.planId) throw new OnAirError('BILLING_PLAN_ALREADY_HELD');
    const customer = await this.customerOf(user.id);
    const base = this.deps.publicUrl.replace(/\/+$/, '');
    const session = await this.call(() =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: user.id,
        line_items: [{ price: priceId, quantity: 1 }],
        subscription_data: { metadata: { userId: user.id } },
        success_url: `${base}/billing?checkout=complete&session={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}/billing`,
      }),
    );
    if (!session.url) throw new OnAirError('BILLING_PROVIDER_FAILED');
    this.deps.logger.info({ userId: user.id, priceId }, 'checkout opened');
    return { url: session.url };
  }

  async portal(user: CurrentUser): Promise<{ url: string }> {
    const stripe = this.requireStripe();
    // A paying user manages their plan there; a Free user who paid before reads their billing history.
    const customer = await this.deps.db.billingCustomer.findUnique({ where: { userId: user.id }, select: { customerId: true } });
    const paidBefore = await this.deps.db.subscription.count({ where: { userId: user.id, externalId: { not: null } } });
    if (!customer || paidBefore === 0) throw new OnAirError('BILLING_NO_SUBSCRIPTION');
    const portal = await this.call(() =>
      stripe.billingPortal.sessions.create({ customer: customer.customerId, return_url: `${this.deps.publicUrl.replace(/\/+$/, '')}/billing` }),
    );
    return { url: portal.url };
  }

  /** Cancel at the end of the term (`cancel: true`) or take the cancellation back. */
  async setCancellation(user: CurrentUser, subscriptionId: string, cancel: boolean): Promise<BillingOverview> {
    const stripe = this.requireStripe();
    const row = await this.deps.db.subscription.findFirst({
      where: { externalId: subscriptionId, userId: user.id, status: { notIn: ['cancelled'] } },
      select: { planId: true },
    });
    if (!row || row.planId === 'Free') throw new OnAirError('BILLING_NO_SUBSCRIPTION');
    const updated = await this.call(() => stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel }));
    // Applied at once from Stripe's answer; the webhook that follows carries the same state.
    await this.deps.db.$transaction((tx) => this.applySubscription(tx, updated, new Date()));
    this.deps.logger.info(
      { audit: cancel ? 'subscription-cancelled' : 'subscription-renewed', userId: user.id, subscriptionId },
      cancel ? 'subscription set to end with its term' : 'subscription renews again',
    );
    await this.announce(user.id);
    const fresh = await loadCurrentUser(this.deps.db, user.id);
    return this.overview(fresh ?? user);
  }

  /**
   * A webhook from Stripe: the signature and its timestamp are checked (Stripe's own tolerance of
   * 300 s), then the event is applied in one transaction with its id, so a replay changes nothing
   * and a failure leaves nothing half-applied for Stripe's retry.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<void> {
    const stripe = this.requireStripe();
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature ?? '', this.deps.settings!.webhookSecret);
    } catch {
      throw new OnAirError('BILLING_WEBHOOK_SIGNATURE_INVALID');
    }
    const eventAt = new Date(event.created * 1000);
    // Events may arrive in any order and Stripe stamps them to the second: a subscription event is
    // applied as the subscription is now at Stripe (read back), stamped with the time it was read,
    // so a late older event cannot roll a newer state back.
    const isSubscriptionEvent =
      event.type === 'customer.subscription.created' || event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted';
    const fresh = isSubscriptionEvent ? await this.call(() => stripe.subscriptions.retrieve((event.data.object as Stripe.Subscription).id)) : undefined;
    const readAt = new Date();
    // Tips, refunds, disputes and Connect payouts belong to the money area: applied in the same
    // transaction as the event id, announced after the commit.
    let announceMoney: (() => Promise<void>) | undefined;
    const affected = await this.deps.db.$transaction(async (tx) => {
      const seen = await tx.billingEvent.findUnique({ where: { id: event.id }, select: { id: true } });
      if (seen) return undefined;
      await tx.billingEvent.create({ data: { id: event.id, type: event.type, createdAt: eventAt } });
      if (this.deps.money?.handles(event)) {
        announceMoney = await this.deps.money.apply(tx, event);
        return undefined;
      }
      if (fresh) return this.applySubscription(tx, fresh, readAt);
      if (event.type === 'checkout.session.completed') {
        const session = event.data.object;
        if (session.client_reference_id && typeof session.customer === 'string') await this.linkCustomer(tx, session.client_reference_id, session.customer);
      }
      // invoice.paid and invoice.payment_failed change the subscription's status, which its own
      // customer.subscription.updated event carries; they are recorded as seen.
      return undefined;
    });
    this.deps.logger.info({ eventId: event.id, type: event.type, applied: affected !== undefined }, 'billing webhook');
    if (affected) await this.announce(affected);
    if (announceMoney)
      await announceMoney().catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message, eventId: event.id }, 'money event not announced'));
  }

  /**
   * VIP is granted by an administrator, not sold (spec §2): a subscription row without a provider
   * behind it, with VIP's entitlements; taking it back cancels that row. Audited in the log.
   */
  async setVip(admin: CurrentUser, email: string, vip: boolean): Promise<{ userId: string; email: string; role: PlanId }> {
    const user = await this.deps.db.user.findFirst({ where: { email: { equals: email.trim(), mode: 'insensitive' } }, select: { id: true, email: true } });
    if (!user) throw new OnAirError('NOT_FOUND', 'No OnAir account uses that e-mail address.', { field: 'email' });
    await this.deps.db.$transaction(async (tx) => {
      const granted = await tx.subscription.findMany({
        where: { userId: user.id, itemPriceId: GRANTED_VIP_PRICE_ID, status: { not: 'cancelled' } },
        select: { id: true },
      });
      if (vip && granted.length === 0) {
        await tx.subscription.create({
          data: {
            userId: user.id,
            planId: 'VIP',
            itemPriceId: GRANTED_VIP_PRICE_ID,
            status: 'active',
            entitlements: { create: Object.entries(planEntitlements.VIP).map(([featureId, value]) => ({ featureId, value })) },
          },
        });
      }
      if (!vip && granted.length > 0) await tx.subscription.updateMany({ where: { id: { in: granted.map((g) => g.id) } }, data: { status: 'cancelled' } });
    });
    this.deps.logger.info({ audit: vip ? 'vip-granted' : 'vip-taken-back', userId: user.id, by: admin.id }, vip ? 'VIP granted' : 'VIP taken back');
    await this.announce(user.id);
    const now = await loadCurrentUser(this.deps.db, user.id);
    return { userId: user.id, email: user.email, role: now?.plan ?? 'Free' };
  }

  /** Writes Stripe's state of a subscription to its row; returns the user it belongs to, or undefined when not applied. */
  private async applySubscription(tx: Tx, subscription: Stripe.Subscription, at: Date): Promise<string | undefined> {
    const customerId = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
    const customer = await tx.billingCustomer.findUnique({ where: { customerId }, select: { userId: true } });
    const userId = customer?.userId ?? subscription.metadata.userId;
    const item = subscription.items.data[0];
    const plan = item ? this.deps.settings!.prices.find((p) => p.priceId === item.price.id) : undefined;
    if (!userId || !item || !plan) {
      this.deps.logger.warn(
        { subscriptionId: subscription.id, customerId, priceId: item?.price.id },
        'subscription of an unknown customer or price: not applied',
      );
      return undefined;
    }
    const existing = await tx.subscription.findUnique({ where: { externalId: subscription.id }, select: { id: true, externalUpdatedAt: true } });
    // Two reads of one subscription racing (a webhook and a cancel): the later read wins.
    if (existing?.externalUpdatedAt && existing.externalUpdatedAt > at) {
      this.deps.logger.info({ subscriptionId: subscription.id }, 'older subscription event ignored');
      return undefined;
    }
    const data = {
      userId,
      planId: plan.planId,
      itemPriceId: item.price.id,
      status: statusOf(subscription),
      periodUnit: item.price.recurring?.interval === 'year' ? 'year' : 'month',
      nextBillingAt: new Date(item.current_period_end * 1000),
      externalUpdatedAt: at,
    };
    const row = existing
      ? await tx.subscription.update({ where: { id: existing.id }, data })
      : await tx.subscription.create({ data: { ...data, externalId: subscription.id } });
    await tx.entitlement.deleteMany({ where: { subscriptionId: row.id } });
    await tx.entitlement.createMany({
      data: Object.entries(planEntitlements[plan.planId]).map(([featureId, value]) => ({ subscriptionId: row.id, featureId, value })),
    });
    return userId;
  }

  private async linkCustomer(tx: Tx, userId: string, customerId: string): Promise<void> {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true } });
    if (!user) return;
    await tx.billingCustomer.upsert({ where: { userId }, create: { userId, customerId }, update: {} });
  }

  /** Every open tab of the user takes the new role, entitlements and subscription. */
  private async announce(userId: string): Promise<void> {
    const user = await loadCurrentUser(this.deps.db, userId);
    if (!user) return;
    const current = chooseCurrentSubscription(await this.subscriptionsOf(userId));
    const message: ServerMessage = {
      type: 'subscription.updated',
      role: user.plan,
      entitlements: user.entitlements,
      subscription: current && current.externalId ? view(current) : null,
    };
    await this.deps.redis.publish(userAccountChannel(userId), JSON.stringify(message));
  }

  private async customerOf(userId: string): Promise<string> {
    const stored = await this.deps.db.billingCustomer.findUnique({ where: { userId }, select: { customerId: true } });
    if (stored) return stored.customerId;
    const user = await this.deps.db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true } });
    const stripe = this.requireStripe();
    // One customer per user even when two checkouts start at once: Stripe answers the same key with the same customer.
    const customer = await this.call(() =>
      stripe.customers.create(
        { email: user.email, ...(user.name ? { name: user.name } : {}), metadata: { userId } },
        { idempotencyKey: `onair-customer-${userId}` },
      ),
    );
    await this.deps.db.billingCustomer.upsert({ where: { userId }, create: { userId, customerId: customer.id }, update: {} });
    return customer.id;
  }

  private async subscriptionsOf(userId: string): Promise<StoredSubscription[]> {
    return this.deps.db.subscription.findMany({
      where: { userId },
      orderBy: { createdAt: 'desc' },
      select: { id: true, externalId: true, planId: true, itemPriceId: true, status: true, periodUnit: true, nextBillingAt: true },
    });
  }

  private async planPrices(): Promise<PlanPrice[]> {
    if (this.prices && Date.now() - this.prices.at < PRICE_CACHE_MS) return this.prices.list;
    const stripe = this.requireStripe();
    const sold = this.deps.settings!.prices.filter((p) => p.sold);
    const list = await Promise.all(
      sold.map(async ({ priceId, planId }) => {
        const price = await this.call(() => stripe.prices.retrieve(priceId));
        return {
          planId,
          priceId,
          interval: price.recurring?.interval === 'year' ? ('year' as const) : ('month' as const),
          unitAmount: price.unit_amount ?? 0,
          currency: price.currency,
        };
      }),
    );
    this.prices = { at: Date.now(), list };
    return list;
  }

  private requireStripe(): Stripe {
    if (!this.stripe) throw new OnAirError('BILLING_UNAVAILABLE');
    return this.stripe;
  }

  /** Stripe's refusals and outages become one service error; the detail is logged, not shown. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof OnAirError) throw err;
      this.deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'billing provider call failed');
      throw new OnAirError('BILLING_PROVIDER_FAILED');
    }
  }
}

/** Stripe's status in the spec's words (§3); a subscription set to end with its term is non_renewing. */
function statusOf(subscription: Stripe.Subscription): SubscriptionStatus {
  switch (subscription.status) {
    case 'canceled':
    case 'incomplete_expired':
      return 'cancelled';
    case 'paused':
      return 'paused';
    case 'incomplete':
      return 'future';
    case 'trialing':
      return subscription.cancel_at_period_end ? 'non_renewing' : 'in_trial';
    default:
      // active, past_due, unpaid: the plan holds while Stripe retries the payment.
      return subscription.cancel_at_period_end ? 'non_renewing' : 'active';
  }
}

function view(row: StoredSubscription): SubscriptionView {
  return {
    id: row.externalId ?? row.id,
    planId: row.planId as PlanId,
    status: subscriptionStatusSchema.catch('active').parse(row.status),
    priceId: row.itemPriceId,
    periodUnit: row.periodUnit === 'year' ? 'year' : 'month',
    nextBillingAt: row.nextBillingAt?.toISOString() ?? null,
  };
}
