import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { channelIdParamsSchema } from '../partner/channels.ts';
import { createUploadQuerySchema, uploadSchema } from '../uploads/index.ts';

/**
 * The creator site (partner spec §1, §2 'Creator Site', §6 Creator Site group): a public page per
 * creator at `/c/{username}`, made of blocks the creator arranges: about, schedule, social links, live status, pictures (through the uploads
 * store), a tip button (to the creator's tip page, shown while tips are taken) and the promo codes
 * of the creator's running campaigns.
 */

export const SITE_TEXT_MAX = 64;
export const SITE_ABOUT_MAX = 2000;
export const SITE_BLOCKS_MAX = 20;

export const siteBlockKinds = ['about', 'schedule', 'socialLinks', 'liveStatus', 'image', 'tipButton', 'promoCodes'] as const;
export type SiteBlockKind = (typeof siteBlockKinds)[number];
export const siteBlockLabels: Record<SiteBlockKind, string> = {
  about: 'About',
  schedule: 'Schedule',
  socialLinks: 'Social links',
  liveStatus: 'Live status and stream',
  image: 'Picture',
  tipButton: 'Tip button',
  promoCodes: 'Campaign promo codes',
};

/** Pictures of the site (§5 upload rules): the types accepted, as the editor shows them, and the largest file. */
export const SITE_IMAGE_TYPES = 'PNG, JPEG, WebP or GIF';
export const SITE_IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif';

const required = 'This field is required';
const title = z
  .string()
  .trim()
  .max(SITE_TEXT_MAX, `Keep the text under ${SITE_TEXT_MAX + 1} characters`);

export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const weekdayLabels: Record<(typeof weekdays)[number], string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** Spec §9 main platforms, as the social links offer them. */
export const socialPlatforms = ['Twitch', 'YouTube', 'X', 'TikTok', 'Instagram', 'Other'] as const;

const blockId = z.uuid();

export const siteBlockSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('about'),
    id: blockId,
    title,
    text: z
      .string()
      .trim()
      .min(1, required)
      .max(SITE_ABOUT_MAX, `Keep the text under ${SITE_ABOUT_MAX + 1} characters`),
  }),
  z.strictObject({
    kind: z.literal('schedule'),
    id: blockId,
    title,
    entries: z
      .array(
        z.strictObject({
          day: z.enum(weekdays),
          time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time such as 18:30'),
          what: z.string().trim().min(1, required).max(SITE_TEXT_MAX),
        }),
      )
      .max(21),
    /** IANA time zone the times are in. */
    timeZone: z
      .string()
      .min(1)
      .max(64)
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, 'Choose a time zone'),
  }),
  z.strictObject({
    kind: z.literal('socialLinks'),
    id: blockId,
    title,
    links: z
      .array(z.strictObject({ platform: z.enum(socialPlatforms), url: z.url({ protocol: /^https$/, message: 'Enter an https address' }).max(2048) }))
      .max(12),
  }),
  z.strictObject({
    kind: z.literal('liveStatus'),
    id: blockId,
    title,
    /** The Twitch channel whose player is embedded while the creator is live (empty: no player). */
    twitchChannel: z.union([z.literal(''), z.string().regex(/^[A-Za-z0-9_]{3,25}$/, 'Enter a valid Twitch username')]),
  }),
  z.strictObject({
    kind: z.literal('image'),
    id: blockId,
    title,
    /** An upload of this channel (purpose `site`); null until the creator uploads one. */
    uploadId: z.uuid().nullable(),
    /** Words for visitors who cannot see the picture. */
    alt: z.string().trim().max(200, 'Keep the description under 201 characters'),
    /** A banner spans the page's width; a picture keeps its size up to it. */
    style: z.enum(['banner', 'picture']),
  }),
  z.strictObject({
    kind: z.literal('tipButton'),
    id: blockId,
    title,
    /** The button's words; it opens the creator's tip page. Shown only while the creator takes tips. */
    label: z
      .string()
      .trim()
      .min(1, required)
      .max(SITE_TEXT_MAX, `Keep the text under ${SITE_TEXT_MAX + 1} characters`),
  }),
  /** The promo codes of the creator's running campaigns (accepted or claimed), read when the page is drawn. */
  z.strictObject({ kind: z.literal('promoCodes'), id: blockId, title }),
]);
export type SiteBlock = z.infer<typeof siteBlockSchema>;

export const creatorSiteContentSchema = z.strictObject({
  /** A site not published answers 404 to visitors. */
  published: z.boolean(),
  headline: title,
  blocks: z
    .array(siteBlockSchema)
    .max(SITE_BLOCKS_MAX)
    .refine((bs) => new Set(bs.map((b) => b.id)).size === bs.length, 'Two blocks have the same id'),
});
export type CreatorSiteContent = z.infer<typeof creatorSiteContentSchema>;

/** A promo code as the site shows it: the code, its discount, the game, and where to buy it. */
export const sitePromoCodeSchema = z.object({
  code: z.string(),
  discountPercent: z.number().int(),
  game: z.string(),
  campaignName: z.string(),
  /** The creator's tracked link to the store (counts clicks), the store page itself, or null. */
  storeUrl: z.string().nullable(),
});
export type SitePromoCode = z.infer<typeof sitePromoCodeSchema>;

export const creatorSiteSchema = creatorSiteContentSchema.extend({
  /** The public address, or null while the channel has no username (Get Started sets one). */
  url: z.url().nullable(),
  updatedAt: z.iso.datetime().nullable(),
  /** The largest picture accepted, in bytes (the editor shows it in MB). */
  maxImageBytes: z.number().int().positive(),
  /** The site's pictures by upload id: name, size, and the public address (null while the channel has no username). */
  images: z.record(z.uuid(), z.object({ name: z.string(), width: z.number().int(), height: z.number().int(), url: z.string().nullable() })),
  /** Whether visitors see the tip button now, why not, and the tip page it opens. */
  tips: z.object({ available: z.boolean(), unavailableReason: z.string().nullable(), url: z.url() }),
  /** What the promo codes block shows now (the creator's running campaigns). */
  promoCodes: z.array(sitePromoCodeSchema),
});
export type CreatorSite = z.infer<typeof creatorSiteSchema>;

export function newSiteBlock(kind: SiteBlockKind, id: string): SiteBlock {
  switch (kind) {
    case 'about':
      return { kind, id, title: 'About me', text: 'Tell visitors who you are and what you stream.' };
    case 'schedule':
      return { kind, id, title: 'Schedule', entries: [], timeZone: 'UTC' };
    case 'socialLinks':
      return { kind, id, title: 'Find me elsewhere', links: [] };
    case 'liveStatus':
      return { kind, id, title: 'Live now', twitchChannel: '' };
    case 'image':
      return { kind, id, title: '', uploadId: null, alt: '', style: 'banner' };
    case 'tipButton':
      return { kind, id, title: 'Support the stream', label: 'Send a tip' };
    case 'promoCodes':
      return { kind, id, title: 'Deals from my sponsors' };
  }
}

/** A creator's tip page (control UI), which the tip button opens. */
export const TIP_PAGE_PATH = '/tip/:creatorId';
export function tipPagePath(creatorId: string): string {
  return TIP_PAGE_PATH.replace(':creatorId', encodeURIComponent(creatorId));
}

/** The public page of a creator (by the username of their partner profile). */
export const CREATOR_SITE_PATH = '/c/:username';
/** A picture of a published site, for its visitors (no session). */
export const CREATOR_SITE_IMAGE_PATH = '/c/:username/images/:uploadId';

export function creatorSiteImagePath(username: string, uploadId: string): string {
  return CREATOR_SITE_IMAGE_PATH.replace(':username', encodeURIComponent(username)).replace(':uploadId', uploadId);
}

const tag = 'creator-site';

export const getCreatorSiteEndpoint = defineEndpoint({
  id: 'getCreatorSite',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/site',
  summary: "The channel's creator site as saved (an empty, unpublished one until the first save).",
  tag,
  access: 'user',
  channelCapability: 'edit creator site',
  params: channelIdParamsSchema,
  response: creatorSiteSchema,
});

export const updateCreatorSiteEndpoint = defineEndpoint({
  id: 'updateCreatorSite',
  method: 'put',
  path: '/api/v1/partner/channels/:channelId/site',
  summary: "Replaces the channel's creator site: whether it is published, its headline and blocks in order.",
  tag,
  access: 'user',
  channelCapability: 'edit creator site',
  params: channelIdParamsSchema,
  body: creatorSiteContentSchema,
  response: creatorSiteSchema,
});

/**
 * A picture for the site, as the raw request body (type detected from the bytes, Content-Length
 * checked against the limit and the owner's storage before a byte is read).
 */
export const uploadSiteImageEndpoint = defineEndpoint({
  id: 'uploadCreatorSiteImage',
  method: 'post',
  path: '/api/v1/partner/channels/:channelId/site/images',
  summary: `Upload a picture (${SITE_IMAGE_TYPES}) for the creator site as the raw request body.`,
  tag,
  access: 'user',
  channelCapability: 'edit creator site',
  params: channelIdParamsSchema,
  query: createUploadQuerySchema.pick({ name: true }),
  response: uploadSchema,
  successStatus: 201,
});

export const creatorSiteEndpoints = [getCreatorSiteEndpoint, updateCreatorSiteEndpoint, uploadSiteImageEndpoint] as const;
