import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseForm } from 'qs';
import { checkoutPage, escapeHtml, formatAmount, formatDate, page, paymentPage, portalPage } from './hosted-pages.ts';
import { PaymentError, PaymentsDouble, type PayoutOutcome } from './payments.ts';
import { WebhookSender, type WebhookDelivery } from './webhooks.ts';

/**
 * A local stand-in for the part of Stripe's API that OnAir uses, for tests and for the one-machine
 * stack's test mode: the real `stripe` client talks to it (`host`, `port`, `protocol: 'http'`),
 * webhooks are signed as Stripe signs them, and a browser can complete its hosted checkout and
 * portal pages. State is in memory. Every page says it is a test double.
 */

/** The API version the double answers as: the one the installed `stripe` package pins. */
export const STRIPE_DOUBLE_API_VERSION = '2026-10-28.endive';

export interface CataloguePrice {
  id: string;
  product: { id: string; name: string };
  /** Minor units (cents). */
  unitAmount: number;
  currency: string;
  interval: 'month' | 'year';
}

export interface StripeDoubleOptions {
  catalogue: readonly CataloguePrice[];
  /** URLs webhook events are POSTed to. */
  webhookEndpoints?: readonly string[];
  secretKey?: string;
  webhookSecret?: string;
  /** Delays before each retry of a failed webhook delivery (Stripe's are hours apart; tests shorten them). */
  retryDelaysMs?: readonly number[];
  port?: number;
}

type Json = Record<string, unknown>;

export interface RunningStripeDouble {
  url: string;
  host: string;
  port: number;
  secretKey: string;
  webhookSecret: string;
  /** Every event created so far, oldest first. */
  events(): Json[];
  /** Every webhook delivery attempt so far. */
  deliveries(): WebhookDelivery[];
  /** Sends an event again, as Stripe's "resend" does (a replay, or an older event after a newer one). */
  resend(eventId: string): void;
  /** Moves the double's clock on: subscriptions whose period ended renew (or end, when set to cancel). */
  advanceClock(seconds: number): void;
  /** The next renewal of this customer's subscriptions fails (invoice.payment_failed, status past_due). */
  failNextPayment(customerId: string): void;
  /** Resolves when every webhook delivery under way (retries included) has ended. */
  webhooksSettled(): Promise<void>;
  /** The card holder disputes a payment (a chargeback): charge.dispute.created. */
  dispute(paymentIntentId: string): { id: string };
  /** A dispute ends: won (funds reinstated) or lost. */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): void;
  /** Refunds a payment as the Dashboard would (charge.refunded). */
  refund(paymentIntentId: string, amount?: number): void;
  /** Every Connect payout so far, with its connected account. */
  payouts(): { id: string; amount: number; currency: string; status: string; account: string; metadata: Record<string, string> }[];
  /** Moves a payout on: in transit, paid, failed, canceled, or delayed (a later arrival date). */
  advancePayout(payoutId: string, outcome: PayoutOutcome | 'delayed'): void;
  /**
   * While on, an API call is answered only after the webhooks it caused were delivered: Stripe
   * does not order the two, so its caller may see the event before the response.
   */
  webhooksBeforeResponses(on: boolean): void;
  stop(): Promise<void>;
}

class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const TEST_CARDS: Record<string, { ok: boolean; message?: string }> = {
  '4242424242424242': { ok: true },
  '4000000000000002': { ok: false, message: 'Your card was declined.' },
};

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('base64url')}`;
const list = (data: Json[], url: string): Json => ({ object: 'list', data, has_more: false, url });

export async function startStripeDouble(options: StripeDoubleOptions): Promise<RunningStripeDouble> {
  const secretKey = options.secretKey ?? `sk_test_double_${randomBytes(16).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(24).toString('hex')}`;
  let clockOffset = 0;
  let webhooksFirst = false;
  const now = () => Math.floor(Date.now() / 1000) + clockOffset;

  const prices = new Map(options.catalogue.map((p) => [p.id, p]));
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json & { lineItems: { price: string; quantity: number }[] }>();
  const portals = new Map<string, { customer: string; returnUrl: string }>();
  const subscriptions = new Map<string, Json>();
  const invoices = new Map<string, Json>();
  const cards = new Map<string, string>();
  const failNext = new Set<string>();
  const events: Json[] = [];
  const idempotent = new Map<string, { status: number; body: string }>();
  const webhooks = new WebhookSender(options.webhookEndpoints ?? [], webhookSecret, options.retryDelaysMs ?? [1000, 5000, 30_000], now);
  let baseUrl = '';
  const payments = new PaymentsDouble({
    now: () => now(),
    emit: (type, object, previous, account) => emit(type, object, previous, account),
    baseUrl: () => baseUrl,
  });

  const priceObject = (id: string): Json => {
    const p = prices.get(id);
    if (!p) throw new StripeError(400, 'invalid_request_error', `No such price: '${id}'`, 'resource_missing', 'price');
    return {
      id: p.id,
      object: 'price',
      active: true,
      currency: p.currency,
      unit_amount: p.unitAmount,
      type: 'recurring',
      recurring: { interval: p.interval, interval_count: 1, usage_type: 'licensed' },
      product: p.product.id,
      livemode: false,
      metadata: {},
    };
  };
  const productObject = (id: string): Json => {
    const p = options.catalogue.find((c) => c.product.id === id);
    if (!p) throw new StripeError(404, 'invalid_request_error', `No such product: '${id}'`, 'resource_missing', 'id');
    return { id, object: 'product', name: p.product.name, active: true, livemode: false, metadata: {} };
  };
  const expandPrice = (price: Json, expand: string[], prefix: string): Json =>
    expand.includes(`${prefix}product`) ? { ...price, product: productObject(price.product as string) } : price;

  const emit = (type: string, object: Json, previous?: Json, account?: string): void => {
    const event: Json = {
      id: newId('evt'),
      ...(account ? { account } : {}),
      object: 'event',
      api_version: STRIPE_DOUBLE_API_VERSION,
      created: now(),
      type,
      data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: (options.webhookEndpoints ?? []).length,
      request: { id: null, idempotency_key: null },
    };
    events.push(event);
    webhooks.send(event as { id: string });
  };

  const find = <T>(map: Map<string, T>, id: string, what: string): T => {
    const found = map.get(id);
    if (!found) throw new StripeError(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', 'id');
    return found;
  };

  const intervalSeconds = (interval: string) => (interval === 'year' ? 365 : 30) * 24 * 3600;

  const createInvoice = (subscription: Json, paid: boolean, reason: string): Json => {
    const item = ((subscription.items as Json).data as Json[])[0]!;
    const price = item.price as Json;
    const invoice: Json = {
      id: newId('in'),
      object: 'invoice',
      customer: subscription.customer,
      status: paid ? 'paid' : 'open',
      amount_due: price.unit_amount,
      amount_paid: paid ? price.unit_amount : 0,
      amount_remaining: paid ? 0 : price.unit_amount,
      currency: price.currency,
      billing_reason: reason,
      created: now(),
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      hosted_invoice_url: '',
      livemode: false,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
      lines: list(
        [
          {
            id: newId('il'),
            object: 'line_item',
            amount: price.unit_amount,
            currency: price.currency,
            pricing: { price_details: { price: price.id, product: price.product } },
            period: { start: item.current_period_start, end: item.current_period_end },
          },
        ],
        '/v1/invoices/lines',
      ),
    };
    invoice.hosted_invoice_url = `${baseUrl}/invoices/${invoice.id as string}`;
    invoices.set(invoice.id as string, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  };

  const setPeriod = (subscription: Json, start: number): void => {
    const item = ((subscription.items as Json).data as Json[])[0]!;
    const end = start + intervalSeconds(((item.price as Json).recurring as Json).interval as string);
    Object.assign(item, { current_period_start: start, current_period_end: end });
    // Older API versions read the period from the subscription itself.
    Object.assign(subscription, { current_period_start: start, current_period_end: end });
  };

  const completeCheckout = (session: Json & { lineItems: { price: string; quantity: number }[] }, card: string): void => {
    let customerId = session.customer as string | null;
    if (!customerId) {
      const customer = {
        id: newId('cus'),
        object: 'customer',
        email: session.customer_email ?? null,
        name: null,
        created: now(),
        livemode: false,
        metadata: {},
        invoice_settings: { default_payment_method: null },
      };
      customers.set(customer.id, customer);
      customerId = customer.id;
      emit('customer.created', customer);
    }
    cards.set(customerId, card.slice(-4));
    const line = session.lineItems[0]!;
    const subscription: Json = {
      id: newId('sub'),
      object: 'subscription',
      customer: customerId,
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created: now(),
      start_date: now(),
      currency: priceObject(line.price).currency,
      livemode: false,
      metadata: ((session.subscription_data as Json | undefined)?.metadata as Json | undefined) ?? {},
      items: list(
        [{ id: newId('si'), object: 'subscription_item', price: priceObject(line.price), quantity: line.quantity, metadata: {} }],
        '/v1/subscription_items',
      ),
      latest_invoice: null,
    };
    ((subscription.items as Json).data as Json[])[0]!.subscription = subscription.id;
    setPeriod(subscription, now());
    subscriptions.set(subscription.id as string, subscription);
    const invoice = createInvoice(subscription, true, 'subscription_create');
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer: customerId, subscription: subscription.id });
    emit('customer.subscription.created', subscription);
    emit('invoice.paid', invoice);
    emit('checkout.session.completed', session);
  };

  const updateSubscription = (subscription: Json, params: Json): void => {
    const previous: Json = {};
    if (params.cancel_at_period_end !== undefined) {
      const cancel = params.cancel_at_period_end === 'true' || params.cancel_at_period_end === true;
      if (cancel !== subscription.cancel_at_period_end) {
        previous.cancel_at_period_end = subscription.cancel_at_period_end;
        previous.cancel_at = subscription.cancel_at;
        subscription.cancel_at_period_end = cancel;
        subscription.cancel_at = cancel ? (subscription.current_period_end as number) : null;
      }
    }
    const items = params.items as Json[] | Json | undefined;
    const wanted = Array.isArray(items) ? items[0] : items ? (items as Json)['0'] : undefined;
    if (wanted && typeof wanted === 'object' && (wanted as Json).price) {
      const item = ((subscription.items as Json).data as Json[])[0]!;
      if ((wanted as Json).id && (wanted as Json).id !== item.id)
        throw new StripeError(400, 'invalid_request_error', `No such subscription item: '${String((wanted as Json).id)}'`, 'resource_missing', 'items[0][id]');
      previous.items = structuredClone(subscription.items);
      item.price = priceObject((wanted as Json).price as string);
    }
    if (params.metadata && typeof params.metadata === 'object') {
      previous.metadata = subscription.metadata;
      subscription.metadata = { ...(subscription.metadata as Json), ...(params.metadata as Json) };
    }
    if (Object.keys(previous).length > 0) emit('customer.subscription.updated', subscription, previous);
  };

  const endSubscription = (subscription: Json): void => {
    Object.assign(subscription, { status: 'canceled', canceled_at: now(), ended_at: now() });
    emit('customer.subscription.deleted', subscription);
  };

  const advanceClock = (seconds: number): void => {
    clockOffset += seconds;
    for (const subscription of subscriptions.values()) {
      while (subscription.status !== 'canceled' && (subscription.current_period_end as number) <= now()) {
        if (subscription.cancel_at_period_end) {
          endSubscription(subscription);
          break;
        }
        const previous = {
          current_period_start: subscription.current_period_start,
          current_period_end: subscription.current_period_end,
          status: subscription.status,
        };
        setPeriod(subscription, subscription.current_period_end as number);
        const customer = subscription.customer as string;
        if (failNext.delete(customer)) {
          subscription.status = 'past_due';
          const invoice = createInvoice(subscription, false, 'subscription_cycle');
          emit('invoice.payment_failed', invoice);
          emit('customer.subscription.updated', subscription, previous);
          break;
        }
        subscription.status = 'active';
        const invoice = createInvoice(subscription, true, 'subscription_cycle');
        emit('invoice.paid', invoice);
        emit('customer.subscription.updated', subscription, previous);
      }
    }
  };

  // ─── The REST API ───

  const api = (method: string, path: string[], params: Json, query: Json, account: string | undefined): { status?: number; body: Json } => {
    const expand = ([] as string[]).concat((params.expand ?? query.expand ?? []) as string[]);
    const [resource, id, sub] = path;
    const paid = payments.route(method, path, params, account);
    if (paid) return { body: paid };
    if (resource === 'prices' && method === 'GET') {
      if (id) return { body: expandPrice(priceObject(id), expand, '') };
      return {
        body: list(
          [...prices.keys()].map((p) => expandPrice(priceObject(p), expand, 'data.')),
          '/v1/prices',
        ),
      };
    }
    if (resource === 'products' && method === 'GET' && id) return { body: productObject(id) };
    if (resource === 'customers') {
      if (method === 'POST' && !id) {
        const customer = {
          id: newId('cus'),
          object: 'customer',
          email: (params.email as string | undefined) ?? null,
          name: (params.name as string | undefined) ?? null,
          created: now(),
          livemode: false,
          metadata: (params.metadata as Json | undefined) ?? {},
          invoice_settings: { default_payment_method: null },
        };
        customers.set(customer.id, customer);
        emit('customer.created', customer);
        return { body: customer };
      }
      if (method === 'GET' && !id) {
        const email = query.email as string | undefined;
        return {
          body: list(
            [...customers.values()].filter((c) => email === undefined || c.email === email),
            '/v1/customers',
          ),
        };
      }
      if (method === 'GET' && id) return { body: find(customers, id, 'customer') };
      if (method === 'POST' && id) {
        const customer = find(customers, id, 'customer');
        for (const key of ['email', 'name'] as const) if (params[key] !== undefined) customer[key] = params[key];
        if (params.metadata) customer.metadata = { ...(customer.metadata as Json), ...(params.metadata as Json) };
        return { body: customer };
      }
    }
    if (resource === 'checkout' && id === 'sessions') {
      const sessionId = sub;
      if (method === 'POST' && !sessionId && params.mode === 'payment') return { body: payments.createPaymentSession(params) };
      if (method === 'GET' && sessionId && payments.sessions.has(sessionId)) return { body: payments.publicSession(payments.sessions.get(sessionId)!) };
      if (method === 'POST' && !sessionId) {
        if (params.mode !== 'subscription')
          throw new StripeError(400, 'invalid_request_error', 'Only mode=subscription is supported by the double.', 'parameter_invalid', 'mode');
        const lineItems = Object.values((params.line_items ?? {}) as Record<string, Json>).map((l) => ({
          price: String(l.price ?? ''),
          quantity: Number(l.quantity ?? 1),
        }));
        if (lineItems.length !== 1) throw new StripeError(400, 'invalid_request_error', 'Exactly one line item is needed.', 'parameter_invalid', 'line_items');
        priceObject(lineItems[0]!.price);
        for (const key of ['success_url', 'cancel_url'] as const)
          if (typeof params[key] !== 'string') throw new StripeError(400, 'invalid_request_error', `Missing required param: ${key}.`, 'parameter_missing', key);
        if (params.customer) find(customers, params.customer as string, 'customer');
        const session = {
          id: newId('cs'),
          object: 'checkout.session',
          mode: 'subscription',
          status: 'open',
          payment_status: 'unpaid',
          url: '',
          success_url: params.success_url,
          cancel_url: params.cancel_url,
          customer: (params.customer as string | undefined) ?? null,
          customer_email: (params.customer_email as string | undefined) ?? null,
          client_reference_id: (params.client_reference_id as string | undefined) ?? null,
          metadata: (params.metadata as Json | undefined) ?? {},
          subscription_data: params.subscription_data ?? null,
          subscription: null,
          created: now(),
          expires_at: now() + 24 * 3600,
          livemode: false,
          lineItems,
        };
        session.url = `${baseUrl}/checkout/${session.id}`;
        sessions.set(session.id, session);
        return { body: publicSession(session) };
      }
      if (method === 'GET' && sessionId) return { body: publicSession(find(sessions, sessionId, 'checkout.session')) };
    }
    if (resource === 'billing_portal' && id === 'sessions' && method === 'POST') {
      const customer = find(customers, String(params.customer ?? ''), 'customer');
      const portal = {
        id: newId('bps'),
        object: 'billing_portal.session',
        customer: customer.id as string,
        return_url: (params.return_url as string | undefined) ?? null,
        created: now(),
        livemode: false,
        url: '',
      };
      portal.url = `${baseUrl}/portal/${portal.id}`;
      portals.set(portal.id, { customer: portal.customer, returnUrl: portal.return_url ?? '/' });
      return { body: portal };
    }
    if (resource === 'subscriptions') {
      if (method === 'GET' && !id) {
        const customer = query.customer as string | undefined;
        const status = (query.status as string | undefined) ?? 'all';
        return {
          body: list(
            [...subscriptions.values()].filter((s) => (customer === undefined || s.customer === customer) && (status === 'all' || s.status === status)),
            '/v1/subscriptions',
          ),
        };
      }
      if (method === 'GET' && id) return { body: expandSubscription(find(subscriptions, id, 'subscription'), expand) };
      if (method === 'POST' && id) {
        const subscription = find(subscriptions, id, 'subscription');
        if (subscription.status === 'canceled')
          throw new StripeError(
            400,
            'invalid_request_error',
            'A canceled subscription can only update its cancellation_details and metadata.',
            'resource_missing',
          );
        updateSubscription(subscription, params);
        return { body: subscription };
      }
      if (method === 'DELETE' && id) {
        const subscription = find(subscriptions, id, 'subscription');
        if (subscription.status !== 'canceled') endSubscription(subscription);
        return { body: subscription };
      }
    }
    if (resource === 'invoices' && method === 'GET') {
      if (id) return { body: find(invoices, id, 'invoice') };
      const customer = query.customer as string | undefined;
      return { body: list([...invoices.values()].filter((i) => customer === undefined || i.customer === customer).reverse(), '/v1/invoices') };
    }
    if (resource === 'events' && method === 'GET' && id) return { body: find(new Map(events.map((e) => [e.id as string, e])), id, 'event') };
    throw new StripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: /v1/${path.join('/')}).`);
  };

  const publicSession = (session: Json & { lineItems: unknown }): Json => {
    const { lineItems: _lineItems, ...rest } = session;
    return rest;
  };
  const expandSubscription = (subscription: Json, expand: string[]): Json =>
    expand.includes('items.data.price.product')
      ? {
          ...subscription,
          items: {
            ...(subscription.items as Json),
            data: ((subscription.items as Json).data as Json[]).map((item) => ({ ...item, price: expandPrice(item.price as Json, ['product'], '') })),
          },
        }
      : subscription;

  // ─── Hosted pages ───

  const planOf = (priceId: string) => {
    const price = prices.get(priceId)!;
    return { planName: price.product.name, amount: formatAmount(price.unitAmount, price.currency), interval: price.interval };
  };

  const portalView = (id: string, portal: { customer: string; returnUrl: string }) => {
    const subscription = [...subscriptions.values()].reverse().find((s) => s.customer === portal.customer && s.status !== 'canceled');
    const item = subscription ? ((subscription.items as Json).data as Json[])[0]! : undefined;
    const price = item ? prices.get((item.price as Json).id as string) : undefined;
    const other = price ? options.catalogue.find((p) => p.product.id === price.product.id && p.interval !== price.interval) : undefined;
    return portalPage({
      id,
      returnUrl: portal.returnUrl,
      ...(subscription && price
        ? {
            subscription: {
              ...planOf(price.id),
              status: subscription.status as string,
              periodEnd: formatDate(subscription.current_period_end as number),
              cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
              ...(other
                ? { switchTo: { priceId: other.id, label: other.interval === 'year' ? 'Switch to annual billing' : 'Switch to monthly billing' } }
                : {}),
            },
          }
        : {}),
      card: cards.get(portal.customer) ?? null,
      invoices: [...invoices.values()]
        .filter((i) => i.customer === portal.customer)
        .reverse()
        .map((i) => ({
          id: i.id as string,
          date: formatDate(i.created as number),
          amount: formatAmount(i.amount_due as number, i.currency as string),
          status: i.status as string,
        })),
    });
  };

  const hosted = (method: string, path: string[], form: Json, res: ServerResponse): boolean => {
    const [kind, id, action] = path;
    const html = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    const redirect = (to: string) => res.writeHead(303, { location: to }).end();
    const payment = kind === 'checkout' && id ? payments.sessions.get(id) : undefined;
    if (payment && id) {
      const done = String(payment.success_url).replace('{CHECKOUT_SESSION_ID}', id);
      if (payment.status !== 'open') return (redirect(done), true);
      const view = {
        id,
        productName: String(payment.productName),
        amount: formatAmount(payment.amount_total as number, payment.currency as string),
        cancelUrl: String(payment.cancel_url),
      };
      if (method === 'GET') return (html(200, paymentPage(view)), true);
      const card = String(form.card ?? '').replace(/\D/g, '');
      const outcome = TEST_CARDS[card];
      if (!outcome) return (html(402, paymentPage({ ...view, error: 'Your card number is invalid. Use a test card.' })), true);
      if (!outcome.ok) return (html(402, paymentPage({ ...view, error: outcome.message! })), true);
      payments.completePayment(payment, card);
      return (redirect(done), true);
    }
    if (kind === 'checkout' && id) {
      const session = sessions.get(id);
      if (!session) return (html(404, page('Not found', '<h1>This checkout page does not exist.</h1>')), true);
      if (session.status !== 'open') return (redirect(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', id)), true);
      const view = {
        id,
        ...planOf(session.lineItems[0]!.price),
        email: (session.customer_email as string | null) ?? null,
        cancelUrl: String(session.cancel_url),
      };
      if (method === 'GET') return (html(200, checkoutPage(view)), true);
      const card = String(form.card ?? '').replace(/\D/g, '');
      const outcome = TEST_CARDS[card];
      if (!outcome) return (html(402, checkoutPage({ ...view, error: 'Your card number is invalid. Use a test card.' })), true);
      if (!outcome.ok) return (html(402, checkoutPage({ ...view, error: outcome.message! })), true);
      completeCheckout(session, card);
      return (redirect(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', id)), true);
    }
    if (kind === 'portal' && id) {
      const portal = portals.get(id);
      if (!portal) return (html(404, page('Not found', '<h1>This billing page has expired.</h1>')), true);
      if (method === 'POST') {
        const subscription = [...subscriptions.values()].reverse().find((s) => s.customer === portal.customer && s.status !== 'canceled');
        if (action === 'card') {
          const card = String(form.card ?? '').replace(/\D/g, '');
          if (!TEST_CARDS[card]?.ok)
            return (html(402, page('Billing', '<p class="error" role="alert">That card was not accepted. Use 4242 4242 4242 4242.</p>')), true);
          cards.set(portal.customer, card.slice(-4));
        } else if (subscription && action === 'cancel') updateSubscription(subscription, { cancel_at_period_end: true });
        else if (subscription && action === 'renew') updateSubscription(subscription, { cancel_at_period_end: false });
        else if (subscription && action === 'switch')
          updateSubscription(subscription, { items: [{ id: ((subscription.items as Json).data as Json[])[0]!.id, price: String(form.price ?? '') }] });
        return (redirect(`/portal/${id}`), true);
      }
      return (html(200, portalView(id, portal)), true);
    }
    // The test-mode dashboard's Connect payouts: a browser test moves a payout on as a bank would.
    if (kind === 'dashboard' && id === 'payouts') {
      const [, , payoutId, outcome] = path;
      if (
        method === 'POST' &&
        payoutId &&
        (outcome === 'paid' || outcome === 'failed' || outcome === 'in_transit' || outcome === 'canceled' || outcome === 'delayed')
      ) {
        payments.advancePayout(payoutId, outcome);
        return (redirect('/dashboard/payouts'), true);
      }
      const rows = payments.allPayouts().reverse();
      const button = (p: Json, to: string, label: string) =>
        `<form class="inline" method="post" action="/dashboard/payouts/${escapeHtml(String(p.id))}/${to}"><button type="submit" class="secondary">${escapeHtml(label)}</button></form>`;
      return (
        html(
          200,
          page(
            'Payouts',
            `<h1>Connect payouts</h1>${
              rows.length
                ? `<table>${rows.map((p) => `<tr aria-label="${escapeHtml(String(p.id))}"><td>${escapeHtml(formatAmount(p.amount as number, p.currency as string))}</td><td>${escapeHtml(String(p.status))}</td><td>${p.status === 'pending' || p.status === 'in_transit' ? `${button(p, 'paid', 'Mark paid')} ${button(p, 'delayed', 'Delay')} ${button(p, 'failed', 'Fail')}` : ''}</td></tr>`).join('')}</table>`
                : '<p class="muted">No payouts yet.</p>'
            }`,
          ),
        ),
        true
      );
    }
    if (kind === 'invoices' && id && method === 'GET') {
      const invoice = invoices.get(id);
      if (!invoice) return (html(404, page('Not found', '<h1>No such invoice.</h1>')), true);
      return (
        html(
          200,
          page(
            'Invoice',
            `<h1>Invoice</h1><p>${formatDate(invoice.created as number)} — ${formatAmount(invoice.amount_due as number, invoice.currency as string)} — ${String(invoice.status)}</p>`,
          ),
        ),
        true
      );
    }
    return false;
  };

  const readBody = async (req: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > 1_000_000) throw new StripeError(413, 'invalid_request_error', 'Request too large.');
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = req.method ?? 'GET';
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      const body = await readBody(req).catch(() => '');
      const form = parseForm(body, { depth: 10, arrayLimit: 100 }) as Json;
      const query = parseForm(url.search.slice(1), { depth: 10 }) as Json;
      if (parts[0] !== 'v1') {
        if (!hosted(method, parts, form, res)) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      const json = (status: number, payload: string) =>
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), 'stripe-version': STRIPE_DOUBLE_API_VERSION }).end(payload);
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        json(401, JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }));
        return;
      }
      const key = req.headers['idempotency-key'];
      const idempotencyKey = typeof key === 'string' && method === 'POST' ? `${url.pathname}\n${key}` : undefined;
      const cached = idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
      if (cached) {
        json(cached.status, cached.body);
        return;
      }
      let status: number;
      let payload: string;
      try {
        const connected = req.headers['stripe-account'];
        const result = api(method, parts.slice(1), form, query, typeof connected === 'string' ? connected : undefined);
        status = result.status ?? 200;
        payload = JSON.stringify(result.body);
      } catch (err) {
        if (!(err instanceof StripeError) && !(err instanceof PaymentError)) throw err;
        status = err.status;
        payload = JSON.stringify({
          error: { type: err.type, message: err.message, ...(err.code ? { code: err.code } : {}), ...(err.param ? { param: err.param } : {}) },
        });
      }
      if (idempotencyKey) idempotent.set(idempotencyKey, { status, body: payload });
      if (webhooksFirst) await webhooks.settled();
      json(status, payload);
    })().catch((err: unknown) => {
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { type: 'api_error', message: err instanceof Error ? err.message : String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    host: '127.0.0.1',
    port,
    secretKey,
    webhookSecret,
    events: () => [...events],
    deliveries: () => [...webhooks.deliveries],
    resend: (eventId) => webhooks.send(find(new Map(events.map((e) => [e.id as string, e])), eventId, 'event') as { id: string }),
    advanceClock,
    failNextPayment: (customerId) => void failNext.add(customerId),
    webhooksSettled: () => webhooks.settled(),
    dispute: (paymentIntentId) => payments.dispute(paymentIntentId) as { id: string },
    closeDispute: (disputeId, outcome) => void payments.closeDispute(disputeId, outcome),
    refund: (paymentIntentId, amount) => void payments.refund({ payment_intent: paymentIntentId, ...(amount === undefined ? {} : { amount }) }),
    payouts: () => payments.allPayouts() as ReturnType<RunningStripeDouble['payouts']>,
    advancePayout: (payoutId, outcome) => void payments.advancePayout(payoutId, outcome),
    webhooksBeforeResponses: (on) => {
      webhooksFirst = on;
    },
    stop: async () => {
      await webhooks.settled();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
