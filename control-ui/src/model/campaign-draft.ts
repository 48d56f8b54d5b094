// The admin portal's campaign form as plain data: what it shows of a saved campaign and what it
// sends (the server judges it with campaignInputSchema; this only shapes it).
import { businessModels, type CampaignInput, type CampaignStatus, type CampaignView, type KeyPlatform } from '@onair/protocol';

export interface Draft {
  name: string;
  kind: 'game-key' | 'revenue-share';
  status: CampaignStatus;
  summary: string;
  description: string;
  game: string;
  genre: string;
  developer: string;
  publisher: string;
  businessModel: string;
  platforms: KeyPlatform[];
  geo: string;
  requiresReview: boolean;
  revenueSharePercent: string;
  revenueShareEndsAt: string;
  promoMin: string;
  promoMax: string;
  minFollowers: string;
  minSubscribers: string;
  minTotalViews: string;
  minAverageViewers30d: string;
  minHoursStreamed30d: string;
  storeUrl: string;
  keysAvailableAt: string;
  expiresAt: string;
  resources: { title: string; url: string }[];
}

export const emptyDraft: Draft = {
  name: '',
  kind: 'game-key',
  status: 'active',
  summary: '',
  description: '',
  game: '',
  genre: '',
  developer: '',
  publisher: '',
  businessModel: '',
  platforms: ['Steam'],
  geo: '',
  requiresReview: true,
  revenueSharePercent: '',
  revenueShareEndsAt: '',
  promoMin: '',
  promoMax: '',
  minFollowers: '',
  minSubscribers: '',
  minTotalViews: '',
  minAverageViewers30d: '',
  minHoursStreamed30d: '',
  storeUrl: '',
  keysAvailableAt: '',
  expiresAt: '',
  resources: [],
};
const num = (s: string) => (s.trim() === '' ? null : Number(s));
const iso = (local: string) => (local ? new Date(local).toISOString() : null);
const text = (n: number | null) => (n === null ? '' : String(n));
/** An instant as the `datetime-local` field shows it: the browser's own time zone, to the minute. */
function local(instant: string | null): string {
  if (!instant) return '';
  const d = new Date(instant);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** What the form shows of a saved campaign. */
export function draftOf(c: CampaignView): Draft {
  const promo = c.promoDiscount;
  return {
    name: c.name,
    kind: c.kind,
    status: c.status,
    summary: c.summary,
    description: c.description,
    game: c.game,
    genre: c.genre,
    developer: c.developer,
    publisher: c.publisher,
    businessModel: c.businessModel ?? '',
    platforms: c.platforms,
    geo: c.geo.join(', '),
    requiresReview: c.requiresReview,
    revenueSharePercent: text(c.revenueSharePercent),
    revenueShareEndsAt: local(c.revenueShareEndsAt),
    promoMin: promo ? String(promo.kind === 'fixed' ? promo.percent : promo.minPercent) : '',
    promoMax: promo?.kind === 'range' ? String(promo.maxPercent) : '',
    minFollowers: text(c.requirements.minFollowers),
    minSubscribers: text(c.requirements.minSubscribers),
    minTotalViews: text(c.requirements.minTotalViews),
    minAverageViewers30d: text(c.requirements.minAverageViewers30d),
    minHoursStreamed30d: text(c.requirements.minHoursStreamed30d),
    storeUrl: c.storeUrl ?? '',
    keysAvailableAt: local(c.keysAvailableAt),
    expiresAt: local(c.expiresAt),
    resources: c.resources.map((r) => ({ ...r })),
  };
}

/** What the admin portal sends for a draft (the server judges it with campaignInputSchema). */
export function toInput(d: Draft): CampaignInput {
  const min = num(d.promoMin);
  const max = num(d.promoMax);
  return {
    name: d.name,
    kind: d.kind,
    status: d.status,
    summary: d.summary,
    description: d.description,
    game: d.game,
    genre: d.genre,
    developer: d.developer,
    publisher: d.publisher,
    businessModel: (businessModels as readonly string[]).includes(d.businessModel) ? (d.businessModel as (typeof businessModels)[number]) : null,
    platforms: d.kind === 'game-key' ? d.platforms : [],
    geo: d.geo
      .split(/[\s,]+/)
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean),
    requiresReview: d.requiresReview,
    revenueSharePercent: d.kind === 'revenue-share' ? num(d.revenueSharePercent) : null,
    revenueShareEndsAt: d.kind === 'revenue-share' ? iso(d.revenueShareEndsAt) : null,
    promoDiscount: min === null ? null : max === null || max === min ? { kind: 'fixed', percent: min } : { kind: 'range', minPercent: min, maxPercent: max },
    requirements: {
      minFollowers: num(d.minFollowers),
      minSubscribers: num(d.minSubscribers),
      minTotalViews: num(d.minTotalViews),
      minAverageViewers30d: num(d.minAverageViewers30d),
      minHoursStreamed30d: num(d.minHoursStreamed30d),
    },
    storeUrl: d.storeUrl.trim() || null,
    keysAvailableAt: iso(d.keysAvailableAt),
    expiresAt: iso(d.expiresAt),
    resources: d.resources.filter((r) => r.title.trim() !== '' || r.url.trim() !== ''),
  };
}
