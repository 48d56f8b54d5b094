import {
  addPaymentMethodEndpoint,
  connectCharityEndpoint,
  createTipCheckoutEndpoint,
  disconnectCharityEndpoint,
  downloadTransactionsEndpoint,
  getCharityEndpoint,
  getStatisticsEndpoint,
  isTimeZoneName,
  getTaxInterviewEndpoint,
  getTipPageEndpoint,
  getTipSettingsEndpoint,
  getWalletEndpoint,
  listTransactionsEndpoint,
  paymentMethodInputSchema,
  removePaymentMethodEndpoint,
  requestPayoutEndpoint,
  setDefaultPaymentMethodEndpoint,
  submitTaxInterviewEndpoint,
  taxInterviewInputSchema,
  updateTipSettingsEndpoint,
  type CharityCampaignView,
  type PaymentMethodView,
  type PayoutView,
  type Statistics,
  type TaxInterviewView,
  type TipPage,
  type TipSettings,
  type TransactionsPage,
  type Wallet,
} from '@onair/protocol';
import type { z } from 'zod';
import { call, urlOf, type CallBody, type CallQuery } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { fieldErrorsOf } from '../model/partner.ts';
import { initialPayoutsState, initialStatisticsState, initialTipsState, usePayoutsStore, useStatisticsStore, useTipsStore } from '../stores/index.ts';
import { attempt, type Result } from './result.ts';
import { showToast } from './toasts.ts';

/**
 * The money pages' calls (issue 24): tip settings, the tip page, wallet and payouts, payment
 * methods, the tax interview, transactions, charity and statistics. Each returns the api's answer
 * or its words. Statistics land in the statistics store (showStatistics), the Payouts page's wallet,
 * transactions, payment methods and tax interview in the payouts store, the tip settings and the
 * charity campaign in the tips store.
 */

/**
 * A form's draft goes to the api only once it follows the endpoint's body schema. The api parses it
 * with the same schema, so a draft that does not gets here the field errors the api's
 * VALIDATION_FAILED would have carried, without the round trip; one that does is sent as it is.
 */
async function attemptDraft<S extends z.ZodType, T>(schema: S, draft: unknown, send: (body: z.input<S>) => Promise<T>): Promise<Result<T>> {
  const checked = schema.safeParse(draft);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message }));
    return { ok: false, message: 'Check the highlighted fields.', fieldErrors: fieldErrorsOf({ issues }) };
  }
  // safeParse has just accepted it, so it is an input of the schema; the cast only tells tsc so.
  return attempt(() => send(draft as z.input<S>));
}

export const loadTipSettings = (channelId: string, client: HttpClient = httpClient) =>
  attempt<TipSettings>(() => call(getTipSettingsEndpoint, { params: { channelId } }, client));

export async function saveTipSettings(channelId: string, settings: TipSettings, client: HttpClient = httpClient): Promise<Result<TipSettings>> {
  const result = await attempt<TipSettings>(() => call(updateTipSettingsEndpoint, { params: { channelId }, body: settings }, client));
  if (result.ok && useTipsStore.getState().channelId === channelId) useTipsStore.setState({ settings: result.value });
  if (result.ok) showToast({ kind: 'success', title: 'Tip settings saved' });
  return result;
}

export const loadTipPage = (creatorId: string, client: HttpClient = httpClient) =>
  attempt<TipPage>(() => call(getTipPageEndpoint, { params: { creatorId } }, client));

export const startTip = (creatorId: string, body: { name: string; message: string; amount: number }, client: HttpClient = httpClient) =>
  attempt(() => call(createTipCheckoutEndpoint, { params: { creatorId }, body }, client));

export const loadWallet = (channelId: string, client: HttpClient = httpClient) =>
  attempt<Wallet>(() => call(getWalletEndpoint, { params: { channelId } }, client));

export const loadTaxInterview = (channelId: string, client: HttpClient = httpClient) =>
  attempt<TaxInterviewView>(() => call(getTaxInterviewEndpoint, { params: { channelId } }, client));

/**
 * The form's draft (its certify box may still be unticked): checked here as the api would check it.
 * The answer is the interview as it now stands, which the payouts store shows.
 */
export async function submitTaxInterview(channelId: string, draft: unknown, client: HttpClient = httpClient): Promise<Result<TaxInterviewView>> {
  const result = await attemptDraft(taxInterviewInputSchema, draft, (body) => call(submitTaxInterviewEndpoint, { params: { channelId }, body }, client));
  if (result.ok) usePayoutsStore.setState({ taxInterview: result.value });
  return result;
}

/** Adds a payment method from the form's draft (checked here first); on success the wallet is read again. */
export async function addPaymentMethod(channelId: string, draft: unknown, client: HttpClient = httpClient): Promise<Result<PaymentMethodView>> {
  const result = await attemptDraft(paymentMethodInputSchema, draft, (body) => call(addPaymentMethodEndpoint, { params: { channelId }, body }, client));
  if (result.ok) await refreshWallet(channelId, client);
  return result;
}

export const setDefaultPaymentMethod = (channelId: string, methodId: string, client: HttpClient = httpClient) =>
  withMethods(
    channelId,
    attempt(() => call(setDefaultPaymentMethodEndpoint, { params: { channelId, methodId } }, client)),
  );
export const removePaymentMethod = (channelId: string, methodId: string, client: HttpClient = httpClient) =>
  withMethods(
    channelId,
    attempt(() => call(removePaymentMethodEndpoint, { params: { channelId, methodId } }, client)),
  );

/** Both answer with the channel's payment methods as they now are: the wallet in the store shows them. */
async function withMethods<T extends { paymentMethods: PaymentMethodView[] }>(channelId: string, pending: Promise<Result<T>>): Promise<Result<T>> {
  const result = await pending;
  const { channelId: shown, wallet } = usePayoutsStore.getState();
  if (result.ok && wallet && shown === channelId) usePayoutsStore.setState({ wallet: { ...wallet, paymentMethods: result.value.paymentMethods } });
  return result;
}

export const requestPayout = (channelId: string, body: CallBody<typeof requestPayoutEndpoint>, client: HttpClient = httpClient) =>
  attempt<PayoutView>(() => call(requestPayoutEndpoint, { params: { channelId }, body }, client));

export function loadTransactions(
  channelId: string,
  query: { tab: 'credit' | 'payouts'; campaign: string; page: number; pageSize: number },
  client: HttpClient = httpClient,
): Promise<Result<TransactionsPage>> {
  return attempt(() =>
    call(
      listTransactionsEndpoint,
      { params: { channelId }, query: { tab: query.tab, campaign: query.campaign, page: query.page, pageSize: query.pageSize } },
      client,
    ),
  );
}

export function transactionsCsvUrl(channelId: string, tab: 'credit' | 'payouts', campaign: string): string {
  return urlOf(downloadTransactionsEndpoint, { params: { channelId }, query: { tab, campaign } });
}

export const loadCharity = (channelId: string, client: HttpClient = httpClient) =>
  attempt<{ campaign: CharityCampaignView }>(() => call(getCharityEndpoint, { params: { channelId } }, client));
export const connectCharity = (channelId: string, body: { link: string; name: string; active: boolean }, client: HttpClient = httpClient) =>
  withCharity(
    channelId,
    attempt<{ campaign: CharityCampaignView }>(() => call(connectCharityEndpoint, { params: { channelId }, body }, client)),
  );
export const disconnectCharity = (channelId: string, client: HttpClient = httpClient) =>
  withCharity(
    channelId,
    attempt<{ campaign: CharityCampaignView }>(() => call(disconnectCharityEndpoint, { params: { channelId } }, client)),
  );

/** Connecting and disconnecting answer with the campaign as it now is (null once disconnected): the section shows that. */
async function withCharity<T extends { campaign: CharityCampaignView | null }>(channelId: string, pending: Promise<Result<T>>): Promise<Result<T>> {
  const result = await pending;
  if (result.ok && useTipsStore.getState().channelId === channelId) useTipsStore.setState({ charity: result.value.campaign });
  return result;
}

export function loadStatistics(
  channelId: string,
  query: CallQuery<typeof getStatisticsEndpoint>,
  client: HttpClient = httpClient,
): Promise<Result<Statistics>> {
  // An empty date is left out, as the form means "no bound". Days are the creator's: the browser's time zone goes along.
  const timeZone = query.timeZone ?? browserTimeZone();
  return attempt(() =>
    call(
      getStatisticsEndpoint,
      {
        params: { channelId },
        query: {
          groupBy: query.groupBy,
          ...(query.from ? { from: query.from } : {}),
          ...(query.to ? { to: query.to } : {}),
          ...(timeZone ? { timeZone } : {}),
        },
      },
      client,
    ),
  );
}

/** The browser's IANA time zone, when it is one the api takes (else the api's default, UTC). */
export function browserTimeZone(): string | undefined {
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZoneName(zone) ? zone : undefined;
}

// The window and grouping can change faster than the api answers: only the newest ask may land.
let latestStatistics = 0;

/**
 * The Statistics page asks for a window of a channel. The last answer stays while the next is read
 * (a failure then shows only if there is nothing to show); another channel starts from nothing.
 */
export async function showStatistics(channelId: string, query: CallQuery<typeof getStatisticsEndpoint>, client: HttpClient = httpClient): Promise<void> {
  const asked = ++latestStatistics;
  if (useStatisticsStore.getState().channelId !== channelId) useStatisticsStore.setState({ ...initialStatisticsState(), channelId });
  const result = await loadStatistics(channelId, query, client);
  if (asked !== latestStatistics) return;
  useStatisticsStore.setState(result.ok ? { stats: result.value, error: null } : { error: result.message });
}

/** The page closed: what it showed goes, and an answer still on its way is dropped. */
export function closeStatistics(): void {
  latestStatistics++;
  useStatisticsStore.setState(initialStatisticsState());
}

/** A channel's wallet and history before anything is read (the tax interview is opened on its own). */
const walletOf = (channelId: string) => ({ channelId, wallet: null, walletError: null, transactions: null, transactionsError: null });

/** The Payouts page opens on a channel: its wallet is read afresh (the history reads itself, showTransactions). */
export async function openPayouts(channelId: string, client: HttpClient = httpClient): Promise<void> {
  usePayoutsStore.setState(walletOf(channelId));
  await refreshWallet(channelId, client);
}

/** Reads the wallet again (after a payout, the tax interview or a payment method); a failure stays shown. */
export async function refreshWallet(channelId: string, client: HttpClient = httpClient): Promise<void> {
  const result = await loadWallet(channelId, client);
  if (usePayoutsStore.getState().channelId !== channelId) return;
  usePayoutsStore.setState(result.ok ? { wallet: result.value } : { walletError: result.message });
}

/** The payment methods open (in Settings, or on Payouts before the first one): the channel's wallet, read again. */
export async function openPaymentMethods(channelId: string, client: HttpClient = httpClient): Promise<void> {
  if (usePayoutsStore.getState().channelId !== channelId) usePayoutsStore.setState(walletOf(channelId));
  await refreshWallet(channelId, client);
}

let latestTransactions = 0;

/** The transaction history's page for its tab, search and paging; only the newest ask lands, and the last page stays while it is read. */
export async function showTransactions(
  channelId: string,
  query: { tab: 'credit' | 'payouts'; campaign: string; page: number; pageSize: number },
  client: HttpClient = httpClient,
): Promise<void> {
  const asked = ++latestTransactions;
  const result = await loadTransactions(channelId, query, client);
  if (asked !== latestTransactions || usePayoutsStore.getState().channelId !== channelId) return;
  usePayoutsStore.setState(result.ok ? { transactions: result.value } : { transactionsError: result.message });
}

/** The Payouts page closed: its wallet and history go, and answers still on their way are dropped. */
export function closePayouts(): void {
  latestTransactions++;
  const { taxInterview, taxInterviewError } = usePayoutsStore.getState();
  usePayoutsStore.setState({ ...initialPayoutsState(), taxInterview, taxInterviewError });
}

let latestTaxInterview = 0;

/** The tax interview opens (on Payouts or in Settings): read afresh. */
export async function openTaxInterview(channelId: string, client: HttpClient = httpClient): Promise<void> {
  const asked = ++latestTaxInterview;
  usePayoutsStore.setState({ taxInterview: null, taxInterviewError: null });
  const result = await loadTaxInterview(channelId, client);
  if (asked !== latestTaxInterview) return;
  usePayoutsStore.setState(result.ok ? { taxInterview: result.value } : { taxInterviewError: result.message });
}

export function closeTaxInterview(): void {
  latestTaxInterview++;
  usePayoutsStore.setState({ taxInterview: null, taxInterviewError: null });
}

/** Settings › Tips opens: the saved settings, read afresh; the answer also seeds the form. */
export async function openTipSettings(channelId: string, client: HttpClient = httpClient): Promise<TipSettings | null> {
  useTipsStore.setState({ channelId, settings: null, settingsError: null });
  const result = await loadTipSettings(channelId, client);
  if (useTipsStore.getState().channelId !== channelId) return null;
  useTipsStore.setState(result.ok ? { settings: result.value } : { settingsError: result.message });
  return result.ok ? result.value : null;
}

/** The charity section opens: the connected campaign (or none), read afresh; the answer also seeds its form. */
export async function openCharity(channelId: string, client: HttpClient = httpClient): Promise<CharityCampaignView | null | undefined> {
  useTipsStore.setState({ channelId, charity: undefined, charityError: null });
  const result = await loadCharity(channelId, client);
  if (useTipsStore.getState().channelId !== channelId) return undefined;
  useTipsStore.setState(result.ok ? { charity: result.value.campaign } : { charityError: result.message });
  return result.ok ? result.value.campaign : undefined;
}

export function closeTips(): void {
  useTipsStore.setState(initialTipsState());
}
