import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planEntitlements, type BillingOverview } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { CHECKOUT_POLL_STEP_MS, CHECKOUT_POLL_TRIES } from '../model/billing.ts';
import { initialBillingState, initialStudioState, useBillingStore, useDestinationsStore, useStudioStore, useToastStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { finalizeCheckout, receiveSubscriptionUpdate } from './billing.ts';

const freeOverview: BillingOverview = {
  available: true,
  testMode: true,
  plans: [],
  role: 'Free',
  entitlements: planEntitlements.Free,
  subscription: null,
  hasBillingHistory: false,
  classicStudioUrl: null,
};
const premiumOverview: BillingOverview = {
  ...freeOverview,
  role: 'Premium',
  entitlements: planEntitlements.Premium,
  subscription: { id: 'sub_1', planId: 'Premium', status: 'active', priceId: 'price_m', periodUnit: 'month', nextBillingAt: '2026-12-25T00:00:00.000Z' },
  hasBillingHistory: true,
};

let server: TestServer | undefined;
let reads = 0;
let premiumFromRead = Infinity;

beforeEach(async () => {
  reads = 0;
  useBillingStore.setState(initialBillingState());
  useToastStore.setState({ toasts: [] });
  server = await startTestServer((req, res) => {
    expect(req.url).toBe('/api/v1/billing');
    reads += 1;
    sendJson(res, 200, reads >= premiumFromRead ? premiumOverview : freeOverview);
  });
});

afterEach(async () => {
  await server?.close();
});

const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });

describe('finalizing a checkout (spec §4, §9)', () => {
  it('polls with 500 ms × the try number until the paid subscription appears, then says so', async () => {
    premiumFromRead = 3;
    const waits: number[] = [];
    const done = finalizeCheckout(client(), async (ms) => void waits.push(ms));
    expect(useBillingStore.getState().busy).toBe('finalizing');
    expect(await done).toBe(true);
    expect(waits).toEqual([CHECKOUT_POLL_STEP_MS, 2 * CHECKOUT_POLL_STEP_MS, 3 * CHECKOUT_POLL_STEP_MS]);
    expect(useBillingStore.getState()).toMatchObject({ busy: null, overview: { role: 'Premium' } });
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual(['Subscription successful']);
  });

  it('gives up after 20 tries and says the purchase is still being processed', async () => {
    premiumFromRead = Infinity;
    const waits: number[] = [];
    expect(await finalizeCheckout(client(), async (ms) => void waits.push(ms))).toBe(false);
    expect(waits).toHaveLength(CHECKOUT_POLL_TRIES);
    expect(waits.at(-1)).toBe(CHECKOUT_POLL_TRIES * CHECKOUT_POLL_STEP_MS);
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual(['Your purchase is still being processed']);
  });
});

describe('a subscription change from another tab', () => {
  it('takes the new plan, and tells a creator who is live that the broadcast goes on as it started', () => {
    useStudioStore.setState({ ...initialStudioState(), projectId: 'p1', plan: 'Premium', entitlements: planEntitlements.Premium });
    useDestinationsStore.setState({
      broadcast: { id: 'b', projectId: 'p1', state: 'live', failureReason: null, startedAt: null, endedAt: null, endsAt: null, outputs: [] },
    });
    receiveSubscriptionUpdate({ type: 'subscription.updated', role: 'Free', entitlements: planEntitlements.Free, subscription: null });
    expect(useStudioStore.getState()).toMatchObject({ plan: 'Free', entitlements: planEntitlements.Free });
    expect(useToastStore.getState().toasts.map((t) => [t.title, t.description])).toEqual([
      ['Your plan is now Free', 'This broadcast goes on as it started. The new plan applies from your next broadcast.'],
    ]);

    useToastStore.setState({ toasts: [] });
    useDestinationsStore.setState({ broadcast: null });
    receiveSubscriptionUpdate({
      type: 'subscription.updated',
      role: 'Premium',
      entitlements: planEntitlements.Premium,
      subscription: premiumOverview.subscription,
    });
    expect(useStudioStore.getState().plan).toBe('Premium');
    expect(useToastStore.getState().toasts).toEqual([]);
  });
});
