import {
  cancelSubscriptionEndpoint,
  createCheckoutEndpoint,
  getBillingEndpoint,
  openBillingPortalEndpoint,
  renewSubscriptionEndpoint,
  planDisplayNames,
  resolutionForRole,
  setVipEndpoint,
  type BillingOverview,
  type ServerMessage,
} from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { CHECKOUT_POLL_STEP_MS, CHECKOUT_POLL_TRIES } from '../model/billing.ts';
import { useBillingStore, useDestinationsStore, useSessionStore, useStudioStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Leaves the app for Stripe's hosted page (checkout or portal), which returns to /billing. */
const goTo = (url: string) => window.location.assign(url);

/** Spec §2: the Plan & Billing page's data; a failure shows 'Failed to load plan details'. */
export async function loadBilling(client: HttpClient = httpClient): Promise<BillingOverview | null> {
  useBillingStore.setState({ status: 'loading' });
  try {
    const overview = await call(getBillingEndpoint, {}, client);
    useBillingStore.setState({ status: 'ready', overview, ...(overview.subscription ? { interval: overview.subscription.periodUnit } : {}) });
    applyRole(overview);
    return overview;
  } catch {
    useBillingStore.setState({ status: 'failed' });
    return null;
  }
}

export function chooseInterval(interval: 'month' | 'year'): void {
  useBillingStore.setState({ interval });
}

/** 'Upgrade': a hosted checkout for the price; Stripe brings the creator back to /billing. */
export async function upgrade(priceId: string, client: HttpClient = httpClient, navigate: (url: string) => void = goTo): Promise<void> {
  useBillingStore.setState({ busy: 'checkout' });
  try {
    const { url } = await call(createCheckoutEndpoint, { body: { priceId } }, client);
    navigate(url);
  } catch (err) {
    useBillingStore.setState({ busy: null });
    showToast({ kind: 'error', title: 'Checkout could not start', description: messageOf(err) });
  }
}

/** Payment method, billing history and the billing period are managed in Stripe's hosted portal. */
export async function openBillingPortal(client: HttpClient = httpClient, navigate: (url: string) => void = goTo): Promise<void> {
  useBillingStore.setState({ busy: 'portal' });
  try {
    const { url } = await call(openBillingPortalEndpoint, {}, client);
    navigate(url);
  } catch {
    useBillingStore.setState({ busy: null });
    showToast({ kind: 'error', title: 'Failed to open payment portal', description: 'Please check your AdBlock settings.' });
  }
}

export function askToCancel(open: boolean): void {
  useBillingStore.setState({ confirmingCancel: open });
}

/** Cancel ('Cancelling...') or renew ('Renewing...') the current subscription. */
export async function changeCancellation(cancel: boolean, client: HttpClient = httpClient): Promise<void> {
  const subscription = useBillingStore.getState().overview?.subscription;
  if (!subscription) return;
  useBillingStore.setState({ busy: cancel ? 'cancelling' : 'renewing' });
  try {
    const endpoint = cancel ? cancelSubscriptionEndpoint : renewSubscriptionEndpoint;
    const overview = await call(endpoint, { body: { subscriptionId: subscription.id } }, client);
    useBillingStore.setState({ overview, busy: null, confirmingCancel: false });
    applyRole(overview);
    showToast({ kind: 'success', title: cancel ? 'Subscription cancelled' : 'Subscription renewed' });
  } catch (err) {
    useBillingStore.setState({ busy: null });
    showToast({ kind: 'error', title: cancel ? 'The plan could not be cancelled' : 'The plan could not be renewed', description: messageOf(err) });
  }
}

/**
 * Spec §4 Checkout: back from the hosted checkout, 'Finalizing your purchase...' while the
 * subscription is polled (at most 20 tries, 500 ms × the try's number) until a new price item
 * appears; then 'Subscription successful' and the new role everywhere.
 */
export async function finalizeCheckout(client: HttpClient = httpClient, wait: (ms: number) => Promise<void> = sleep): Promise<boolean> {
  const before = useBillingStore.getState().overview?.subscription?.priceId ?? null;
  useBillingStore.setState({ busy: 'finalizing' });
  for (let attempt = 1; attempt <= CHECKOUT_POLL_TRIES; attempt++) {
    await wait(CHECKOUT_POLL_STEP_MS * attempt);
    const overview = await call(getBillingEndpoint, {}, client).catch(() => null);
    if (overview?.subscription && overview.subscription.priceId !== before && overview.role !== 'Free') {
      useBillingStore.setState({ status: 'ready', overview, busy: null });
      applyRole(overview);
      showToast({ kind: 'success', title: 'Subscription successful' });
      return true;
    }
  }
  useBillingStore.setState({ busy: null });
  showToast({
    kind: 'warning',
    title: 'Your purchase is still being processed',
    description: 'Your plan will change here as soon as the payment is confirmed.',
  });
  return false;
}

/** Spec §4 "Role and subscription update": another tab (or a renewal) changed the subscription. */
export function receiveSubscriptionUpdate(message: Extract<ServerMessage, { type: 'subscription.updated' }>): void {
  const { overview } = useBillingStore.getState();
  // A plan that ends while live: the broadcast keeps what it started with (its profile and its
  // duration limit are fixed at Go Live); the creator is told when the new plan applies.
  const live = useDestinationsStore.getState().broadcast?.state === 'live';
  const before = useStudioStore.getState().plan;
  if (live && useStudioStore.getState().projectId && before && before !== message.role && message.role === 'Free') {
    showToast({
      kind: 'info',
      title: `Your plan is now ${planDisplayNames[message.role]}`,
      description: 'This broadcast goes on as it started. The new plan applies from your next broadcast.',
    });
  }
  if (overview)
    useBillingStore.setState({
      overview: {
        ...overview,
        role: message.role,
        entitlements: message.entitlements,
        subscription: message.subscription,
        hasBillingHistory: overview.hasBillingHistory || message.subscription !== null,
      },
    });
  applyRole(message);
}

/** The role decides the resolution and, in the studio, what may be edited. */
function applyRole({ role, entitlements }: { role: BillingOverview['role']; entitlements: BillingOverview['entitlements'] }): void {
  useSessionStore.setState((s) => (s.user && s.user.role !== role ? { user: { ...s.user, role, resolution: resolutionForRole(role) } } : {}));
  if (useStudioStore.getState().projectId) useStudioStore.setState({ plan: role, entitlements });
}

/** An administrator grants VIP to an account or takes it back; the answer in words for the page. */
export async function setVip(email: string, vip: boolean, client: HttpClient = httpClient): Promise<{ ok: boolean; text: string }> {
  try {
    const result = await call(setVipEndpoint, { body: { email: email.trim(), vip } }, client);
    return { ok: true, text: vip ? `${result.email} is VIP now.` : `${result.email} is on the ${planDisplayNames[result.role]} plan now.` };
  } catch (err) {
    return { ok: false, text: messageOf(err) };
  }
}
