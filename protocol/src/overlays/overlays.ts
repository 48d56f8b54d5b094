import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { channelIdParamsSchema } from '../partner/channels.ts';
import { createUploadQuerySchema, uploadSchema } from '../uploads/index.ts';
import { checkUrlTarget } from '../address-policy.ts';
import { ALERT_DURATION_MAX_MS, ALERT_DURATION_MIN_MS, alertEventTypes, type AlertEventType } from '../events/alerts.ts';

/**
 * Overlays (partner spec §1 "Overlays and a creator site", §2 'Overlay', §6 Overlay group and
 * trigger access): a creator's pages of widgets placed on the 1280×720 canvas of the studio,
 * rendered on a transparent background at a secret address (a browser source in OBS, a web-page
 * source in the OnAir studio) and updated live over a WebSocket.
 */

/** The studio's canvas: widget positions are in its coordinates, whatever size the page is shown at. */
export const OVERLAY_CANVAS = { width: 1280, height: 720 } as const;
/** Spec §9: text fields of 64 characters, messages of at most 480. */
export const OVERLAY_TEXT_MAX = 64;
export const OVERLAY_MESSAGE_MAX = 480;
export const OVERLAY_WIDGETS_MAX = 30;
export const OVERLAYS_PER_CHANNEL_MAX = 50;
/** Trigger access whitelist: usernames always allowed (spec §6 "excluding a whitelist"). */
export const TRIGGER_WHITELIST_MAX = 100;

export const widgetKinds = ['alertBox', 'recentEvents', 'chatBox', 'goalBar', 'text', 'image', 'timer', 'sponsor'] as const;
export type WidgetKind = (typeof widgetKinds)[number];

export const widgetKindLabels: Record<WidgetKind, string> = {
  alertBox: 'Alert box',
  recentEvents: 'Recent events',
  chatBox: 'Chat box',
  goalBar: 'Goal bar',
  text: 'Text',
  image: 'Image',
  timer: 'Timer',
  sponsor: 'Sponsor',
};

const shortText = z
  .string()
  .trim()
  .max(OVERLAY_TEXT_MAX, `Keep the text under ${OVERLAY_TEXT_MAX + 1} characters`);
const messageText = z
  .string()
  .trim()
  .min(1, 'This field is required')
  .max(OVERLAY_MESSAGE_MAX, `Keep the message under ${OVERLAY_MESSAGE_MAX + 1} characters`);
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour such as #ffffff');

/** Where a widget sits on the canvas; it must fit on it. */
const placement = {
  id: z.uuid(),
  x: z
    .number()
    .int()
    .min(0)
    .max(OVERLAY_CANVAS.width - 16),
  y: z
    .number()
    .int()
    .min(0)
    .max(OVERLAY_CANVAS.height - 16),
  width: z.number().int().min(16).max(OVERLAY_CANVAS.width),
  height: z.number().int().min(16).max(OVERLAY_CANVAS.height),
};
const style = { color, fontSize: z.number().int().min(10).max(96) };

/** An alert box's template of one event type (partner spec §3 "Alert": event, message, enabled; the alert variables). */
export const alertTemplateSchema = z.strictObject({ enabled: z.boolean(), message: messageText });
export type AlertTemplate = z.infer<typeof alertTemplateSchema>;

const alertTemplates = z.strictObject(
  Object.fromEntries(alertEventTypes.map((t) => [t, alertTemplateSchema])) as Record<AlertEventType, typeof alertTemplateSchema>,
);

/** An image address: http(s) and not a private, loopback or link-local one (the render worker would refuse it too). */
export const overlayImageUrlSchema = z
  .url({ protocol: /^https?$/, message: 'Enter an http or https address' })
  .max(2048)
  .superRefine((url, ctx) => {
    const check = checkUrlTarget(url);
    if (!check.ok && check.code !== 'invalid-url' && check.code !== 'scheme-not-allowed')
      ctx.addIssue({ code: 'custom', message: `This image cannot be shown: ${check.reason}.` });
  });

/** 'charity': donations to the channel's active charity campaign (Settings › Integrations), in the goal's currency (issue 40). */
export const goalMetrics = ['followers', 'subs', 'tips', 'charity'] as const;
export type GoalMetric = (typeof goalMetrics)[number];
export const goalMetricLabels: Record<GoalMetric, string> = { followers: 'Followers', subs: 'Subscribers', tips: 'Tips', charity: 'Charity campaign' };
/** Goals counted in money (minor units of the goal's currency). */
export const moneyGoalMetrics: readonly GoalMetric[] = ['tips', 'charity'];

const alertBoxSchema = z.strictObject({
  kind: z.literal('alertBox'),
  ...placement,
  ...style,
  durationMs: z.number().int().min(ALERT_DURATION_MIN_MS).max(ALERT_DURATION_MAX_MS),
  alerts: alertTemplates,
});
const recentEventsSchema = z.strictObject({
  kind: z.literal('recentEvents'),
  ...placement,
  ...style,
  title: shortText,
  types: z.array(z.enum(alertEventTypes)).min(1).max(alertEventTypes.length),
  count: z.number().int().min(1).max(10),
});
const chatBoxSchema = z.strictObject({
  kind: z.literal('chatBox'),
  ...placement,
  ...style,
  count: z.number().int().min(1).max(20),
});
const goalBarSchema = z.strictObject({
  kind: z.literal('goalBar'),
  ...placement,
  ...style,
  title: shortText,
  metric: z.enum(goalMetrics),
  /** Followers or subs to reach, or an amount of tips or charity donations in minor units of `currency`. */
  target: z.number().int().min(1).max(1_000_000_000),
  /** ISO 4217; tips and donations only count in this currency. */
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** Events from this moment on count towards the goal. */
  since: z.iso.datetime(),
  barColor: color,
});
const textSchema = z.strictObject({
  kind: z.literal('text'),
  ...placement,
  ...style,
  text: messageText,
});
const imageSchema = z
  .strictObject({
    kind: z.literal('image'),
    ...placement,
    /** An address on the web; empty when the picture is an upload. */
    url: z.union([z.literal(''), overlayImageUrlSchema]),
    /** A picture uploaded for the channel's overlays (purpose `overlay`), served under the overlay's own address; null for an address. */
    uploadId: z.uuid().nullable().default(null),
  })
  .superRefine((w, ctx) => {
    if (w.url === '' && w.uploadId === null) ctx.addIssue({ code: 'custom', path: ['url'], message: 'Enter an image address or upload a picture' });
    if (w.url !== '' && w.uploadId !== null) ctx.addIssue({ code: 'custom', path: ['url'], message: 'Use an address or an uploaded picture, not both' });
  });
const timerSchema = z.strictObject({
  kind: z.literal('timer'),
  ...placement,
  ...style,
  label: shortText,
  /** countdown: the time left until `at`; stopwatch: the time since `at`. */
  mode: z.enum(['countdown', 'stopwatch']),
  at: z.iso.datetime(),
});

/**
 * A sponsor (issue 40 item 2): one of the creator's campaigns (accepted or claimed) with their promo
 * code and tracked link. Each time an overlay page draws it, it counts one impression for the
 * campaign in Statistics › Sponsorships.
 */
const sponsorSchema = z.strictObject({
  kind: z.literal('sponsor'),
  ...placement,
  ...style,
  label: shortText,
  /** The campaign shown; null until the creator chooses one (nothing is shown). */
  campaignId: z.uuid('Choose one of your campaigns').nullable(),
});

export const widgetSchema = z.discriminatedUnion('kind', [
  alertBoxSchema,
  recentEventsSchema,
  chatBoxSchema,
  goalBarSchema,
  textSchema,
  imageSchema,
  timerSchema,
  sponsorSchema,
]);
export type Widget = z.infer<typeof widgetSchema>;
export type WidgetOf<K extends WidgetKind> = Extract<Widget, { kind: K }>;

/**
 * Spec §6 overlay trigger access: who among the viewers may put something on the overlay (its chat
 * box shows their messages): all, subscribers only, or none — the whitelist's users always may.
 */
export const triggerAccessModes = ['all', 'subscribers', 'none'] as const;
export type TriggerAccessMode = (typeof triggerAccessModes)[number];
export const triggerAccessLabels: Record<TriggerAccessMode, string> = { all: 'All', subscribers: 'Subscribers', none: 'None' };
export const triggerAccessSchema = z.strictObject({
  mode: z.enum(triggerAccessModes),
  whitelist: z.array(z.string().trim().min(1).max(42)).max(TRIGGER_WHITELIST_MAX),
});
export type TriggerAccess = z.infer<typeof triggerAccessSchema>;

/** Whether a viewer may trigger the overlay's viewer-triggered widgets. */
export function triggerAllowed(access: TriggerAccess, viewer: { username: string; subscriber: boolean }): boolean {
  const name = viewer.username.toLowerCase();
  if (access.whitelist.some((w) => w.toLowerCase() === name)) return true;
  if (access.mode === 'all') return true;
  if (access.mode === 'subscribers') return viewer.subscriber;
  return false;
}

export const overlayNameSchema = z
  .string()
  .trim()
  .min(1, 'This field is required')
  .max(OVERLAY_TEXT_MAX, `Keep the text under ${OVERLAY_TEXT_MAX + 1} characters`);

export const overlayContentSchema = z.strictObject({
  name: overlayNameSchema,
  widgets: z
    .array(widgetSchema)
    .max(OVERLAY_WIDGETS_MAX, `An overlay holds at most ${OVERLAY_WIDGETS_MAX} widgets`)
    .refine((ws) => new Set(ws.map((w) => w.id)).size === ws.length, 'Two widgets have the same id'),
  triggerAccess: triggerAccessSchema,
});
export type OverlayContent = z.infer<typeof overlayContentSchema>;

export const overlaySchema = overlayContentSchema.extend({
  id: z.uuid(),
  channelId: z.string(),
  /** The secret address that renders the overlay (OBS); rotating the secret ends the old one. */
  url: z.url(),
  /** The same address signed for the OnAir studio's render worker (a web-page source). */
  studioUrl: z.url(),
  updatedAt: z.iso.datetime(),
  /** The overlay's uploaded pictures by upload id (the image widgets that name one). */
  images: z.record(z.uuid(), z.object({ name: z.string(), width: z.number().int(), height: z.number().int() })),
  /** The largest picture accepted, in bytes (the editor shows it in MB). */
  maxImageBytes: z.number().int().positive(),
});
export type Overlay = z.infer<typeof overlaySchema>;

export const overlaySummarySchema = overlaySchema.pick({ id: true, name: true, updatedAt: true }).extend({ widgetCount: z.number().int() });
export type OverlaySummary = z.infer<typeof overlaySummarySchema>;

const DEFAULT_ALERT_MESSAGES: Record<AlertEventType, string> = {
  follow: '{follower} just followed!',
  sub: '{subscriber} just subscribed!',
  resub: '{subscriber} resubscribed for {months} months!',
  twitchRaid: '{raider} is raiding with {viewers} viewers!',
  twitchCheer: '{cheerer} cheered {bits} bits!',
  tip: '{tipper} tipped {amount}!',
  charity: '{donor} donated {amount} to {charity}!',
};

/** A new widget of a kind, in the middle of the canvas, with settings a creator can start from. */
export function newWidget(kind: WidgetKind, id: string, now: Date = new Date()): Widget {
  const at = (width: number, height: number) => ({
    id,
    x: Math.round((OVERLAY_CANVAS.width - width) / 2),
    y: Math.round((OVERLAY_CANVAS.height - height) / 2),
    width,
    height,
  });
  const base = { color: '#ffffff', fontSize: 28 };
  switch (kind) {
    case 'alertBox':
      return {
        kind,
        ...at(640, 160),
        ...base,
        fontSize: 36,
        durationMs: 5000,
        alerts: Object.fromEntries(alertEventTypes.map((t) => [t, { enabled: true, message: DEFAULT_ALERT_MESSAGES[t] }])) as Record<
          AlertEventType,
          AlertTemplate
        >,
      };
    case 'recentEvents':
      return { kind, ...at(360, 240), ...base, fontSize: 22, title: 'Recent events', types: [...alertEventTypes], count: 5 };
    case 'chatBox':
      return { kind, ...at(400, 320), ...base, fontSize: 22, count: 8 };
    case 'goalBar':
      return {
        kind,
        ...at(600, 80),
        ...base,
        fontSize: 24,
        title: 'Follower goal',
        metric: 'followers',
        target: 100,
        currency: 'USD',
        since: now.toISOString(),
        barColor: '#6d7cff',
      };
    case 'text':
      return { kind, ...at(400, 80), ...base, text: 'Welcome to the stream!' };
    case 'image':
      return { kind, ...at(240, 240), url: 'https://example.com/logo.png', uploadId: null };
    case 'timer':
      return {
        kind,
        ...at(240, 100),
        ...base,
        fontSize: 40,
        label: 'Starting soon',
        mode: 'countdown',
        at: new Date(now.getTime() + 10 * 60_000).toISOString(),
      };
    case 'sponsor':
      return { kind, ...at(420, 90), ...base, fontSize: 22, label: 'Sponsored by', campaignId: null };
  }
}

export const overlayIdParamsSchema = channelIdParamsSchema.extend({ overlayId: z.uuid() });

const tag = 'overlays';

export const listOverlaysEndpoint = defineEndpoint({
  id: 'listOverlays',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/overlays',
  summary: "The channel's overlays, newest change first.",
  tag,
  access: 'user',
  channelCapability: 'view overlays',
  params: channelIdParamsSchema,
  response: z.object({ overlays: z.array(overlaySummarySchema) }),
});

export const createOverlayEndpoint = defineEndpoint({
  id: 'createOverlay',
  method: 'post',
  path: '/api/v1/partner/channels/:channelId/overlays',
  summary: 'A new, empty overlay with its secret address.',
  tag,
  access: 'user',
  channelCapability: 'edit overlays',
  params: channelIdParamsSchema,
  body: z.strictObject({ name: overlayNameSchema }),
  response: overlaySchema,
  successStatus: 201,
});

export const getOverlayEndpoint = defineEndpoint({
  id: 'getOverlay',
  method: 'get',
  path: '/api/v1/partner/channels/:channelId/overlays/:overlayId',
  summary: 'An overlay: its widgets on the canvas, trigger access and addresses.',
  tag,
  access: 'user',
  channelCapability: 'view overlays',
  params: overlayIdParamsSchema,
  response: overlaySchema,
});

export const updateOverlayEndpoint = defineEndpoint({
  id: 'updateOverlay',
  method: 'put',
  path: '/api/v1/partner/channels/:channelId/overlays/:overlayId',
  summary: 'Replaces an overlay’s name, widgets and trigger access; open overlay pages change at once.',
  tag,
  access: 'user',
  channelCapability: 'edit overlays',
  params: overlayIdParamsSchema,
  body: overlayContentSchema,
  response: overlaySchema,
});

export const deleteOverlayEndpoint = defineEndpoint({
  id: 'deleteOverlay',
  method: 'delete',
  path: '/api/v1/partner/channels/:channelId/overlays/:overlayId',
  summary: 'Deletes an overlay; its open pages go blank.',
  tag,
  access: 'user',
  channelCapability: 'edit overlays',
  params: overlayIdParamsSchema,
  response: z.object({ deleted: z.literal(true) }),
});

export const rotateOverlaySecretEndpoint = defineEndpoint({
  id: 'rotateOverlaySecret',
  method: 'post',
  path: '/api/v1/partner/channels/:channelId/overlays/:overlayId/secret',
  summary: 'A new secret address for the overlay; the old address stops working at once.',
  tag,
  access: 'user',
  channelCapability: 'edit overlays',
  params: overlayIdParamsSchema,
  response: overlaySchema,
});

/**
 * A picture for the channel's image widgets, as the raw request body, through the uploads store
 * (partner spec §5 media upload: the same types and largest size as the creator site's pictures;
 * type detected from the bytes, Content-Length checked against the limit and the owner's storage
 * before a byte is read). It shows once an image widget of a saved overlay names it.
 */
export const uploadOverlayImageEndpoint = defineEndpoint({
  id: 'uploadOverlayImage',
  method: 'post',
  path: '/api/v1/partner/channels/:channelId/overlay-images',
  summary: 'Upload a picture (PNG, JPEG, WebP or GIF) for image widgets as the raw request body.',
  tag,
  access: 'user',
  channelCapability: 'edit overlays',
  params: channelIdParamsSchema,
  query: createUploadQuerySchema.pick({ name: true }),
  response: uploadSchema,
  successStatus: 201,
});

export const overlayEndpoints = [
  listOverlaysEndpoint,
  createOverlayEndpoint,
  getOverlayEndpoint,
  updateOverlayEndpoint,
  deleteOverlayEndpoint,
  rotateOverlaySecretEndpoint,
  uploadOverlayImageEndpoint,
] as const;

/** Where an overlay page is served; `/ws` under it is its live feed. Both need the overlay's key. */
export const OVERLAY_PAGE_PATH = '/overlay/o/:overlayId';
/** An uploaded picture of an overlay's image widget, under the page's own path: the same key (and, for the studio, the same signature) opens it. */
export const OVERLAY_IMAGE_PATH = '/overlay/o/:overlayId/images/:uploadId';

/** What the overlay page shows of an event (recent events list) and of a chat message (chat box): plain text only. */
export const overlayEventSchema = z.object({ id: z.string(), type: z.string(), username: z.string(), text: z.string() });
export type OverlayEvent = z.infer<typeof overlayEventSchema>;
export const overlayChatSchema = z.object({ id: z.string(), username: z.string(), text: z.string() });
export type OverlayChat = z.infer<typeof overlayChatSchema>;

/** What a sponsor widget shows: the campaign's game, the creator's newest promo code, the tracked link and its impression pixel. */
export const overlaySponsorSchema = z.object({
  campaignName: z.string(),
  game: z.string(),
  code: z.string().nullable(),
  discountPercent: z.number().int().nullable(),
  /** The tracked link (counts clicks), as shown to viewers. */
  link: z.string().nullable(),
  /** The impression pixel's path on the api (counts a view when the page draws the widget). */
  impressionPath: z.string().nullable(),
});
export type OverlaySponsor = z.infer<typeof overlaySponsorSchema>;

/** The overlay page's live feed (server → page); every text in it is shown as text. */
export const overlayFeedMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('overlay.state'),
    widgets: z.array(widgetSchema),
    /** Goal bar id → progress (followers, subs, or tips in minor units). */
    goals: z.record(z.string(), z.number()),
    events: z.array(overlayEventSchema),
    chat: z.array(overlayChatSchema),
    /** Sponsor widget id → what it shows; a widget whose campaign the creator no longer takes part in is absent. */
    sponsors: z.record(z.string(), overlaySponsorSchema),
  }),
  z.object({
    type: z.literal('overlay.alert'),
    widgetId: z.string(),
    alert: z.object({ id: z.string(), type: z.string(), text: z.string(), durationMs: z.number() }),
  }),
  z.object({ type: z.literal('overlay.events'), events: z.array(overlayEventSchema) }),
  z.object({ type: z.literal('overlay.chat'), messages: z.array(overlayChatSchema) }),
  z.object({ type: z.literal('overlay.goals'), goals: z.record(z.string(), z.number()) }),
  /** The overlay was deleted or its secret rotated: the page goes blank. */
  z.object({ type: z.literal('overlay.closed') }),
]);
export type OverlayFeedMessage = z.infer<typeof overlayFeedMessageSchema>;

/** Redis channel on which an overlay's changes are announced to every replica's open pages. */
export const overlayChannels = {
  overlay: (overlayId: string) => `onair:overlays:${overlayId}`,
} as const;
