// The Stripe double against the real `stripe` client and its real webhook signature check: the
// calls OnAir makes, the hosted checkout and portal pages (driven with form posts as a browser
// sends them), webhooks with retries, renewals, failed payments and cancellation at period end.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeDouble, type RunningStripeDouble } from '../src/stripe-double/stripe-double.ts';

const CATALOGUE = [
  { id: 'price_premium_month', product: { id: 'prod_premium', name: 'Premium' }, unitAmount: 1999, currency: 'usd', interval: 'month' as const },
  { id: 'price_premium_year', product: { id: 'prod_premium', name: 'Premium' }, unitAmount: 19188, currency: 'usd', interval: 'year' as const },
];

interface Received {
  event: Stripe.Event;
}

let double: RunningStripeDouble;
let stripe: Stripe;
let receiver: Server;
const received: Received[] = [];
const rawBodies: { body: string; signature: string }[] = [];
/** How many of the next deliveries the receiver refuses with a 500. */
let refuseNext = 0;

async function formPost(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
}

async function checkout(email: string, price = 'price_premium_month'): Promise<{ session: Stripe.Checkout.Session; subscription: Stripe.Subscription }> {
  const created = await stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [{ price, quantity: 1 }],
    customer_email: email,
    success_url: 'http://app.test/billing?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://app.test/billing',
  });
  const paid = await formPost(created.url!, { card: '4242 4242 4242 4242' });
  expect(paid.status).toBe(303);
  const session = await stripe.checkout.sessions.retrieve(created.id);
  const subscription = await stripe.subscriptions.retrieve(session.subscription as string);
  return { session, subscription };
}

const eventsOf = (type: string, subscriptionId?: string) =>
  received.filter(
    (r) =>
      r.event.type === type &&
      (subscriptionId === undefined ||
        (r.event.data.object as { id?: string }).id === subscriptionId ||
        JSON.stringify(r.event.data.object).includes(subscriptionId)),
  );

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = String(req.headers['stripe-signature'] ?? '');
      rawBodies.push({ body, signature });
      if (refuseNext > 0) {
        refuseNext -= 1;
        res.writeHead(500).end();
        return;
      }
      try {
        received.push({ event: stripe.webhooks.constructEvent(body, signature, double.webhookSecret) });
        res.writeHead(200).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  double = await startStripeDouble({
    catalogue: CATALOGUE,
    webhookEndpoints: [`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe`],
    retryDelaysMs: [50, 100],
  });
  stripe = new Stripe(double.secretKey, { host: double.host, port: double.port, protocol: 'http', maxNetworkRetries: 0 });
});

afterAll(async () => {
  await double?.stop();
  receiver?.close();
});

describe('Stripe double', () => {
  it('refuses a wrong secret key as Stripe does', async () => {
    const wrong = new Stripe('sk_test_wrong', { host: double.host, port: double.port, protocol: 'http', maxNetworkRetries: 0 });
    await expect(wrong.prices.list()).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it('serves the operator catalogue, with the product expanded', async () => {
    const prices = await stripe.prices.list({ expand: ['data.product'] });
    expect(prices.data.map((p) => [p.id, p.unit_amount, p.recurring?.interval, (p.product as Stripe.Product).name])).toEqual([
      ['price_premium_month', 1999, 'month', 'Premium'],
      ['price_premium_year', 19188, 'year', 'Premium'],
    ]);
    await expect(stripe.prices.retrieve('price_nope')).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'resource_missing' });
  });

  it('creates customers once per idempotency key and finds them by e-mail', async () => {
    const a = await stripe.customers.create({ email: 'idem@example.test' }, { idempotencyKey: 'key-1' });
    const b = await stripe.customers.create({ email: 'idem@example.test' }, { idempotencyKey: 'key-1' });
    expect(b.id).toBe(a.id);
    const found = await stripe.customers.list({ email: 'idem@example.test' });
    expect(found.data.map((c) => c.id)).toEqual([a.id]);
  });

  it('runs a hosted checkout a browser can complete: a declined card changes nothing, a good one subscribes', async () => {
    const created = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: 'price_premium_month', quantity: 1 }],
      customer_email: 'buyer@example.test',
      client_reference_id: 'user-1',
      success_url: 'http://app.test/billing?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.test/billing',
    });
    const pageHtml = await (await fetch(created.url!)).text();
    expect(pageHtml).toContain('Test mode — Stripe double, no real payment');
    expect(pageHtml).toContain('$19.99');

    const declined = await formPost(created.url!, { card: '4000 0000 0000 0002' });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect((await stripe.checkout.sessions.retrieve(created.id)).status).toBe('open');

    const paid = await formPost(created.url!, { card: '4242424242424242' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://app.test/billing?session=${created.id}`);
    const session = await stripe.checkout.sessions.retrieve(created.id);
    expect(session).toMatchObject({ status: 'complete', payment_status: 'paid', client_reference_id: 'user-1' });
    const subscription = await stripe.subscriptions.retrieve(session.subscription as string);
    expect(subscription.status).toBe('active');
    expect(subscription.items.data[0]!.price.id).toBe('price_premium_month');
    expect(subscription.items.data[0]!.current_period_end - subscription.items.data[0]!.current_period_start).toBe(30 * 24 * 3600);

    await double.webhooksSettled();
    for (const type of ['checkout.session.completed', 'customer.subscription.created', 'invoice.paid'])
      expect(eventsOf(type, subscription.id).length, type).toBe(1);
  });

  it('signs webhooks so that only the untouched body verifies with the endpoint secret', async () => {
    await double.webhooksSettled();
    const { body, signature } = rawBodies.at(-1)!;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(() => stripe.webhooks.constructEvent(body, signature, double.webhookSecret)).not.toThrow();
    expect(() => stripe.webhooks.constructEvent(body.replace('"livemode": false', '"livemode": true'), signature, double.webhookSecret)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() => stripe.webhooks.constructEvent(body, signature, 'whsec_other')).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('retries a delivery the endpoint refused, and can resend an event', async () => {
    await double.webhooksSettled();
    refuseNext = 1;
    const customer = await stripe.customers.create({ email: 'retry@example.test' });
    await double.webhooksSettled();
    const created = double.events().find((e) => e.type === 'customer.created' && (e.data as { object: { id: string } }).object.id === customer.id)!;
    expect(
      double
        .deliveries()
        .filter((d) => d.eventId === created.id)
        .map((d) => d.status),
    ).toEqual([500, 200]);
    double.resend(created.id as string);
    await double.webhooksSettled();
    expect(received.filter((r) => r.event.id === created.id)).toHaveLength(2);
  });

  it('cancels at period end through the portal, renews, switches to yearly, and ends when the period is over', async () => {
    const { subscription } = await checkout('portal@example.test');
    const portal = await stripe.billingPortal.sessions.create({ customer: subscription.customer as string, return_url: 'http://app.test/billing' });
    const portalHtml = await (await fetch(portal.url)).text();
    expect(portalHtml).toContain('Renews on');
    expect(portalHtml).toContain('Card ending in 4242');
    expect(portalHtml).toContain('$19.99');

    expect((await formPost(`${portal.url}/cancel`, {})).status).toBe(303);
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(true);
    expect(await (await fetch(portal.url)).text()).toContain('Cancels on');
    await formPost(`${portal.url}/renew`, {});
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(false);
    await formPost(`${portal.url}/switch`, { price: 'price_premium_year' });
    expect((await stripe.subscriptions.retrieve(subscription.id)).items.data[0]!.price.id).toBe('price_premium_year');

    await double.webhooksSettled();
    const updates = eventsOf('customer.subscription.updated', subscription.id);
    expect(
      updates.map((u) =>
        Object.keys(u.event.data.previous_attributes ?? {})
          .sort()
          .join(','),
      ),
    ).toEqual(['cancel_at,cancel_at_period_end', 'cancel_at,cancel_at_period_end', 'items']);

    await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    double.advanceClock(366 * 24 * 3600);
    await double.webhooksSettled();
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');
    expect(eventsOf('customer.subscription.deleted', subscription.id)).toHaveLength(1);
  });

  it('renews with a paid invoice, and marks a failed renewal past due', async () => {
    const { subscription } = await checkout('renew@example.test');
    const end = subscription.items.data[0]!.current_period_end;
    double.advanceClock(31 * 24 * 3600);
    await double.webhooksSettled();
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    expect(renewed.items.data[0]!.current_period_start).toBe(end);
    expect(eventsOf('invoice.paid', subscription.id)).toHaveLength(2);
    const invoices = await stripe.invoices.list({ customer: subscription.customer as string });
    expect(invoices.data.map((i) => i.status)).toEqual(['paid', 'paid']);

    double.failNextPayment(subscription.customer as string);
    double.advanceClock(31 * 24 * 3600);
    await double.webhooksSettled();
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');
    expect(eventsOf('invoice.payment_failed', subscription.id)).toHaveLength(1);
  });
});
