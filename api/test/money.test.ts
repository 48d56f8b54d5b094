// The partner network's money (issue 24) through the Stripe double: tips paid on its hosted
// checkout and credited once from its signed webhooks, the events feed, refunds and chargebacks,
// the operator's switch, payouts over Stripe Connect with the §5 rules (two at once never
// overdraw), the transaction history and its CSV, and statistics. Forbidden cases for every money
// endpoint are walked by partner-access.test.ts; a few are repeated here by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { Redis } from 'ioredis';
import { alertChannels, type LiveEvent, type PayoutView, type Statistics, type TipPage, type TransactionsPage, type Wallet } from '@onair/protocol';
import { collaboratorWith } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;

beforeAll(async () => {
  api = await startStudioApi({ env: { SECRETS_KEY: Buffer.alloc(32, 9).toString('base64') } });
});
afterAll(async () => {
  await api?.close();
});

const settings = { enabled: true, paymentEmail: 'pay@example.test', currency: 'usd', minTip: 200, maxTip: 200_000 };
const usaMethod = {
  region: 'usa',
  name: 'Ada Lovelace',
  email: 'ada@example.test',
  addressLine1: '1 Main St',
  accountHolder: 'Ada Lovelace',
  accountNumber: '000123456789',
  routingCode: '110000000',
  bankName: 'Test Bank',
};
const taxInterview = { legalName: 'Ada Lovelace', entityType: 'individual', taxCountry: 'US', taxId: '123-45-6789', certify: true };

/** A creator with one project (its events feed) and tips switched on. */
async function creator(): Promise<{ user: TestUser; projectId: string }> {
  const user = await createTestUser(api);
  const project = await call(api, user, 'POST', '/api/v1/projects', { name: 'Main show' });
  expect(project.status).toBe(201);
  expect((await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tip-settings`, settings)).status).toBe(200);
  return { user, projectId: (project.body as { id: string }).id };
}

/** A viewer tips through the double's hosted checkout (card 4242…); resolves to the tip id. */
async function tip(creatorId: string, amount: number, name = 'Grace', message = 'Great stream!'): Promise<{ tipId: string; paymentIntent: string }> {
  const checkout = await call(api, null, 'POST', `/api/v1/tips/${creatorId}/checkout`, { name, message, amount });
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(201);
  const { url, tipId } = checkout.body as { url: string; tipId: string };
  const page = await (await fetch(url)).text();
  expect(page).toContain('Test mode');
  const paid = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'card=4242424242424242',
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  expect(paid.headers.get('location')).toBe(`${api.url}/tip/${creatorId}?tip=${tipId}`);
  const row = await waitFor(
    'the tip paid by webhook',
    async () => {
      const t = await api.db.tip.findUnique({ where: { id: tipId } });
      return t?.status === 'paid' ? t : undefined;
    },
    10_000,
    50,
  );
  return { tipId, paymentIntent: row.paymentIntentId! };
}

const wallet = async (user: TestUser) => (await call(api, user, 'GET', `/api/v1/partner/channels/${user.id}/wallet`)).body as Wallet;
const usd = (w: Wallet) => w.balances.find((b) => b.currency === 'usd')?.available ?? 0;
const ledgerSum = async (channelId: string) => (await api.db.ledgerEntry.aggregate({ where: { channelId }, _sum: { amount: true } }))._sum.amount ?? 0;

describe('tip settings (§3, §9)', () => {
  it('refuses limits outside §9 with words and saves valid ones', async () => {
    const user = await createTestUser(api);
    const path = `/api/v1/partner/channels/${user.id}/tip-settings`;
    expect((await call(api, user, 'GET', path)).body).toEqual({ enabled: false, paymentEmail: '', currency: 'usd', minTip: 200, maxTip: 50_000 });
    const refused = async (body: object, message: string) => {
      const res = await call(api, user, 'PUT', path, { ...settings, ...body });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    };
    await refused({ minTip: 100 }, 'The minimum tip must be more than $1.00');
    await refused({ maxTip: 200_001 }, 'The maximum tip can be at most $2,000.00');
    await refused({ minTip: 500, maxTip: 500 }, 'The maximum tip must be more than the minimum tip');
    await refused({ paymentEmail: '' }, 'This field is required');
    expect(await call(api, user, 'PUT', path, { ...settings, currency: 'eur', minTip: 101 })).toMatchObject({
      status: 200,
      body: { currency: 'eur', minTip: 101, maxTip: 200_000 },
    });
  });

  it('keeps money pages from collaborators, whatever their groups, and from strangers', async () => {
    const { user } = await creator();
    const everyGroup = await collaboratorWith(api, user, [
      'overlay.view',
      'overlay.edit',
      'chatbot.moderation',
      'chatbot.chat',
      'chatbot.loyalty',
      'analytics',
      'creator-site',
    ]);
    for (const path of ['tip-settings', 'wallet', 'transactions', 'transactions.csv', 'tax-interview', 'charity']) {
      const res = await call(api, everyGroup.user, 'GET', `/api/v1/partner/channels/${user.id}/${path}`);
      expect(res, path).toMatchObject({
        status: 403,
        body: {
          error: {
            code: 'FORBIDDEN',
            message: 'Your access to this channel does not include this: only the channel owner can do it. Ask the channel owner to grant it.',
          },
        },
      });
    }
    const payout = await call(api, everyGroup.user, 'POST', `/api/v1/partner/channels/${user.id}/payouts`, { amount: 1000, currency: 'usd' });
    expect(payout.status).toBe(403);
  });
});

describe('tips through the Stripe double', () => {
  it('refuses $0.50, $2 500 and −5 with words; a paid tip is credited once and reaches the events feed', async () => {
    const { user, projectId } = await creator();
    const page = (await call(api, null, 'GET', `/api/v1/tips/${user.id}`)).body as TipPage;
    expect(page).toMatchObject({ channelId: user.id, available: true, unavailableReason: null, currency: 'usd', minTip: 200, maxTip: 200_000, testMode: true });

    const attempt = (amount: number) => call(api, null, 'POST', `/api/v1/tips/${user.id}/checkout`, { name: 'Grace', message: '', amount });
    expect(await attempt(50)).toMatchObject({ status: 400, body: { error: { code: 'TIP_AMOUNT_INVALID', message: 'The smallest tip is $2.00' } } });
    expect(await attempt(250_000)).toMatchObject({ status: 400, body: { error: { code: 'TIP_AMOUNT_INVALID', message: 'The largest tip is $2,000.00' } } });
    const negative = await attempt(-500);
    expect(negative.status).toBe(400);
    expect(JSON.stringify(negative.body)).toContain('Enter an amount greater than zero');
    expect(await api.db.tip.count({ where: { channelId: user.id } })).toBe(0);

    // The overlays' alert channel of the project: the tip plays its alert there once.
    const listener = new Redis(api.redis.options);
    const alerts: string[] = [];
    await listener.subscribe(alertChannels.project(projectId));
    listener.on('message', (_channel, message: string) => alerts.push(message));
    const { tipId } = await tip(user.id, 3000, 'Grace', 'Great stream!');
    expect(usd(await wallet(user))).toBe(3000);

    const feed = await waitFor(
      'the tip in the events feed',
      async () => {
        const res = await call(api, user, 'GET', `/api/v1/projects/${projectId}/events?types=tip`);
        const events = (res.body as { events: LiveEvent[] }).events;
        return events.length > 0 ? events : undefined;
      },
      10_000,
      50,
    );
    expect(feed).toHaveLength(1);
    expect(feed[0]).toMatchObject({
      type: 'tip',
      platform: 'onair',
      platformUsername: 'Grace',
      value: 30,
      data: { currency: 'USD', message: 'Great stream!' },
    });

    // Stripe delivers the same events again: nothing more is credited, nothing more is announced.
    await api.stripe.webhooksSettled();
    const completed = api.stripe
      .events()
      .filter((e) => e.type === 'checkout.session.completed' && (e.data as { object: { metadata: { tipId?: string } } }).object.metadata.tipId === tipId);
    expect(completed).toHaveLength(1);
    api.stripe.resend(completed[0]!.id as string);
    api.stripe.resend(completed[0]!.id as string);
    await api.stripe.webhooksSettled();
    expect(await api.db.ledgerEntry.count({ where: { channelId: user.id } })).toBe(1);
    expect(usd(await wallet(user))).toBe(3000);
    expect(await api.db.liveEvent.count({ where: { projectId, type: 'tip' } })).toBe(1);
    await waitFor('the tip alert', async () => (alerts.length > 0 ? true : undefined), 10_000, 50);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toContain('Grace tipped $30.00!');
    listener.disconnect();

    // The ledger itself holds the rule: one row per provider event, and no row is ever changed.
    const entry = await api.db.ledgerEntry.findFirstOrThrow({ where: { channelId: user.id } });
    await expect(
      api.db.ledgerEntry.create({ data: { channelId: user.id, kind: 'tip_refund', amount: -1, currency: 'usd', providerEventId: entry.providerEventId } }),
    ).rejects.toThrow();
    await expect(api.db.ledgerEntry.update({ where: { id: entry.id }, data: { amount: 999_999 } })).rejects.toThrow(/append-only/);
    await expect(api.db.ledgerEntry.delete({ where: { id: entry.id } })).rejects.toThrow(/append-only/);
  });

  it("shows 'Tips Not Available' when an operator switches tipping off, or the creator has it off", async () => {
    const { user } = await creator();
    const admin = await createTestUser(api);
    await api.db.user.update({ where: { id: admin.id }, data: { userType: 'ADMIN' } });
    expect((await call(api, user, 'PUT', '/api/v1/admin/tips-availability', { available: false })).status).toBe(403);
    expect(
      await call(api, admin, 'PUT', '/api/v1/admin/tips-availability', { available: false, reason: 'Tipping is paused for maintenance until 15:00 UTC.' }),
    ).toMatchObject({ status: 200, body: { available: false } });
    try {
      expect((await call(api, null, 'GET', `/api/v1/tips/${user.id}`)).body).toMatchObject({
        available: false,
        unavailableReason: 'Tipping is paused for maintenance until 15:00 UTC.',
      });
      expect(await call(api, null, 'POST', `/api/v1/tips/${user.id}/checkout`, { name: 'Grace', amount: 500 })).toMatchObject({
        status: 409,
        body: { error: { code: 'TIPS_NOT_AVAILABLE', message: 'Tips Not Available' } },
      });
    } finally {
      expect((await call(api, admin, 'PUT', '/api/v1/admin/tips-availability', { available: true })).status).toBe(200);
    }
    await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tip-settings`, { ...settings, enabled: false });
    expect((await call(api, null, 'GET', `/api/v1/tips/${user.id}`)).body).toMatchObject({
      available: false,
      unavailableReason: 'This creator does not take tips right now.',
    });
    expect(await call(api, null, 'POST', `/api/v1/tips/${user.id}/checkout`, { name: 'Grace', amount: 500 })).toMatchObject({
      status: 409,
      body: { error: { message: 'Tips Not Available' } },
    });
    expect((await call(api, null, 'GET', '/api/v1/tips/no-such-creator')).status).toBe(404);
  });

  it('takes the credit back on a refund and on a chargeback, and gives it again when the chargeback is won', async () => {
    const { user } = await creator();
    const first = await tip(user.id, 1500, 'Refunded');
    const second = await tip(user.id, 2500, 'Disputed');
    expect(usd(await wallet(user))).toBe(4000);

    api.stripe.refund(first.paymentIntent);
    await waitFor('the refund in the ledger', async () => ((await ledgerSum(user.id)) === 2500 ? true : undefined), 10_000, 50);
    const dispute = api.stripe.dispute(second.paymentIntent);
    await waitFor('the chargeback in the ledger', async () => ((await ledgerSum(user.id)) === 0 ? true : undefined), 10_000, 50);
    expect((await api.db.tip.findUniqueOrThrow({ where: { id: first.tipId } })).status).toBe('refunded');
    expect((await api.db.tip.findUniqueOrThrow({ where: { id: second.tipId } })).status).toBe('disputed');
    api.stripe.closeDispute(dispute.id, 'won');
    await waitFor('the chargeback won', async () => ((await ledgerSum(user.id)) === 2500 ? true : undefined), 10_000, 50);
    await api.stripe.webhooksSettled();
    const kinds = (await api.db.ledgerEntry.findMany({ where: { channelId: user.id }, orderBy: { createdAt: 'asc' } })).map((e) => [e.kind, e.amount]);
    expect(kinds).toEqual([
      ['tip', 1500],
      ['tip', 2500],
      ['tip_refund', -1500],
      ['tip_dispute', -2500],
      ['tip_dispute_won', 2500],
    ]);
  });
});

describe('payouts (§3, §5, §8)', () => {
  it('validates bank details: ABA routing, IBAN and SWIFT, countries; the first method is the default', async () => {
    const { user } = await creator();
    const path = `/api/v1/partner/channels/${user.id}/payment-methods`;
    const bad = await call(api, user, 'POST', path, { ...usaMethod, routingCode: '123456789' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Enter a valid 9-digit ABA routing number');
    const international = {
      region: 'international',
      name: 'Ada',
      email: 'ada@example.test',
      addressLine1: 'Hauptstr. 1',
      accountHolder: 'Ada L',
      bankName: 'Commerzbank',
      country: 'DE',
      currency: 'eur',
    };
    const badIban = await call(api, user, 'POST', path, { ...international, iban: 'DE89 3704 0044 0532 0130 01', swift: 'COBADEFFXXX' });
    expect(JSON.stringify(badIban.body)).toContain('Enter a valid IBAN');
    const badSwift = await call(api, user, 'POST', path, { ...international, iban: 'DE89 3704 0044 0532 0130 00', swift: 'NOPE' });
    expect(JSON.stringify(badSwift.body)).toContain('Enter a valid SWIFT/BIC code');
    const badCountry = await call(api, user, 'POST', path, { ...international, iban: 'DE89 3704 0044 0532 0130 00', swift: 'COBADEFFXXX', country: 'XX' });
    expect(JSON.stringify(badCountry.body)).toContain('Choose a country');

    const usa = await call(api, user, 'POST', path, usaMethod);
    expect(usa).toMatchObject({ status: 201, body: { region: 'usa', accountLast4: '6789', isDefault: true, businessDays: { from: 1, to: 3 } } });
    expect(JSON.stringify(usa.body)).not.toContain('000123456789');
    const eu = await call(api, user, 'POST', path, { ...international, iban: 'DE89 3704 0044 0532 0130 00', swift: 'cobadeffxxx', isDefault: true });
    expect(eu).toMatchObject({
      status: 201,
      body: { region: 'international', accountLast4: '3000', swift: 'COBADEFFXXX', isDefault: true, businessDays: { from: 3, to: 5 } },
    });
    const stored = await api.db.paymentMethod.findMany({ where: { channelId: user.id } });
    expect(stored.filter((m) => m.isDefault)).toHaveLength(1);
    expect(stored.map((m) => m.accountSealed).join()).not.toContain('DE89370400440532013000');
    const back = await call(api, user, 'PUT', `${path}/${(usa.body as { id: string }).id}/default`);
    expect((back.body as { paymentMethods: { region: string; isDefault: boolean }[] }).paymentMethods[0]).toMatchObject({ region: 'usa', isDefault: true });
  });

  it('refuses a payout without the tax interview, above the balance or under the minimum, in words', async () => {
    const { user } = await creator();
    const payouts = `/api/v1/partner/channels/${user.id}/payouts`;
    await tip(user.id, 4000);
    expect(await call(api, user, 'POST', payouts, { amount: 2000, currency: 'usd' })).toMatchObject({
      status: 422,
      body: { error: { code: 'TAX_INTERVIEW_REQUIRED', message: 'Complete the tax interview before requesting a payout.' } },
    });
    expect((await wallet(user)).payoutBlockedReason).toBe('Complete the tax interview before requesting a payout.');
    const badTax = await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tax-interview`, { ...taxInterview, certify: false });
    expect(JSON.stringify(badTax.body)).toContain('Confirm that the information is correct');
    expect(await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tax-interview`, taxInterview)).toMatchObject({
      status: 200,
      body: { completed: true, taxIdLast4: '6789' },
    });
    expect(await call(api, user, 'POST', payouts, { amount: 2000, currency: 'usd' })).toMatchObject({
      status: 422,
      body: { error: { code: 'PAYOUT_REFUSED', message: 'Add a payment method before requesting a payout.' } },
    });
    await call(api, user, 'POST', `/api/v1/partner/channels/${user.id}/payment-methods`, usaMethod);
    expect(await call(api, user, 'POST', payouts, { amount: 4001, currency: 'usd' })).toMatchObject({
      status: 422,
      body: { error: { code: 'PAYOUT_REFUSED', message: '$40.00 is your available balance' } },
    });
    expect(await call(api, user, 'POST', payouts, { amount: 999, currency: 'usd' })).toMatchObject({
      status: 422,
      body: { error: { message: 'The minimum payout is $10.00.' } },
    });
    expect(await call(api, user, 'POST', payouts, { amount: 1000, currency: 'eur' })).toMatchObject({
      status: 422,
      body: { error: { message: 'This payment method is paid in USD. Choose a method for EUR.' } },
    });
    expect(usd(await wallet(user))).toBe(4000);
  });

  it('two payout requests at once never overdraw: one is sent, the other refused with the balance', async () => {
    const { user } = await creator();
    await tip(user.id, 5000);
    await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tax-interview`, taxInterview);
    await call(api, user, 'POST', `/api/v1/partner/channels/${user.id}/payment-methods`, usaMethod);
    const payouts = `/api/v1/partner/channels/${user.id}/payouts`;
    const results = await Promise.all([
      call(api, user, 'POST', payouts, { amount: 3000, currency: 'usd' }),
      call(api, user, 'POST', payouts, { amount: 3000, currency: 'usd' }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 422]);
    const refused = results.find((r) => r.status === 422)!;
    expect(refused.body).toMatchObject({ error: { code: 'PAYOUT_REFUSED', message: '$20.00 is your available balance' } });
    expect(await ledgerSum(user.id)).toBe(2000);
    expect(await api.db.payout.count({ where: { channelId: user.id } })).toBe(1);
    expect(api.stripe.payouts().filter((p) => p.metadata.channelId === user.id)).toHaveLength(1);
  });

  it('sends a payout through Stripe Connect: processing, delayed, completed; a failed one gives the balance back', async () => {
    const { user } = await creator();
    await tip(user.id, 6000);
    await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tax-interview`, taxInterview);
    await call(api, user, 'POST', `/api/v1/partner/channels/${user.id}/payment-methods`, usaMethod);
    const payouts = `/api/v1/partner/channels/${user.id}/payouts`;
    const sent = await call(api, user, 'POST', payouts, { amount: 2500, currency: 'usd' });
    expect(sent).toMatchObject({ status: 201, body: { amount: 2500, currency: 'usd', fee: 0, status: 'processing', method: 'Test Bank ····6789' } });
    const view = sent.body as PayoutView;
    expect(view.estimatedFrom < view.estimatedTo).toBe(true);
    expect([1, 2, 3, 4, 5]).toContain(new Date(`${view.estimatedTo}T00:00:00Z`).getUTCDay());
    const status = async (id: string) => (await api.db.payout.findUniqueOrThrow({ where: { id } })).status;
    const atStripe = api.stripe.payouts().find((p) => p.metadata.payoutId === view.id)!;
    expect(atStripe).toMatchObject({ amount: 2500, currency: 'usd', status: 'pending' });

    api.stripe.advancePayout(atStripe.id, 'delayed');
    await waitFor('delayed', async () => ((await status(view.id)) === 'delayed' ? true : undefined), 10_000, 50);
    api.stripe.advancePayout(atStripe.id, 'paid');
    await waitFor('completed', async () => ((await status(view.id)) === 'completed' ? true : undefined), 10_000, 50);
    expect(usd(await wallet(user))).toBe(3500);

    const second = (await call(api, user, 'POST', payouts, { amount: 1500, currency: 'usd' })).body as PayoutView;
    expect(usd(await wallet(user))).toBe(2000);
    const failing = api.stripe.payouts().find((p) => p.metadata.payoutId === second.id)!;
    api.stripe.advancePayout(failing.id, 'failed');
    await waitFor('canceled', async () => ((await status(second.id)) === 'canceled' ? true : undefined), 10_000, 50);
    await api.stripe.webhooksSettled();
    // Once, even though Stripe may resend it.
    const failedEvent = api.stripe.events().find((e) => e.type === 'payout.failed' && (e.data as { object: { id: string } }).object.id === failing.id)!;
    api.stripe.resend(failedEvent.id as string);
    await api.stripe.webhooksSettled();
    expect(usd(await wallet(user))).toBe(3500);
    expect((await api.db.payout.findUniqueOrThrow({ where: { id: second.id } })).failureReason).toBe('The bank account has been closed.');
  });

  it("answers a payout as processing when Stripe's payout.created webhook reaches the api before the API response", async () => {
    const { user } = await creator();
    await tip(user.id, 3000);
    await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tax-interview`, taxInterview);
    await call(api, user, 'POST', `/api/v1/partner/channels/${user.id}/payment-methods`, usaMethod);
    api.stripe.webhooksBeforeResponses(true);
    try {
      const sent = await call(api, user, 'POST', `/api/v1/partner/channels/${user.id}/payouts`, { amount: 2500, currency: 'usd' });
      expect(sent).toMatchObject({ status: 201, body: { amount: 2500, status: 'processing' } });
      const id = (sent.body as PayoutView).id;
      expect(
        api.stripe
          .events()
          .some((e) => e.type === 'payout.created' && (e.data as { object: { metadata: { payoutId: string } } }).object.metadata.payoutId === id),
      ).toBe(true);
      expect((await api.db.payout.findUniqueOrThrow({ where: { id } })).status).toBe('processing');
    } finally {
      api.stripe.webhooksBeforeResponses(false);
    }
  });
});

describe('transaction history and statistics', () => {
  it('lists credits and payouts by tab, searches, pages, and downloads CSV escaped against formulas', async () => {
    const { user } = await creator();
    await tip(user.id, 1200, '=HYPERLINK("http://evil.test")');
    for (const name of ['Ann', 'Bob', 'Cid']) await tip(user.id, 1000, name);
    await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tax-interview`, taxInterview);
    await call(api, user, 'POST', `/api/v1/partner/channels/${user.id}/payment-methods`, usaMethod);
    expect((await call(api, user, 'POST', `/api/v1/partner/channels/${user.id}/payouts`, { amount: 1100, currency: 'usd' })).status).toBe(201);

    const base = `/api/v1/partner/channels/${user.id}/transactions`;
    const first = (await call(api, user, 'GET', `${base}?tab=credit&pageSize=10`)).body as TransactionsPage;
    expect(first.total).toBe(4);
    expect(first.credits.map((c) => c.description)).toEqual(['Tip from Cid', 'Tip from Bob', 'Tip from Ann', 'Tip from =HYPERLINK("http://evil.test")']);
    const paged = await call(api, user, 'GET', `${base}?tab=credit&pageSize=10&page=2`);
    expect((paged.body as TransactionsPage).credits).toEqual([]);
    expect((await call(api, user, 'GET', `${base}?pageSize=7`)).status).toBe(400);
    const searched = (await call(api, user, 'GET', `${base}?tab=credit&campaign=bob`)).body as TransactionsPage;
    expect(searched.credits.map((c) => c.amount)).toEqual([1000]);
    const payoutsTab = (await call(api, user, 'GET', `${base}?tab=payouts`)).body as TransactionsPage;
    expect(payoutsTab.payouts).toMatchObject([{ amount: 1100, status: 'processing', fee: 0 }]);

    const csv = await fetch(`${api.url}${base}.csv?tab=credit`, { headers: { cookie: user.cookie } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await csv.text();
    expect(text.split('\n')[0]).toBe('Date,Type,Description,Campaign,Amount,Currency,Status');
    expect(text).toContain(`,Tip,"Tip from =HYPERLINK(""http://evil.test"")",,12,USD,completed`);
    expect(text).toContain(',Tip,Tip from Ann,,10,USD,completed');
    const payoutsCsv = await (await fetch(`${api.url}${base}.csv?tab=payouts`, { headers: { cookie: user.cookie } })).text();
    expect(payoutsCsv).toMatch(/\n[^,]+,11,0,USD,Test Bank ····6789,processing,/);
  });

  it('escapes a description that starts a formula', async () => {
    const { user } = await creator();
    await api.db.ledgerEntry.create({
      data: { channelId: user.id, kind: 'charity', amount: 500, currency: 'usd', description: '=1+1', campaignName: '@SUM(A1)' },
    });
    const text = await (await fetch(`${api.url}/api/v1/partner/channels/${user.id}/transactions.csv`, { headers: { cookie: user.cookie } })).text();
    expect(text).toContain(`,Charity,'=1+1,'@SUM(A1),5,USD,completed`);
  });

  it("shows today's tip in revenue, over the last 30 days by default; an Analytics collaborator sees no money", async () => {
    const { user, projectId } = await creator();
    // A Twitch charity donation as the EventSub connector stores it: counted in Events and in charity raised.
    await api.db.liveEvent.create({
      data: {
        projectId,
        platform: 'twitch',
        platformEventId: 'charity-1',
        type: 'charity',
        platformUsername: 'Donor',
        value: 12.5,
        data: { currency: 'USD', charityName: 'Good Cause' },
        platformCreatedAt: new Date(),
      },
    });
    await call(api, null, 'GET', `/api/v1/tips/${user.id}`);
    await tip(user.id, 2200);
    const stats = (await call(api, user, 'GET', `/api/v1/partner/channels/${user.id}/statistics`)).body as Statistics;
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.to).toBe(today);
    expect(stats.series).toHaveLength(30);
    // The tip page's views and checkouts are the Revenue section's; the graph's impressions and clicks are sponsors'.
    expect(stats.revenue).toMatchObject({ currency: 'usd', total: 2200, tips: 2200, tipCount: 1, charity: 1250, tipPageViews: 1, tipCheckouts: 1 });
    expect(stats.events).toEqual(expect.arrayContaining([{ type: 'charity', count: 1 }]));
    expect(stats.series.at(-1)).toEqual({ label: today, revenue: 2200, impressions: 0, clicks: 0 });
    expect(stats.sponsorships).toEqual({ campaigns: 0, revenue: 0, linkClicks: 0, linkImpressions: 0, links: [] });
    const monthly = (await call(api, user, 'GET', `/api/v1/partner/channels/${user.id}/statistics?groupBy=monthly&from=${today}&to=${today}`))
      .body as Statistics;
    expect(monthly.series).toEqual([{ label: `${today.slice(0, 8)}01`, revenue: 2200, impressions: 0, clicks: 0 }]);

    const analyst = await collaboratorWith(api, user, ['analytics']);
    const seen = (await call(api, analyst.user, 'GET', `/api/v1/partner/channels/${user.id}/statistics`)).body as Statistics;
    expect(seen.revenue).toBeNull();
    expect(seen.series.every((p) => p.revenue === 0)).toBe(true);
    const chatter = await collaboratorWith(api, user, ['chatbot.chat']);
    expect((await call(api, chatter.user, 'GET', `/api/v1/partner/channels/${user.id}/statistics`)).status).toBe(403);
  });

  it('counts the campaigns a creator takes part in, with their tracked-link clicks and impressions in the window, under Sponsorships', async () => {
    const { user } = await creator();
    const campaign = await api.db.campaign.create({ data: { name: 'Skyward', kind: 'game-key', game: 'Skyward', status: 'active' } });
    const application = await api.db.campaignApplication.create({ data: { campaignId: campaign.id, creatorId: user.id, status: 'accepted' } });
    const slug = `s-${application.id.slice(0, 8)}`;
    await api.db.campaignLink.create({ data: { applicationId: application.id, slug } });
    for (let i = 0; i < 3; i++) await fetch(`${api.url}/api/v1/public/campaign-links/${slug}/impression`);
    await fetch(`${api.url}/api/v1/public/campaign-links/${slug}`, { redirect: 'manual' });
    const stats = (await call(api, user, 'GET', `/api/v1/partner/channels/${user.id}/statistics`)).body as Statistics;
    expect(stats.sponsorships).toEqual({
      campaigns: 1,
      revenue: 0,
      linkClicks: 1,
      linkImpressions: 3,
      links: [{ campaignId: campaign.id, campaignName: 'Skyward', impressions: 3, clicks: 1, revenue: 0 }],
    });
    expect(stats.series.at(-1)).toMatchObject({ impressions: 3, clicks: 1 });
  });

  it('connects and disconnects a charity campaign by its link', async () => {
    const { user } = await creator();
    const path = `/api/v1/partner/channels/${user.id}/charity`;
    expect((await call(api, user, 'GET', path)).body).toEqual({ campaign: null });
    const bad = await call(api, user, 'PUT', path, { link: 'javascript:alert(1)', name: 'X', active: true });
    expect(JSON.stringify(bad.body)).toContain('Enter the https link of the charity campaign');
    expect(await call(api, user, 'PUT', path, { link: 'https://tiltify.example/+ada/run', name: 'Run for water', active: true })).toMatchObject({
      status: 200,
      body: { campaign: { name: 'Run for water', active: true } },
    });
    expect((await call(api, user, 'DELETE', path)).body).toEqual({ campaign: null });
  });
});
