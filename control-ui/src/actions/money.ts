import {
  addPaymentMethodEndpoint,
  connectCharityEndpoint,
  createTipCheckoutEndpoint,
  disconnectCharityEndpoint,
  getCharityEndpoint,
  getStatisticsEndpoint,
  getTaxInterviewEndpoint,
  getTipPageEndpoint,
  getTipSettingsEndpoint,
  getWalletEndpoint,
  listTransactionsEndpoint,
  paymentMethodSchema,
  payoutSchema,
  removePaymentMethodEndpoint,
  requestPayoutEndpoint,
  setDefaultPaymentMethodEndpoint,
  statisticsSchema,
  submitTaxInterviewEndpoint,
  taxInterviewSchema,
  tipPageSchema,
  tipSettingsSchema,
  transactionsPageSchema,
  updateTipSettingsEndpoint,
  walletSchema,
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
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { fieldErrorsOf } from '../model/partner.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/**
 * The money pages' calls (issue 24): tip settings, the tip page, wallet and payouts, payment
 * methods, the tax interview, transactions, charity and statistics. Each returns the api's answer
 * or its words; the pages keep what they show in their own state (nothing here is shared).
 */

export type Result<T> = { ok: true; value: T } | { ok: false; message: string; fieldErrors: Record<string, string> };

const path = (template: string, params: Record<string, string>) => template.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));

async function attempt<T>(fn: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    const api = apiErrorOf(err);
    const fieldErrors = api?.code === 'VALIDATION_FAILED' ? fieldErrorsOf(api.details) : {};
    if (api && api.code !== 'VALIDATION_FAILED' && typeof api.details === 'object' && api.details && 'field' in api.details) fieldErrors[String((api.details as { field: unknown }).field)] = api.message;
    return { ok: false, message: api?.code === 'VALIDATION_FAILED' ? 'Check the highlighted fields.' : messageOf(err), fieldErrors };
  }
}

export const loadTipSettings = (channelId: string, client: HttpClient = httpClient) => attempt<TipSettings>(() => client.getJson(path(getTipSettingsEndpoint.path, { channelId }), { response: tipSettingsSchema }));

export async function saveTipSettings(channelId: string, settings: TipSettings, client: HttpClient = httpClient): Promise<Result<TipSettings>> {
  const result = await attempt<TipSettings>(() => client.sendJson('PUT', path(updateTipSettingsEndpoint.path, { channelId }), settings, { response: tipSettingsSchema }));
  if (result.ok) showToast({ kind: 'success', title: 'Tip settings saved' });
  return result;
}

export const loadTipPage = (creatorId: string, client: HttpClient = httpClient) => attempt<TipPage>(() => client.getJson(path(getTipPageEndpoint.path, { creatorId }), { response: tipPageSchema }));

export const startTip = (creatorId: string, body: { name: string; message: string; amount: number }, client: HttpClient = httpClient) =>
  attempt(() => client.sendJson('POST', path(createTipCheckoutEndpoint.path, { creatorId }), body, { response: createTipCheckoutEndpoint.response }));

export const loadWallet = (channelId: string, client: HttpClient = httpClient) => attempt<Wallet>(() => client.getJson(path(getWalletEndpoint.path, { channelId }), { response: walletSchema }));

export const loadTaxInterview = (channelId: string, client: HttpClient = httpClient) => attempt<TaxInterviewView>(() => client.getJson(path(getTaxInterviewEndpoint.path, { channelId }), { response: taxInterviewSchema }));

export const submitTaxInterview = (channelId: string, body: unknown, client: HttpClient = httpClient) =>
  attempt<TaxInterviewView>(() => client.sendJson('PUT', path(submitTaxInterviewEndpoint.path, { channelId }), body, { response: taxInterviewSchema }));

export const addPaymentMethod = (channelId: string, body: unknown, client: HttpClient = httpClient) =>
  attempt<PaymentMethodView>(() => client.sendJson('POST', path(addPaymentMethodEndpoint.path, { channelId }), body, { response: paymentMethodSchema }));

const methodsSchema = setDefaultPaymentMethodEndpoint.response;
export const setDefaultPaymentMethod = (channelId: string, methodId: string, client: HttpClient = httpClient) =>
  attempt(() => client.sendJson('PUT', path(setDefaultPaymentMethodEndpoint.path, { channelId, methodId }), undefined, { response: methodsSchema }));
export const removePaymentMethod = (channelId: string, methodId: string, client: HttpClient = httpClient) =>
  attempt(() => client.sendJson('DELETE', path(removePaymentMethodEndpoint.path, { channelId, methodId }), undefined, { response: methodsSchema }));

export const requestPayout = (channelId: string, body: { amount: number; currency: string }, client: HttpClient = httpClient) =>
  attempt<PayoutView>(() => client.sendJson('POST', path(requestPayoutEndpoint.path, { channelId }), body, { response: payoutSchema }));

export function loadTransactions(channelId: string, query: { tab: 'credit' | 'payouts'; campaign: string; page: number; pageSize: number }, client: HttpClient = httpClient): Promise<Result<TransactionsPage>> {
  const qs = new URLSearchParams({ tab: query.tab, campaign: query.campaign, page: String(query.page), pageSize: String(query.pageSize) });
  return attempt(() => client.getJson(`${path(listTransactionsEndpoint.path, { channelId })}?${qs.toString()}`, { response: transactionsPageSchema }));
}

export function transactionsCsvUrl(channelId: string, tab: 'credit' | 'payouts', campaign: string): string {
  return `/api/v1/partner/channels/${encodeURIComponent(channelId)}/transactions.csv?${new URLSearchParams({ tab, campaign }).toString()}`;
}

const charityAnswer = getCharityEndpoint.response;
export const loadCharity = (channelId: string, client: HttpClient = httpClient) => attempt<{ campaign: CharityCampaignView }>(() => client.getJson(path(getCharityEndpoint.path, { channelId }), { response: charityAnswer }));
export const connectCharity = (channelId: string, body: { link: string; name: string; active: boolean }, client: HttpClient = httpClient) =>
  attempt<{ campaign: CharityCampaignView }>(() => client.sendJson('PUT', path(connectCharityEndpoint.path, { channelId }), body, { response: charityAnswer }));
export const disconnectCharity = (channelId: string, client: HttpClient = httpClient) =>
  attempt<{ campaign: CharityCampaignView }>(() => client.sendJson('DELETE', path(disconnectCharityEndpoint.path, { channelId }), undefined, { response: charityAnswer }));

export function loadStatistics(channelId: string, query: { groupBy: string; from?: string; to?: string }, client: HttpClient = httpClient): Promise<Result<Statistics>> {
  const qs = new URLSearchParams({ groupBy: query.groupBy, ...(query.from ? { from: query.from } : {}), ...(query.to ? { to: query.to } : {}) });
  return attempt(() => client.getJson(`${path(getStatisticsEndpoint.path, { channelId })}?${qs.toString()}`, { response: statisticsSchema }));
}
