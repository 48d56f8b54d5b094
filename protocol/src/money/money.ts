import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { countryCodes } from '../partner/profile.ts';

/**
 * Money of the partner network (partner spec §1 tips and payouts, §3 Tip settings, Transaction,
 * Payment method details, §4 transaction statuses, §5 payout and tip rules, §8, §9). Every amount
 * is an integer in minor units (cents) with its ISO 4217 currency beside it, lower case as Stripe
 * writes it.
 */

/** Currencies a creator can take tips and payouts in (all two-decimal). */
export const moneyCurrencies = ['usd', 'eur', 'gbp', 'cad', 'aud'] as const;
export const currencySchema = z.enum(moneyCurrencies);
export type MoneyCurrency = z.infer<typeof currencySchema>;

/** §9: the tip minimum must exceed $1 (100 minor units). */
export const TIP_MIN_FLOOR = 100;
/** §9: the tip maximum must not exceed $2000. */
export const TIP_MAX_CEILING = 200_000;
/** §9: the payout minimum (about $10). */
export const PAYOUT_MINIMUM = 1_000;
/** §9: statistics show the last 30 days unless asked otherwise. */
export const REVENUE_WINDOW_DAYS = 30;
/** §9 "zero fees": OnAir takes nothing from a payout. */
export const PAYOUT_FEE = 0;
/** Text limits of a tip (§9: text fields 64, messages 480 like chat messages). */
export const TIP_NAME_MAX = 64;
export const TIP_MESSAGE_MAX = 480;

/** 1234 usd → "$12.34". */
export function formatMoney(minor: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);
}

const required = 'This field is required';
const minorAmount = z.number({ error: 'Enter an amount' }).int('Enter the amount in cents (a whole number)');

// ─── Tip settings (§3, §5, §9) ───

export const tipSettingsSchema = z
  .object({
    enabled: z.boolean(),
    paymentEmail: z.union([z.literal(''), z.email('Enter a valid email address')]),
    currency: currencySchema,
    minTip: minorAmount,
    maxTip: minorAmount,
  })
  .superRefine((s, ctx) => {
    if (s.minTip <= TIP_MIN_FLOOR)
      ctx.addIssue({ code: 'custom', path: ['minTip'], message: `The minimum tip must be more than ${formatMoney(TIP_MIN_FLOOR, s.currency)}` });
    if (s.maxTip > TIP_MAX_CEILING)
      ctx.addIssue({ code: 'custom', path: ['maxTip'], message: `The maximum tip can be at most ${formatMoney(TIP_MAX_CEILING, s.currency)}` });
    if (s.maxTip <= s.minTip) ctx.addIssue({ code: 'custom', path: ['maxTip'], message: 'The maximum tip must be more than the minimum tip' });
    if (s.enabled && s.paymentEmail === '') ctx.addIssue({ code: 'custom', path: ['paymentEmail'], message: required });
  });
export type TipSettings = z.infer<typeof tipSettingsSchema>;

export const DEFAULT_TIP_SETTINGS: TipSettings = { enabled: false, paymentEmail: '', currency: 'usd', minTip: 200, maxTip: 50_000 };

/** §8: what a viewer sees when tipping is switched off by an operator or by the creator. */
export const TIPS_NOT_AVAILABLE = 'Tips Not Available';

/** The public tip page of a creator. */
export const tipPageSchema = z.object({
  channelId: z.string(),
  creatorName: z.string(),
  available: z.boolean(),
  /** Why not, in words, when not available. */
  unavailableReason: z.string().nullable(),
  currency: currencySchema,
  minTip: z.number().int(),
  maxTip: z.number().int(),
  testMode: z.boolean(),
});
export type TipPage = z.infer<typeof tipPageSchema>;

export const createTipBodySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, required)
    .max(TIP_NAME_MAX, `Keep the name under ${TIP_NAME_MAX + 1} characters`),
  message: z
    .string()
    .trim()
    .max(TIP_MESSAGE_MAX, `Keep the message under ${TIP_MESSAGE_MAX + 1} characters`)
    .default(''),
  /** Minor units of the creator's currency. */
  amount: minorAmount.positive('Enter an amount greater than zero'),
});
export type CreateTipBody = z.infer<typeof createTipBodySchema>;

/** The tip's amount against the creator's settings: null when it fits, else the words. */
export function tipAmountProblem(amount: number, settings: Pick<TipSettings, 'minTip' | 'maxTip' | 'currency'>): string | null {
  if (!Number.isInteger(amount) || amount <= 0) return 'Enter an amount greater than zero';
  if (amount < settings.minTip) return `The smallest tip is ${formatMoney(settings.minTip, settings.currency)}`;
  if (amount > settings.maxTip) return `The largest tip is ${formatMoney(settings.maxTip, settings.currency)}`;
  return null;
}

export const tipStatuses = ['pending', 'paid', 'refunded', 'disputed', 'expired'] as const;

// ─── The ledger, balances and transactions (§3 Transaction, §4) ───

export const ledgerKinds = ['tip', 'tip_refund', 'tip_dispute', 'tip_dispute_won', 'charity', 'payout', 'payout_returned', 'campaign_revenue'] as const;
export type LedgerKind = (typeof ledgerKinds)[number];

/** §4 transaction statuses. */
export const transactionStatuses = ['new', 'processing', 'delayed', 'completed', 'canceled'] as const;
export const transactionStatusSchema = z.enum(transactionStatuses);
export type TransactionStatus = z.infer<typeof transactionStatusSchema>;

export const balanceSchema = z.object({ currency: currencySchema, available: z.number().int() });
export type Balance = z.infer<typeof balanceSchema>;

/** A row of the Credit tab: one ledger entry (signed: a refund is a negative credit). */
export const creditTransactionSchema = z.object({
  id: z.string(),
  kind: z.enum(ledgerKinds),
  amount: z.number().int(),
  currency: z.string(),
  description: z.string(),
  campaignName: z.string().nullable(),
  status: transactionStatusSchema,
  date: z.string(),
});
export type CreditTransaction = z.infer<typeof creditTransactionSchema>;

/** A row of the Payouts tab. */
export const payoutSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  fee: z.number().int(),
  status: transactionStatusSchema,
  method: z.string(),
  /** Business-day estimate of arrival (ISO dates). */
  estimatedFrom: z.string(),
  estimatedTo: z.string(),
  failureReason: z.string().nullable(),
  date: z.string(),
  completedAt: z.string().nullable(),
});
export type PayoutView = z.infer<typeof payoutSchema>;

export const TRANSACTIONS_PAGE_SIZES = [10, 25, 50] as const;

export const transactionsQuerySchema = z.object({
  tab: z.enum(['credit', 'payouts']).default('credit'),
  /** Search by campaign name (§2). */
  campaign: z.string().trim().max(64).default(''),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (TRANSACTIONS_PAGE_SIZES as readonly number[]).includes(n), 'Choose 10, 25 or 50 rows')
    .default(10),
});

export const transactionsPageSchema = z.object({
  tab: z.enum(['credit', 'payouts']),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  credits: z.array(creditTransactionSchema),
  payouts: z.array(payoutSchema),
});
export type TransactionsPage = z.infer<typeof transactionsPageSchema>;

// ─── Payment methods (§3 Payment method details) ───

export const paymentRegions = ['usa', 'international'] as const;

/** ABA routing number: nine digits with its checksum (3·7·1 weights). */
export function isValidAbaRouting(code: string): boolean {
  if (!/^\d{9}$/.test(code)) return false;
  const d = [...code].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, required)
    .max(max, `Keep the text under ${max + 1} characters`);
const common = {
  name: text(64),
  email: z.email('Enter a valid email address'),
  addressLine1: text(128),
  addressLine2: z.string().trim().max(128, 'Keep the text under 129 characters').default(''),
  accountHolder: text(64),
  bankName: text(64),
  bankAddress: z.string().trim().max(128, 'Keep the text under 129 characters').default(''),
  isDefault: z.boolean().default(false),
};

export const paymentMethodInputSchema = z.discriminatedUnion('region', [
  z.object({
    region: z.literal('usa'),
    ...common,
    accountNumber: z
      .string()
      .trim()
      .regex(/^\d{4,17}$/, 'Enter the account number: 4 to 17 digits'),
    routingCode: z.string().trim().refine(isValidAbaRouting, 'Enter a valid 9-digit ABA routing number'),
    country: z.literal('US').default('US'),
    currency: z.literal('usd').default('usd'),
  }),
  z.object({
    region: z.literal('international'),
    ...common,
    iban: z
      .string()
      .transform((s) => electronicFormatIBAN(s) ?? '')
      .refine((s) => isValidIBAN(s), 'Enter a valid IBAN'),
    swift: z
      .string()
      .trim()
      .transform((s) => s.toUpperCase().replace(/\s+/g, ''))
      .refine((s) => isValidBIC(s), 'Enter a valid SWIFT/BIC code'),
    country: z.enum(countryCodes, 'Choose a country'),
    currency: currencySchema,
  }),
]);
export type PaymentMethodInput = z.infer<typeof paymentMethodInputSchema>;

export const paymentMethodSchema = z.object({
  id: z.string(),
  region: z.enum(paymentRegions),
  name: z.string(),
  email: z.string(),
  addressLine1: z.string(),
  addressLine2: z.string(),
  accountHolder: z.string(),
  /** Only the last four characters of the account number or IBAN are ever shown. */
  accountLast4: z.string(),
  bankName: z.string(),
  routingCode: z.string(),
  bankAddress: z.string(),
  country: z.string(),
  currency: z.string(),
  swift: z.string(),
  isDefault: z.boolean(),
  /** Business days a payout takes by this method (§9). */
  businessDays: z.object({ from: z.number().int(), to: z.number().int() }),
});
export type PaymentMethodView = z.infer<typeof paymentMethodSchema>;

/** §9: business-day ranges per method: ACH inside the USA, SWIFT/SEPA abroad. */
export const PAYOUT_BUSINESS_DAYS: Record<(typeof paymentRegions)[number], { from: number; to: number }> = {
  usa: { from: 1, to: 3 },
  international: { from: 3, to: 5 },
};

/** The date `days` business days (Monday–Friday) after `start`, in UTC. */
export function addBusinessDays(start: Date, days: number): Date {
  const d = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) left -= 1;
  }
  return d;
}

// ─── Tax interview (§2 Payouts) ───

export const taxInterviewInputSchema = z.object({
  legalName: text(64),
  entityType: z.enum(['individual', 'business'], 'Choose individual or business'),
  taxCountry: z.enum(countryCodes, 'Choose a country'),
  taxId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{4,20}$/, 'Enter your tax identification number (4 to 20 letters, digits or dashes)'),
  certify: z.literal(true, 'Confirm that the information is correct'),
});
export type TaxInterviewInput = z.infer<typeof taxInterviewInputSchema>;

export const taxInterviewSchema = z.object({
  completed: z.boolean(),
  legalName: z.string().nullable(),
  entityType: z.string().nullable(),
  taxCountry: z.string().nullable(),
  taxIdLast4: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type TaxInterviewView = z.infer<typeof taxInterviewSchema>;

// ─── Payouts (§2, §5, §8) ───

export const requestPayoutBodySchema = z.object({
  amount: minorAmount.positive('Enter an amount greater than zero'),
  currency: currencySchema,
  /** The default method when absent. */
  paymentMethodId: z.uuid().optional(),
});

/** §8: the payout failure message. */
export const PAYOUT_FAILED_MESSAGE = 'Unable to request payout';
/** §5: "{balance} is your available balance". */
export const availableBalanceMessage = (available: number, currency: string) => `${formatMoney(available, currency)} is your available balance`;

export const walletSchema = z.object({
  balances: z.array(balanceSchema),
  minimumPayout: z.number().int(),
  fee: z.number().int(),
  taxInterviewCompleted: z.boolean(),
  hasPaymentMethod: z.boolean(),
  paymentMethods: z.array(paymentMethodSchema),
  /** Why a payout cannot be requested now, in words; null when it can. */
  payoutBlockedReason: z.string().nullable(),
});
export type Wallet = z.infer<typeof walletSchema>;

// ─── Charity (§3 Charity integrations) ───

export const charityCampaignInputSchema = z.object({
  link: z.url({ protocol: /^https$/, error: 'Enter the https link of the charity campaign' }).max(512),
  name: text(64),
  active: z.boolean(),
});
export const charityCampaignSchema = z.object({ link: z.string(), name: z.string(), active: z.boolean(), providerId: z.string().nullable() }).nullable();
export type CharityCampaignView = z.infer<typeof charityCampaignSchema>;

// ─── Statistics (§2 Statistics) ───

export const statisticsGroupings = ['daily', 'weekly', 'monthly', 'stream'] as const;

/** Whether the runtime knows an IANA time zone name (offsets such as `+05:00` are not names, and read backwards in PostgreSQL). */
export function isTimeZoneName(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_]*(?:\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name (the browser's `Intl.DateTimeFormat().resolvedOptions().timeZone`). */
export const timeZoneSchema = z.string().max(64).refine(isTimeZoneName, 'an IANA time zone name, such as Europe/Paris');

export const statisticsQuerySchema = z.object({
  /** Calendar days in `timeZone`. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  groupBy: z.enum(statisticsGroupings).default('daily'),
  /** The creator's time zone: days, weeks and months start at its midnight, so an evening stream stays on its day. UTC without it. */
  timeZone: timeZoneSchema.default('UTC'),
});

export const statisticsPointSchema = z.object({
  /** The day, week start, month start (ISO date) or the stream's project name and start. */
  label: z.string(),
  /** Net tips and campaign revenue, in the revenue currency's minor units. */
  revenue: z.number().int(),
  /** Sponsor impressions: the creator site or an overlay showed a campaign's promo code or link. */
  impressions: z.number().int(),
  /** Clicks through the channel's tracked campaign links. */
  clicks: z.number().int(),
});

export const statisticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** The time zone the days were cut in. */
  timeZone: z.string(),
  groupBy: z.enum(statisticsGroupings),
  channel: z.object({ streams: z.number().int(), hoursStreamed: z.number(), events: z.number().int() }),
  /** Null for a collaborator: money is the owner's. */
  revenue: z
    .object({
      currency: z.string(),
      total: z.number().int(),
      tips: z.number().int(),
      tipCount: z.number().int(),
      charity: z.number().int(),
      /** Views of the tip page and tip checkouts started in the window. */
      tipPageViews: z.number().int(),
      tipCheckouts: z.number().int(),
    })
    .nullable(),
  events: z.array(z.object({ type: z.string(), count: z.number().int() })),
  /**
   * Campaigns the channel takes part in now (accepted or claimed), campaign revenue in the window, and
   * its tracked links' impressions (the creator site or an overlay showed the sponsor) and clicks in the
   * window, in total and per campaign.
   */
  sponsorships: z.object({
    campaigns: z.number().int(),
    revenue: z.number().int(),
    linkClicks: z.number().int(),
    linkImpressions: z.number().int(),
    links: z.array(
      z.object({
        campaignId: z.string(),
        campaignName: z.string(),
        impressions: z.number().int(),
        clicks: z.number().int(),
        revenue: z.number().int(),
      }),
    ),
  }),
  series: z.array(statisticsPointSchema),
});
export type Statistics = z.infer<typeof statisticsSchema>;
