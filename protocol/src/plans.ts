import { z } from 'zod';

/** The four plans of the spec (§1, §6); account roles equal plan ids. */
export const planIds = ['Free', 'Premium', 'VIP', 'Legacy'] as const;
export const planIdSchema = z.enum(planIds);
export type PlanId = z.infer<typeof planIdSchema>;

/** Legacy is sold as "Classic" (spec §3). */
export const planDisplayNames: Record<PlanId, string> = { Free: 'Free', Premium: 'Premium', VIP: 'VIP', Legacy: 'Classic' };

/**
 * Entitlement keys of spec §3, plus `maximum-scenes`: the spec states the scene limits per plan
 * (Free 3, Premium and VIP 20) but lists no key for them, and every plan check must read
 * entitlements rather than plan names, so OnAir carries the limit as one more entitlement.
 */
export const entitlementKeys = [
  'can-go-live',
  'can-use-product',
  'custom-backgrounds',
  'custom-destinations',
  'custom-logo',
  'custom-starting-ending-and-be-back-screens',
  'maximum-destinations',
  'maximum-guests',
  '1080p30fps',
  '720p30fps',
  '3rd-party-integrations',
  'maximum-scenes',
  'recording',
  'recording-retention-days',
] as const;
export const entitlementKeySchema = z.enum(entitlementKeys);
export type EntitlementKey = z.infer<typeof entitlementKeySchema>;

/** Feature id → value as the billing provider sends it ("true", "Unlimited" or a number as a string). */
export const entitlementsSchema = z.partialRecord(entitlementKeySchema, z.string());
export type Entitlements = z.infer<typeof entitlementsSchema>;

/** Flags are on only for the exact string "true" (spec §6). */
export function isEnabled(entitlements: Entitlements, key: EntitlementKey): boolean {
  return entitlements[key] === 'true';
}

/** A numeric limit: "Unlimited" is Infinity, absent or unreadable falls back to `fallback`. */
function limit(entitlements: Entitlements, key: EntitlementKey, fallback: number): number {
  const value = entitlements[key];
  if (value === undefined) return fallback;
  if (value === 'Unlimited') return Number.POSITIVE_INFINITY;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;
}

export const DEFAULT_MAXIMUM_DESTINATIONS = 2;
export const FREE_MAXIMUM_SCENES = 3;
export const PAID_MAXIMUM_SCENES = 20;

export function maximumDestinations(entitlements: Entitlements): number {
  return limit(entitlements, 'maximum-destinations', DEFAULT_MAXIMUM_DESTINATIONS);
}

/** Without the entitlement a user gets the Free limit: the safe side of an unknown plan. */
export function maximumScenes(entitlements: Entitlements): number {
  return limit(entitlements, 'maximum-scenes', FREE_MAXIMUM_SCENES);
}

/** Spec §6: Premium and VIP invite up to 10 guests; without the entitlement (Free) a host has none. */
export function maximumGuestsOf(entitlements: Entitlements): number {
  return limit(entitlements, 'maximum-guests', 0);
}

/** Issue 19: `recording` lets a creator record a broadcast; `recording-retention-days` how long it is kept. */
export function canRecord(entitlements: Entitlements): boolean {
  return isEnabled(entitlements, 'recording');
}

/** Days a recording is kept before the retention job deletes it; 0 without the entitlement. */
export function recordingRetentionDays(entitlements: Entitlements): number {
  return limit(entitlements, 'recording-retention-days', 0);
}

/** Free streams always carry the OnAir logo; `custom-logo` lets a creator hide or replace it. */
export function canHideOrReplaceLogo(entitlements: Entitlements): boolean {
  return isEnabled(entitlements, 'custom-logo');
}

// ─── Resolutions (spec §9) ───

export const resolutionIds = ['480p', '720p', '1080p'] as const;
export const resolutionIdSchema = z.enum(resolutionIds);
export type ResolutionId = z.infer<typeof resolutionIdSchema>;

export interface Resolution {
  id: ResolutionId;
  width: number;
  height: number;
  fps: 30;
  /** The entitlement that unlocks it; 480p needs none. */
  entitlement: EntitlementKey | null;
}

export const resolutions: Record<ResolutionId, Resolution> = {
  '480p': { id: '480p', width: 854, height: 480, fps: 30, entitlement: null },
  '720p': { id: '720p', width: 1280, height: 720, fps: 30, entitlement: '720p30fps' },
  '1080p': { id: '1080p', width: 1920, height: 1080, fps: 30, entitlement: '1080p30fps' },
};

export function isResolutionAllowed(entitlements: Entitlements, id: ResolutionId): boolean {
  const needed = resolutions[id].entitlement;
  return needed === null || isEnabled(entitlements, needed);
}

/** The resolution a new project starts at: 1080p when the plan has it, else 720p, else 480p (spec §9: Free 1280x720, others 1920x1080). */
export function defaultResolutionFor(entitlements: Entitlements): ResolutionId {
  if (isResolutionAllowed(entitlements, '1080p')) return '1080p';
  if (isResolutionAllowed(entitlements, '720p')) return '720p';
  return '480p';
}

/** One row of the resolution selector: every resolution, with why it is locked. */
export const resolutionOptionSchema = z.object({
  id: resolutionIdSchema,
  width: z.number().int(),
  height: z.number().int(),
  fps: z.literal(30),
  available: z.boolean(),
  /** The upgrade tooltip of spec §8 ('Stream at {resolution}') when locked. */
  upgradeTooltip: z.string().nullable(),
});
export type ResolutionOption = z.infer<typeof resolutionOptionSchema>;

export function resolutionOptions(entitlements: Entitlements): ResolutionOption[] {
  return resolutionIds.map((id) => {
    const r = resolutions[id];
    const available = isResolutionAllowed(entitlements, id);
    return { id, width: r.width, height: r.height, fps: r.fps, available, upgradeTooltip: available ? null : `Stream at ${id}` };
  });
}

// ─── What each plan grants ───

/**
 * The entitlements each plan grants (spec §6): Free streams with the logo at 480p or 720p with up
 * to 3 scenes; Premium and VIP remove or replace the logo, use their own backgrounds and browser
 * integrations, stream up to 1080p and keep up to 20 scenes. The spec says only that Legacy is not
 * Free for resolution (§9 "others 1920x1080"), so it gets 1080p and otherwise the Free limits.
 * Recording (issue 19; the spec names no key for it) is a paid feature: Premium keeps recordings
 * 30 days, VIP 90.
 */
export const planEntitlements: Record<PlanId, Entitlements> = {
  Free: {
    'can-go-live': 'true',
    'can-use-product': 'true',
    '720p30fps': 'true',
    'maximum-destinations': String(DEFAULT_MAXIMUM_DESTINATIONS),
    'maximum-scenes': String(FREE_MAXIMUM_SCENES),
  },
  Premium: {
    'can-go-live': 'true',
    'can-use-product': 'true',
    'custom-backgrounds': 'true',
    'custom-destinations': 'true',
    'custom-logo': 'true',
    'custom-starting-ending-and-be-back-screens': 'true',
    'maximum-destinations': 'Unlimited',
    'maximum-guests': '10',
    '720p30fps': 'true',
    '1080p30fps': 'true',
    '3rd-party-integrations': 'true',
    'maximum-scenes': String(PAID_MAXIMUM_SCENES),
    recording: 'true',
    'recording-retention-days': '30',
  },
  VIP: {
    'can-go-live': 'true',
    'can-use-product': 'true',
    'custom-backgrounds': 'true',
    'custom-destinations': 'true',
    'custom-logo': 'true',
    'custom-starting-ending-and-be-back-screens': 'true',
    'maximum-destinations': 'Unlimited',
    'maximum-guests': '10',
    '720p30fps': 'true',
    '1080p30fps': 'true',
    '3rd-party-integrations': 'true',
    'maximum-scenes': String(PAID_MAXIMUM_SCENES),
    recording: 'true',
    'recording-retention-days': '90',
  },
  Legacy: {
    'can-go-live': 'true',
    'can-use-product': 'true',
    'maximum-destinations': String(DEFAULT_MAXIMUM_DESTINATIONS),
    '720p30fps': 'true',
    '1080p30fps': 'true',
    'maximum-scenes': String(FREE_MAXIMUM_SCENES),
  },
};

// ─── Choosing the current subscription (spec §4) ───

export interface SubscriptionLike {
  status: string;
  planId: string;
  /** Price in minor units of the plan item; 0 for the free price. */
  priceAmount?: number;
  itemPriceId: string;
}

const IGNORED_STATUSES = new Set(['cancelled', 'paused', 'future']);
export const FREE_PRICE_ID = 'free-USD-Monthly';

/** Ignore cancelled, paused and future; the first with a non-free price item wins, else the first left. */
export function chooseCurrentSubscription<S extends SubscriptionLike>(subscriptions: readonly S[]): S | undefined {
  const remaining = subscriptions.filter((s) => !IGNORED_STATUSES.has(s.status));
  return remaining.find((s) => s.itemPriceId !== FREE_PRICE_ID) ?? remaining[0];
}

/** The role of a user: the plan of the current subscription, Free without one. */
export function roleOf(subscriptions: readonly SubscriptionLike[]): PlanId {
  const current = chooseCurrentSubscription(subscriptions);
  const parsed = planIdSchema.safeParse(current?.planId);
  return parsed.success ? parsed.data : 'Free';
}
