import { z } from 'zod';

// Partner spec §2 Campaigns, §3 Campaign, Application, Promo code, §4 application statuses and key
// availability, §5 promo code, revenue share and eligibility rules, §9 (revenue share from 18).

export const campaignKinds = ['game-key', 'revenue-share'] as const;
export const campaignKindSchema = z.enum(campaignKinds);
export type CampaignKind = z.infer<typeof campaignKindSchema>;

/** A draft is seen by administrators only; creators see active campaigns (and those they take part in). */
export const campaignStatuses = ['draft', 'active', 'paused', 'ended'] as const;
export const campaignStatusSchema = z.enum(campaignStatuses);
export type CampaignStatus = z.infer<typeof campaignStatusSchema>;

/** Spec §4, with the words the creator sees for each. */
export const applicationStatuses = ['applied', 'invited', 'accepted', 'claimed', 'rejected', 'rescinded', 'expired'] as const;
export const applicationStatusSchema = z.enum(applicationStatuses);
export type ApplicationStatus = z.infer<typeof applicationStatusSchema>;
export const applicationStatusLabels: Record<ApplicationStatus, string> = {
  applied: 'In review',
  invited: 'Awaits your response',
  accepted: 'Active',
  claimed: 'Claimed',
  rejected: 'Declined',
  rescinded: 'Rescinded',
  expired: 'Expired',
};

/** Where a game key is redeemed. */
export const keyPlatforms = ['Steam', 'Epic Games', 'GOG', 'Xbox', 'PlayStation', 'Nintendo Switch', 'Other'] as const;
export const keyPlatformSchema = z.enum(keyPlatforms);
export type KeyPlatform = z.infer<typeof keyPlatformSchema>;

export const businessModels = ['Premium', 'Free to play', 'Subscription', 'Early access'] as const;

/** Spec §5: revenue share needs age 18 or older. */
export const REVENUE_SHARE_MIN_AGE = 18;
/** Spec §5: promo codes use A–Z and digits. */
export const PROMO_CODE_PATTERN = /^[A-Z0-9]{4,20}$/;
export const PROMO_CODE_LENGTH_GENERATED = 8;
/** Spec §9: text fields 64 characters (128 in the longer variant), messages 480. */
export const CAMPAIGN_TEXT_MAX = 64;
export const CAMPAIGN_LONG_TEXT_MAX = 128;
export const CAMPAIGN_MESSAGE_MAX = 480;
export const CAMPAIGN_DESCRIPTION_MAX = 4000;
/** Game keys per CSV import; one key at most 128 characters. */
export const KEY_IMPORT_MAX = 10_000;
export const GAME_KEY_MAX = 128;
/** Statistics are sampled from the linked platforms this often; the 30-day figures are exact only after 30 days of samples. */
export const CHANNEL_STATS_WINDOW_DAYS = 30;

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'This field is required')
    .max(max, `Keep the text under ${max + 1} characters`);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Keep the text under ${max + 1} characters`)
    .default('');
const threshold = z.number().int().min(0).max(1_000_000_000).nullable().default(null);
const percent = z.number().int('Whole percent only').min(1, 'At least 1%').max(100, 'At most 100%');

/** Spec §5 eligibility thresholds; a null threshold is no requirement. Every threshold set must be met. */
export const campaignRequirementsSchema = z.object({
  minFollowers: threshold,
  minSubscribers: threshold,
  minTotalViews: threshold,
  minAverageViewers30d: threshold,
  minHoursStreamed30d: threshold,
});
export type CampaignRequirements = z.infer<typeof campaignRequirementsSchema>;

/** Spec §3 promo discount: fixed, or a range the creator picks from. */
export const promoDiscountSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('fixed'), percent }),
    z.object({ kind: z.literal('range'), minPercent: percent, maxPercent: percent }),
  ])
  .refine((d) => d.kind === 'fixed' || d.minPercent < d.maxPercent, { message: 'The maximum discount must be above the minimum', path: ['maxPercent'] });
export type PromoDiscount = z.infer<typeof promoDiscountSchema>;

export const campaignResourceSchema = z.object({
  title: text(CAMPAIGN_TEXT_MAX),
  url: z.url({ protocol: /^https$/, message: 'Give an https:// address' }).max(2048),
});
export type CampaignResource = z.infer<typeof campaignResourceSchema>;

const countryCode = z.string().regex(/^[A-Z]{2}$/, 'Use two-letter country codes (ISO 3166-1)');

/** What an administrator writes (admin portal). */
export const campaignInputSchema = z
  .object({
    name: text(CAMPAIGN_TEXT_MAX),
    kind: campaignKindSchema,
    status: campaignStatusSchema.default('draft'),
    summary: optionalText(CAMPAIGN_LONG_TEXT_MAX),
    description: optionalText(CAMPAIGN_DESCRIPTION_MAX),
    game: text(CAMPAIGN_TEXT_MAX),
    genre: optionalText(CAMPAIGN_TEXT_MAX),
    developer: optionalText(CAMPAIGN_TEXT_MAX),
    publisher: optionalText(CAMPAIGN_TEXT_MAX),
    businessModel: z.enum(businessModels).nullable().default(null),
    platforms: z.array(keyPlatformSchema).max(keyPlatforms.length).default([]),
    /** Countries where the campaign runs; empty is worldwide. */
    geo: z.array(countryCode).max(250).default([]),
    requirements: campaignRequirementsSchema.default({
      minFollowers: null,
      minSubscribers: null,
      minTotalViews: null,
      minAverageViewers30d: null,
      minHoursStreamed30d: null,
    }),
    /** Applications wait for an administrator; without review an eligible creator joins at once. */
    requiresReview: z.boolean().default(true),
    revenueSharePercent: z.number().min(0.1).max(100).multipleOf(0.1).nullable().default(null),
    revenueShareEndsAt: z.iso.datetime({ offset: true }).nullable().default(null),
    promoDiscount: promoDiscountSchema.nullable().default(null),
    /** Where tracked links send viewers (the store page). */
    storeUrl: z
      .url({ protocol: /^https$/, message: 'Give an https:// address' })
      .max(2048)
      .nullable()
      .default(null),
    /** Claims open at this moment (the countdown before); null: as soon as accepted. */
    keysAvailableAt: z.iso.datetime({ offset: true }).nullable().default(null),
    expiresAt: z.iso.datetime({ offset: true }).nullable().default(null),
    resources: z.array(campaignResourceSchema).max(20).default([]),
  })
  .superRefine((c, ctx) => {
    if (c.kind === 'revenue-share' && c.revenueSharePercent === null)
      ctx.addIssue({ code: 'custom', path: ['revenueSharePercent'], message: 'A revenue-share campaign needs its percent' });
    if (c.kind === 'game-key' && c.platforms.length === 0)
      ctx.addIssue({ code: 'custom', path: ['platforms'], message: 'Name the platforms the keys are for' });
    if (c.expiresAt && c.keysAvailableAt && Date.parse(c.keysAvailableAt) >= Date.parse(c.expiresAt)) {
      ctx.addIssue({ code: 'custom', path: ['keysAvailableAt'], message: 'Keys must become available before the campaign expires' });
    }
  });
export type CampaignInput = z.input<typeof campaignInputSchema>;

export const keyPoolSchema = z.object({
  total: z.number().int(),
  available: z.number().int(),
  byPlatform: z.array(z.object({ platform: keyPlatformSchema, total: z.number().int(), available: z.number().int() })),
});

/** A campaign as creators and administrators see it (no keys, ever). */
export const campaignViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: campaignKindSchema,
  status: campaignStatusSchema,
  summary: z.string(),
  description: z.string(),
  game: z.string(),
  genre: z.string(),
  developer: z.string(),
  publisher: z.string(),
  businessModel: z.string().nullable(),
  platforms: z.array(keyPlatformSchema),
  geo: z.array(z.string()),
  requirements: campaignRequirementsSchema,
  requiresReview: z.boolean(),
  revenueSharePercent: z.number().nullable(),
  revenueShareEndsAt: z.string().nullable(),
  promoDiscount: promoDiscountSchema.nullable(),
  storeUrl: z.string().nullable(),
  keysAvailableAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  resources: z.array(campaignResourceSchema),
  keys: keyPoolSchema,
  createdAt: z.string(),
});
export type CampaignView = z.infer<typeof campaignViewSchema>;

/** The marketing campaigns page (spec §2 Marketing): what a signed-out visitor may see of a running campaign. */
export const publicCampaignSchema = campaignViewSchema.pick({
  id: true,
  name: true,
  kind: true,
  summary: true,
  game: true,
  genre: true,
  publisher: true,
  platforms: true,
  revenueSharePercent: true,
  expiresAt: true,
});
export type PublicCampaign = z.infer<typeof publicCampaignSchema>;

/** Spec §3 Application: primary channel, key platform, message. */
export const applyBodySchema = z.object({
  primaryChannel: text(CAMPAIGN_TEXT_MAX),
  keyPlatform: keyPlatformSchema.nullable().default(null),
  message: optionalText(CAMPAIGN_MESSAGE_MAX),
  /** The agreement dialog: the creator accepted the campaign's terms. */
  agreementAccepted: z.literal(true, 'Accept the campaign agreement to apply'),
});
export type ApplyBody = z.input<typeof applyBodySchema>;

export const claimBodySchema = z.object({ keyPlatform: keyPlatformSchema });

export const promoCodeViewSchema = z.object({ code: z.string(), discountPercent: z.number().int(), createdAt: z.string() });
export type PromoCodeView = z.infer<typeof promoCodeViewSchema>;

export const trackedLinkViewSchema = z.object({ url: z.string(), clicks: z.number().int(), impressions: z.number().int() });
export type TrackedLinkView = z.infer<typeof trackedLinkViewSchema>;

/** Spec §5 promo code: A–Z and digits (generated when left out), discount within the campaign's range. */
export const createPromoCodeBodySchema = z.object({
  code: z.string().trim().regex(PROMO_CODE_PATTERN, 'Use 4 to 20 capital letters A–Z and digits').nullable().default(null),
  discountPercent: z.number().int('Whole percent only'),
});

export const applicationViewSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  status: applicationStatusSchema,
  statusLabel: z.string(),
  primaryChannel: z.string(),
  keyPlatform: keyPlatformSchema.nullable(),
  message: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The claimed game key: shown to the creator who claimed it only. */
  gameKey: z.object({ platform: keyPlatformSchema, key: z.string(), claimedAt: z.string() }).nullable(),
  promoCodes: z.array(promoCodeViewSchema),
  link: trackedLinkViewSchema.nullable(),
});
export type ApplicationView = z.infer<typeof applicationViewSchema>;

/** The platforms whose channels OnAir samples for eligibility (a YouTube channel through the Google sign-in). */
export const statsPlatforms = ['twitch', 'youtube'] as const;
export type StatsPlatform = (typeof statsPlatforms)[number];
export const statsPlatformLabels: Record<StatsPlatform, string> = { twitch: 'Twitch', youtube: 'YouTube' };

/** The creator's standing for one campaign: eligibility in words, and the key availability countdown. */
export const eligibilitySchema = z.object({
  eligible: z.boolean(),
  /** Why not, in words (spec §8: 'no platform linked or requirements not met'). */
  reasons: z.array(z.string()),
  stats: z
    .object({
      /** The channel judged: the creator's Twitch or YouTube channel, whichever meets the campaign (or comes closest). */
      platform: z.enum(statsPlatforms),
      followers: z.number().int().nullable(),
      subscribers: z.number().int().nullable(),
      totalViews: z.number().int().nullable(),
      averageViewers30d: z.number().nullable(),
      hoursStreamed30d: z.number().nullable(),
      sampledSince: z.string().nullable(),
      /** False until OnAir has sampled the channel for 30 days: the 30-day figures cover less. */
      complete: z.boolean(),
    })
    .nullable(),
});
export type Eligibility = z.infer<typeof eligibilitySchema>;

export const creatorCampaignSchema = z.object({
  campaign: campaignViewSchema,
  application: applicationViewSchema.nullable(),
  eligibility: eligibilitySchema,
});
export type CreatorCampaign = z.infer<typeof creatorCampaignSchema>;

export const campaignListQuerySchema = z.object({
  list: z.enum(['discover', 'mine']).default('discover'),
  kind: campaignKindSchema.optional(),
  platform: keyPlatformSchema.optional(),
  genre: z.string().trim().max(CAMPAIGN_TEXT_MAX).optional(),
  search: z.string().trim().max(CAMPAIGN_TEXT_MAX).optional(),
});

export const campaignIdParamsSchema = z.object({ campaignId: z.uuid('Campaign not found') });
export const applicationIdParamsSchema = z.object({ campaignId: z.uuid('Campaign not found'), applicationId: z.uuid() });

/** The administrator's view of an application. */
export const adminApplicationSchema = applicationViewSchema.omit({ gameKey: true }).extend({
  creator: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  keyClaimed: z.boolean(),
});
export type AdminApplication = z.infer<typeof adminApplicationSchema>;

export const inviteCreatorBodySchema = z.object({ email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address')) });
export const applicationDecisionSchema = z.object({ action: z.enum(['accept', 'reject', 'rescind']) });
export const keyImportResultSchema = z.object({ imported: z.number().int(), keys: keyPoolSchema });

/** Spec §4: key availability counts down in days, hours or minutes ('in 2 days', 'in 30 minutes', 'now'). */
export function availabilityWords(at: Date, now: Date): string {
  const ms = at.getTime() - now.getTime();
  if (ms <= 0) return 'now';
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `in ${hours} hour${hours === 1 ? '' : 's'}`;
  const days = Math.floor(hours / 24);
  return `in ${days} day${days === 1 ? '' : 's'}`;
}

/**
 * Revenue share: the sales a publisher reports (CSV with the header sale_id,promo_code,amount_minor,
 * currency), each credited once to the creator whose promo code it used, at the campaign's percent.
 */
export const recordSalesBodySchema = z.object({ csv: z.string().min(1, 'The file is empty').max(2_000_000, 'Report at most 2 MB of sales at once') });
export const recordSalesResultSchema = z.object({
  /** Sales credited now. */
  credited: z.number().int(),
  /** Sales reported before (the same sale_id): not credited again. */
  alreadyCredited: z.number().int(),
  /** The creators' share of the sales credited now, per currency, in minor units. */
  shares: z.array(z.object({ currency: z.string(), amount: z.number().int() })),
});
export type RecordSalesResult = z.infer<typeof recordSalesResultSchema>;
