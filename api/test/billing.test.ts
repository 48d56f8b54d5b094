// Plans and billing through the Stripe double: checkout on its hosted page, the signed webhooks
// that write the subscription (once each, never rolled back by an older event), cancel and renew,
// the portal, the subscription-updated event on every open socket of the user, and the refusals.
import { createHmac, randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { STRIPE_WEBHOOK_PATH, type BillingOverview, type ServerMessage } from '@onair/protocol';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;

beforeAll(async () => {
  // A secrets key: custom RTMP destinations store a stream key.
  api = await startStudioApi({
    env: { SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'), LOCAL_RTMP_URL: 'rtmp://127.0.0.1:1935/live' },
  });
});
afterAll(async () => {
  await api?.close();
});

const overview = async (user: TestUser) => (await call(api, user, 'GET', '/api/v1/billing')).body as BillingOverview;

async function payCheckout(user: TestUser, priceId = 'price_onair_premium_monthly'): Promise<void> {
  const checkout = await call(api, user, 'POST', '/api/v1/billing/checkout', { priceId });
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
  const { url } = checkout.body as { url: string };
  const paid = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'card=4242424242424242',
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toMatch(new RegExp(`^${api.url}/billing\\?checkout=complete&session=cs_test_`));
}

function openSocket(user: TestUser): Promise<{ messages: ServerMessage[]; close: () => void }> {
  const ws = new WebSocket(api.wsUrl, { headers: { cookie: user.cookie, origin: api.url } });
  const messages: ServerMessage[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as ServerMessage));
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => resolve({ messages, close: () => ws.close() }));
  });
}

async function postWebhook(body: string, signature: string): Promise<number> {
  const res = await fetch(`${api.url}${STRIPE_WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body,
  });
  await res.text();
  return res.status;
}

describe('plans and billing', () => {
  it('shows a Free user the plans with prices from Stripe, in test mode', async () => {
    const user = await createTestUser(api);
    const view = await overview(user);
    expect(view).toMatchObject({ available: true, testMode: true, role: 'Free', subscription: null, hasBillingHistory: false });
    expect(view.plans).toEqual([
      { planId: 'Premium', priceId: 'price_onair_premium_monthly', interval: 'month', unitAmount: 1999, currency: 'usd' },
      { planId: 'Premium', priceId: 'price_onair_premium_yearly', interval: 'year', unitAmount: 19188, currency: 'usd' },
    ]);
  });

  it('upgrades through the hosted checkout: the webhooks write Premium with its entitlements, and every open tab hears it', async () => {
    const user = await createTestUser(api);
    const tabs = [await openSocket(user), await openSocket(user)];
    await payCheckout(user);
    const view = await waitFor(
      'the subscription from the webhooks',
      async () => {
        const v = await overview(user);
        return v.role === 'Premium' ? v : undefined;
      },
      10_000,
      50,
    );
    expect(view.subscription).toMatchObject({ planId: 'Premium', status: 'active', priceId: 'price_onair_premium_monthly', periodUnit: 'month' });
    expect(view.entitlements).toMatchObject({ '1080p30fps': 'true', 'maximum-destinations': 'Unlimited' });
    expect(view.hasBillingHistory).toBe(true);
    for (const tab of tabs) {
      const event = await waitFor(
        'subscription.updated on the tab',
        async () => tab.messages.find((m) => m.type === 'subscription.updated' && m.role === 'Premium'),
        10_000,
        50,
      );
      expect(event).toMatchObject({ subscription: { planId: 'Premium', status: 'active' } });
      tab.close();
    }
    // Entitlements are the server's: a Premium resolution is accepted now.
    const project = (await call(api, user, 'POST', '/api/v1/projects', { name: 'Paid' })).body as { id: string };
    const doc = (await call(api, user, 'GET', `/api/v1/projects/${project.id}/scene`)).body as { version: number };
    expect(
      (
        await call(api, user, 'PATCH', `/api/v1/projects/${project.id}/scene`, {
          baseVersion: doc.version,
          ops: [{ op: 'setResolution', resolution: '1080p' }],
        })
      ).status,
    ).toBe(200);

    // The same plan again is refused with words.
    expect(await call(api, user, 'POST', '/api/v1/billing/checkout', { priceId: 'price_onair_premium_yearly' })).toMatchObject({
      status: 409,
      body: { error: { code: 'BILLING_PLAN_ALREADY_HELD', message: 'You already have this plan. Manage it from Plan & Billing.' } },
    });
  });

  it('cancels at the end of the term and renews; the portal opens for a paying user', async () => {
    const user = await createTestUser(api);
    await payCheckout(user);
    const paid = await waitFor('Premium', async () => ((await overview(user)).role === 'Premium' ? overview(user) : undefined), 10_000, 50);
    const subscriptionId = paid.subscription!.id;

    const cancelled = await call(api, user, 'POST', '/api/v1/billing/cancel', { subscriptionId });
    expect(cancelled).toMatchObject({ status: 200, body: { role: 'Premium', subscription: { status: 'non_renewing' } } });
    const renewed = await call(api, user, 'POST', '/api/v1/billing/renew', { subscriptionId });
    expect(renewed).toMatchObject({ status: 200, body: { role: 'Premium', subscription: { status: 'active' } } });

    const portal = await call(api, user, 'POST', '/api/v1/billing/portal');
    expect(portal.status).toBe(200);
    const page = await (await fetch((portal.body as { url: string }).url)).text();
    expect(page).toContain('Billing history');
    expect(page).toContain('$19.99');

    // The term ends after a cancellation: the subscription is cancelled and the user is Free again.
    await call(api, user, 'POST', '/api/v1/billing/cancel', { subscriptionId });
    await api.stripe.webhooksSettled();
    api.stripe.advanceClock(31 * 24 * 3600);
    const free = await waitFor(
      'Free after the term',
      async () => {
        const v = await overview(user);
        return v.role === 'Free' ? v : undefined;
      },
      10_000,
      50,
    );
    expect(free.subscription).toBeNull();
  });

  it('refuses what a Free user cannot do, and unknown prices, with words', async () => {
    const user = await createTestUser(api);
    for (const path of ['/api/v1/billing/portal', '/api/v1/billing/cancel', '/api/v1/billing/renew']) {
      const res = await call(api, user, 'POST', path, path.endsWith('portal') ? undefined : { subscriptionId: 'sub_test_someone_else' });
      expect(res, path).toMatchObject({
        status: 403,
        body: { error: { code: 'BILLING_NO_SUBSCRIPTION', message: 'Only a paid plan has billing to manage. Upgrade first.' } },
      });
    }
    expect(await call(api, user, 'POST', '/api/v1/billing/checkout', { priceId: 'price_onair_vip' })).toMatchObject({
      status: 400,
      body: { error: { code: 'BILLING_UNKNOWN_PRICE' } },
    });
    expect(await call(api, user, 'POST', '/api/v1/billing/checkout', { priceId: 'price_nope' })).toMatchObject({
      status: 400,
      body: { error: { code: 'BILLING_UNKNOWN_PRICE' } },
    });
    expect((await call(api, null, 'GET', '/api/v1/billing')).status).toBe(401);
  });

  it('applies each webhook once, refuses bad signatures, and never rolls a subscription back to an older event', async () => {
    const user = await createTestUser(api);
    await payCheckout(user);
    await waitFor('Premium', async () => ((await overview(user)).role === 'Premium' ? true : undefined), 10_000, 50);
    const subscriptionId = (await overview(user)).subscription!.id;
    await api.stripe.webhooksSettled();
    const created = api.stripe
      .events()
      .find((e) => e.type === 'customer.subscription.created' && (e.data as { object: { id: string } }).object.id === subscriptionId)!;

    // Unsigned, wrongly signed and stale: 400, nothing changes.
    const body = JSON.stringify({ ...created, id: 'evt_forged', data: { object: { ...(created.data as { object: object }).object, status: 'canceled' } } });
    const t = Math.floor(Date.now() / 1000);
    const sign = (secret: string, at: number) => `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`;
    expect(await postWebhook(body, '')).toBe(400);
    expect(await postWebhook(body, sign('whsec_wrong', t))).toBe(400);
    expect(await postWebhook(body, sign(api.stripe.webhookSecret, t - 3600))).toBe(400);
    expect((await overview(user)).subscription?.status).toBe('active');

    // Cancelled at period end; then an older event arrives late (a copy of 'created', active and
    // renewing, correctly signed, never seen): accepted, and no roll-back.
    await call(api, user, 'POST', '/api/v1/billing/cancel', { subscriptionId });
    await api.stripe.webhooksSettled();
    const late = JSON.stringify({ ...created, id: 'evt_late_copy_of_created' });
    expect(await postWebhook(late, `t=${t},v1=${createHmac('sha256', api.stripe.webhookSecret).update(`${t}.${late}`).digest('hex')}`)).toBe(200);
    expect((await overview(user)).subscription?.status).toBe('non_renewing');
    // A replay of an event already applied changes nothing either.
    api.stripe.resend(created.id as string);
    await api.stripe.webhooksSettled();
    expect((await overview(user)).subscription?.status).toBe('non_renewing');

    // Each event id is applied once: the resent one was recorded the first time.
    const applied = await api.db.billingEvent.count({ where: { id: created.id as string } });
    expect(applied).toBe(1);
  });
});

describe('entitlements on the server, Free against Premium (bought through checkout)', () => {
  type Attempt = (user: TestUser, projectId: string) => Promise<{ status: number; body: unknown }>;
  const patch =
    (ops: unknown[]): Attempt =>
    async (user, projectId) => {
      const doc = (await call(api, user, 'GET', `/api/v1/projects/${projectId}/scene`)).body as { version: number };
      return call(api, user, 'PATCH', `/api/v1/projects/${projectId}/scene`, { baseVersion: doc.version, ops });
    };
  const image = (purpose: 'logo' | 'background') =>
    patch([{ op: 'addSource', source: { id: randomUUID(), kind: 'image', settings: { url: 'https://cdn.example.com/mine.png', purpose } } }]);
  // Each entitlement at the route that uses it. Not here: can-go-live and can-use-product (every
  // plan has them), maximum-guests (guest links are issue 15), 3rd-party-integrations and
  // custom-starting-ending-and-be-back-screens (no feature uses them yet), and the stream-duration
  // limits (hours; the broadcast watch's own tests).
  const cases: { entitlement: string; attempt: Attempt }[] = [
    { entitlement: '1080p30fps', attempt: patch([{ op: 'setResolution', resolution: '1080p' }]) },
    { entitlement: 'custom-logo', attempt: image('logo') },
    { entitlement: 'custom-backgrounds', attempt: image('background') },
    { entitlement: 'maximum-scenes', attempt: patch([1, 2, 3].map((n) => ({ op: 'addScene', sceneId: randomUUID(), name: `Scene ${n + 1}` }))) },
    {
      // Free may add up to two destinations: the third is refused, with Premium it is not.
      entitlement: 'maximum-destinations',
      attempt: async (user, projectId) => {
        for (const n of [1, 2])
          expect((await call(api, user, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local', name: `Local ${n}` })).status).toBe(201);
        return call(api, user, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local', name: 'Local 3' });
      },
    },
    {
      entitlement: 'custom-destinations',
      attempt: (user, projectId) =>
        call(api, user, 'POST', `/api/v1/projects/${projectId}/destinations`, {
          type: 'CustomRTMP',
          name: 'My server',
          rtmpUrl: 'rtmp://93.184.216.34/live',
          streamKey: 'k',
        }),
    },
  ];
  let free: TestUser;
  let premium: TestUser;

  beforeAll(async () => {
    free = await createTestUser(api);
    premium = await createTestUser(api);
    await payCheckout(premium);
    await waitFor('Premium', async () => ((await overview(premium)).role === 'Premium' ? true : undefined), 10_000, 50);
  });

  const newProject = async (user: TestUser) => ((await call(api, user, 'POST', '/api/v1/projects', { name: 'Plan check' })).body as { id: string }).id;

  for (const { entitlement, attempt } of cases) {
    it(`${entitlement}: refused for Free with words, allowed for Premium`, async () => {
      const refused = await attempt(free, await newProject(free));
      expect(refused.status, JSON.stringify(refused.body)).toBeGreaterThanOrEqual(400);
      expect(refused.body).toMatchObject({ error: { code: 'PLAN_LIMIT_REACHED' } });
      expect((refused.body as { error: { message: string } }).error.message).toMatch(/upgrade|plan|premium/i);
      const allowed = await attempt(premium, await newProject(premium));
      expect(allowed.status, JSON.stringify(allowed.body)).toBeLessThan(300);
    });
  }
});

describe('VIP, granted by an administrator', () => {
  it('grants VIP to an account and takes it back; only administrators may, and every tab of the user hears it', async () => {
    const admin = await createTestUser(api);
    await api.db.user.update({ where: { id: admin.id }, data: { userType: 'ADMIN' } });
    const creator = await createTestUser(api);
    const email = `${creator.id}@example.test`;
    expect(await call(api, creator, 'POST', '/api/v1/admin/vip', { email, vip: true })).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message: 'Only an administrator can grant or take back VIP.' } },
    });
    expect((await call(api, null, 'POST', '/api/v1/admin/vip', { email, vip: true })).status).toBe(401);
    expect(await call(api, admin, 'POST', '/api/v1/admin/vip', { email: 'nobody@example.test', vip: true })).toMatchObject({ status: 404 });

    const tab = await openSocket(creator);
    expect(await call(api, admin, 'POST', '/api/v1/admin/vip', { email: email.toUpperCase(), vip: true })).toMatchObject({
      status: 200,
      body: { userId: creator.id, role: 'VIP' },
    });
    expect(await overview(creator)).toMatchObject({ role: 'VIP', entitlements: { '1080p30fps': 'true' } });
    await waitFor('subscription.updated to VIP', async () => tab.messages.find((m) => m.type === 'subscription.updated' && m.role === 'VIP'), 10_000, 50);
    // Granting twice keeps one grant; taking it back makes the account Free again.
    await call(api, admin, 'POST', '/api/v1/admin/vip', { email, vip: true });
    expect(await api.db.subscription.count({ where: { userId: creator.id, status: 'active' } })).toBe(1);
    expect(await call(api, admin, 'POST', '/api/v1/admin/vip', { email, vip: false })).toMatchObject({ status: 200, body: { role: 'Free' } });
    expect((await overview(creator)).role).toBe('Free');
    tab.close();
  });
});
