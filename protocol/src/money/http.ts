import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { channelIdParamsSchema } from '../partner/channels.ts';
import {
  charityCampaignInputSchema,
  charityCampaignSchema,
  createTipBodySchema,
  paymentMethodInputSchema,
  paymentMethodSchema,
  payoutSchema,
  requestPayoutBodySchema,
  statisticsQuerySchema,
  statisticsSchema,
  taxInterviewInputSchema,
  taxInterviewSchema,
  tipPageSchema,
  tipSettingsSchema,
  transactionsPageSchema,
  transactionsQuerySchema,
  walletSchema,
} from './money.ts';

// Money pages of a channel are the owner's ('manage money' in channelCapabilities): no permission
// group of spec §6 grants them. Statistics need the Analytics group; their revenue stays the owner's.

const tag = 'money';
const methodParams = channelIdParamsSchema.extend({ methodId: z.uuid() });

export const getTipSettingsEndpoint = defineEndpoint({
  id: 'getTipSettings',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/tip-settings',
  summary: 'Settings › Tips: payment-account e-mail, currency, minimum and maximum tip.',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  response: tipSettingsSchema,
});

export const updateTipSettingsEndpoint = defineEndpoint({
  id: 'updateTipSettings',
  method: 'put',
  path: '/api/v1/partner/channels/:channelId/tip-settings',
  summary: 'Save Settings › Tips (spec §9: minimum above $1, maximum at most $2000 and above the minimum).',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  body: tipSettingsSchema,
  response: tipSettingsSchema,
});

export const getTipPageEndpoint = defineEndpoint({
  id: 'getTipPage',
  method: 'get',
  path: '/api/v1/tips/:creatorId',
  summary: "A creator's public tip page: whether tips are taken, in which currency and within which limits.",
  tag,
  access: 'public',
  params: z.object({ creatorId: z.string().min(1).max(64) }),
  response: tipPageSchema,
});

export const createTipCheckoutEndpoint = defineEndpoint({
  id: 'createTipCheckout',
  method: 'post',
  path: '/api/v1/tips/:creatorId/checkout',
  summary: 'A viewer tips: name, message and amount; answers the payment page to open.',
  tag,
  access: 'public',
  params: z.object({ creatorId: z.string().min(1).max(64) }),
  body: createTipBodySchema,
  response: z.object({ url: z.url(), tipId: z.uuid() }),
  successStatus: 201,
});

export const setTipsAvailabilityEndpoint = defineEndpoint({
  id: 'setTipsAvailability',
  method: 'put',
  path: '/api/v1/admin/tips-availability',
  summary: 'Operator switch: tipping on or off for every creator (maintenance shows "Tips Not Available").',
  tag,
  access: 'admin',
  body: z.object({ available: z.boolean(), reason: z.string().trim().max(200).default('') }),
  response: z.object({ available: z.boolean(), reason: z.string() }),
});

export const getWalletEndpoint = defineEndpoint({
  id: 'getWallet',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/wallet',
  summary: 'Payouts: balances from the ledger, minimum payout, fees, tax interview and payment methods.',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  response: walletSchema,
});

export const getTaxInterviewEndpoint = defineEndpoint({
  id: 'getTaxInterview',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/tax-interview',
  summary: 'The tax interview, required before a payout.',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  response: taxInterviewSchema,
});

export const submitTaxInterviewEndpoint = defineEndpoint({
  id: 'submitTaxInterview',
  method: 'put',
  path: '/api/v1/partner/channels/:channelId/tax-interview',
  summary: 'Complete (or redo) the tax interview.',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  body: taxInterviewInputSchema,
  response: taxInterviewSchema,
});

export const addPaymentMethodEndpoint = defineEndpoint({
  id: 'addPaymentMethod',
  method: 'post',
  path: '/api/v1/partner/channels/:channelId/payment-methods',
  summary: 'Settings › Payout information: bank details for the USA (ABA) or international (IBAN/SWIFT).',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  body: paymentMethodInputSchema,
  response: paymentMethodSchema,
  successStatus: 201,
});

export const setDefaultPaymentMethodEndpoint = defineEndpoint({
  id: 'setDefaultPaymentMethod',
  method: 'put',
  path: '/api/v1/partner/channels/:channelId/payment-methods/:methodId/default',
  summary: 'Make a payment method the default one.',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: methodParams,
  response: z.object({ paymentMethods: z.array(paymentMethodSchema) }),
});

export const removePaymentMethodEndpoint = defineEndpoint({
  id: 'removePaymentMethod',
  method: 'delete',
  path: '/api/v1/partner/channels/:channelId/payment-methods/:methodId',
  summary: 'Remove a payment method.',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: methodParams,
  response: z.object({ paymentMethods: z.array(paymentMethodSchema) }),
});

export const requestPayoutEndpoint = defineEndpoint({
  id: 'requestPayout',
  method: 'post',
  path: '/api/v1/partner/channels/:channelId/payouts',
  summary: 'Request payout (spec §5): within the available balance, above the minimum, tax interview done.',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  body: requestPayoutBodySchema,
  response: payoutSchema,
  successStatus: 201,
});

export const listTransactionsEndpoint = defineEndpoint({
  id: 'listTransactions',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/transactions',
  summary: 'Transaction history: the Credit or Payouts tab, searched by campaign name, a page at a time.',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  query: transactionsQuerySchema,
  response: transactionsPageSchema,
});

export const downloadTransactionsEndpoint = defineEndpoint({
  id: 'downloadTransactions',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/transactions.csv',
  summary: 'The transaction history of a tab as CSV (amounts as numbers, cells escaped against formula injection).',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  query: transactionsQuerySchema.pick({ tab: true, campaign: true }),
  response: z.string().describe('text/csv'),
});

export const getCharityEndpoint = defineEndpoint({
  id: 'getCharityCampaign',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/charity',
  summary: 'Settings › Integrations › Charity: the connected charity campaign.',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  response: z.object({ campaign: charityCampaignSchema }),
});

export const connectCharityEndpoint = defineEndpoint({
  id: 'connectCharityCampaign',
  method: 'put',
  path: '/api/v1/partner/channels/:channelId/charity',
  summary: 'Connect a charity campaign (its link) and set it active or not.',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  body: charityCampaignInputSchema,
  response: z.object({ campaign: charityCampaignSchema }),
});

export const disconnectCharityEndpoint = defineEndpoint({
  id: 'disconnectCharityCampaign',
  method: 'delete',
  path: '/api/v1/partner/channels/:channelId/charity',
  summary: 'Disconnect the charity campaign.',
  tag,
  access: 'user',
  channelCapability: 'manage money',
  params: channelIdParamsSchema,
  response: z.object({ campaign: charityCampaignSchema }),
});

export const getStatisticsEndpoint = defineEndpoint({
  id: 'getStatistics',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/statistics',
  summary:
    'Statistics: Channel, Revenue, Events, Sponsorships; revenue, impressions and clicks grouped daily, weekly, monthly or by stream (default: the last 30 days).',
  tag,
  access: 'user',
  channelCapability: 'view statistics',
  params: channelIdParamsSchema,
  query: statisticsQuerySchema,
  response: statisticsSchema,
});

export const moneyEndpoints = [
  getTipSettingsEndpoint,
  updateTipSettingsEndpoint,
  getTipPageEndpoint,
  createTipCheckoutEndpoint,
  setTipsAvailabilityEndpoint,
  getWalletEndpoint,
  getTaxInterviewEndpoint,
  submitTaxInterviewEndpoint,
  addPaymentMethodEndpoint,
  setDefaultPaymentMethodEndpoint,
  removePaymentMethodEndpoint,
  requestPayoutEndpoint,
  listTransactionsEndpoint,
  downloadTransactionsEndpoint,
  getCharityEndpoint,
  connectCharityEndpoint,
  disconnectCharityEndpoint,
  getStatisticsEndpoint,
] as const;
