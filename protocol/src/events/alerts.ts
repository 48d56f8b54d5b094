import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { projectIdParamsSchema } from '../http/projects.ts';
import type { LiveEvent } from './events.ts';

/**
 * On-screen alerts (issue 17, beyond the anchors; partner-network spec §3 "Alert": event, message,
 * enabled, with its variables): a new event of a type whose alert is on plays in the program —
 * a card with an image or a short animation, the message with the event's values, a sound — for
 * its duration, one alert after the other. The alerts overlay is a web page the render worker
 * renders as a transparent browser source over the whole canvas.
 */
export const alertEventTypes = ['follow', 'sub', 'resub', 'twitchRaid', 'twitchCheer', 'tip', 'charity'] as const;
export type AlertEventType = (typeof alertEventTypes)[number];
export const alertEventTypeSchema = z.enum(alertEventTypes);
/** Each alert type as a creator reads it. */
export const alertEventTypeNames: Record<AlertEventType, string> = {
  follow: 'Follow',
  sub: 'Subscription',
  resub: 'Resubscription',
  twitchRaid: 'Raid',
  twitchCheer: 'Cheer',
  tip: 'Tip',
  charity: 'Charity donation',
};

/** The colour of each alert type's card on the overlay pages (the events feed's colours, studio spec §9). */
export const alertEventColors: Record<AlertEventType, string> = {
  follow: '#E0457B',
  sub: '#9146FF',
  resub: '#6D5BD0',
  twitchRaid: '#E8891C',
  twitchCheer: '#13A89E',
  tip: '#2FA866',
  charity: '#E4572E',
};

/** The built-in sounds (Web Audio tones of the overlay page). */
export const alertSounds = ['chime', 'bell', 'none'] as const;
/** What an alert may sound: a built-in one, or `upload`: the creator's sound named by `soundUploadId` (an `alert-sound` upload). */
export const alertSoundChoices = [...alertSounds, 'upload'] as const;
export type AlertSound = (typeof alertSoundChoices)[number];
export const alertAnimations = ['pop', 'slide', 'none'] as const;

export const ALERT_DURATION_MIN_MS = 2000;
export const ALERT_DURATION_MAX_MS = 15_000;
export const ALERT_MESSAGE_MAX = 200;

export const alertSettingSchema = z.strictObject({
  enabled: z.boolean(),
  /** The text, with variables in braces: {follower}, {subscriber}, {months}, … (ALERT_VARIABLES). */
  message: z.string().trim().min(1).max(ALERT_MESSAGE_MAX),
  /** A picture shown with the text (http(s)); without one, the type's icon with `animation`. */
  imageUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable(),
  animation: z.enum(alertAnimations),
  sound: z.enum(alertSoundChoices),
  /** The uploaded sound played when `sound` is `upload`: one of the project's alert-sound uploads (settings saved before it existed have none). */
  soundUploadId: z.uuid().nullable().default(null),
  durationMs: z.number().int().min(ALERT_DURATION_MIN_MS).max(ALERT_DURATION_MAX_MS),
});
export type AlertSetting = z.infer<typeof alertSettingSchema>;

/** Whether a setting names the sound it plays (an uploaded sound needs its upload). */
export function alertSoundChosen(setting: Pick<AlertSetting, 'sound' | 'soundUploadId'>): boolean {
  return setting.sound !== 'upload' || setting.soundUploadId !== null;
}

export const alertSettingsSchema = z.strictObject(
  Object.fromEntries(alertEventTypes.map((t) => [t, alertSettingSchema])) as Record<AlertEventType, typeof alertSettingSchema>,
);
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

/** Partner spec §3 alert variables, by the type whose alerts may use them. */
export const ALERT_VARIABLES: Record<AlertEventType, readonly string[]> = {
  follow: ['follower'],
  sub: ['subscriber', 'gifter', 'recipient', 'count'],
  resub: ['subscriber', 'months', 'message'],
  twitchRaid: ['raider', 'viewers'],
  twitchCheer: ['cheerer', 'bits', 'message'],
  tip: ['tipper', 'amount', 'message'],
  charity: ['donor', 'amount', 'charity'],
};

const defaults = (message: string): AlertSetting => ({
  enabled: true,
  message,
  imageUrl: null,
  animation: 'pop',
  sound: 'chime',
  soundUploadId: null,
  durationMs: 5000,
});

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  follow: defaults('{follower} just followed!'),
  sub: defaults('{subscriber} just subscribed!'),
  resub: defaults('{subscriber} resubscribed for {months} months!'),
  twitchRaid: defaults('{raider} is raiding with {viewers} viewers!'),
  twitchCheer: defaults('{cheerer} cheered {bits} bits!'),
  tip: defaults('{tipper} tipped {amount}!'),
  charity: defaults('{donor} donated {amount} to {charity}!'),
};

function money(amount: number | null, currency: string | undefined): string {
  if (amount === null) return '';
  if (!currency) return amount.toFixed(2);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** The values of an event's alert variables (a gifted sub: the gifter gave `count`, to `recipient` when known). */
export function alertValues(event: Pick<LiveEvent, 'type' | 'platformUsername' | 'value' | 'data'>): Record<string, string> {
  const n = (v: number | null) => (v === null ? '' : String(v));
  const user = event.platformUsername;
  const message = event.data.message ?? '';
  switch (event.type) {
    case 'follow':
      return { follower: user };
    case 'sub': {
      const gifter = event.data.gifter?.platformUsername ?? '';
      const giftedByEvent = Boolean(event.data.giftCount);
      return { subscriber: user, gifter, recipient: giftedByEvent ? '' : user, count: n(event.data.giftCount ?? event.value) };
    }
    case 'resub':
      return { subscriber: user, months: n(event.value), message };
    case 'twitchRaid':
      return { raider: user, viewers: n(event.value) };
    case 'twitchCheer':
      return { cheerer: user, bits: n(event.value), message };
    case 'tip':
      return { tipper: user, amount: money(event.value, event.data.currency), message };
    case 'charity':
      return { donor: user, amount: money(event.value, event.data.currency), charity: event.data.charityName ?? '' };
    default:
      return {};
  }
}

/** The message with `{variable}`s replaced by the event's values; unknown ones stay as written. Plain text, never markup. */
export function renderAlertText(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-zA-Z]+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}

/** What the alerts channel carries: the alert and its id in the project's alert log. */
export const alertNoticeSchema = z.strictObject({ logId: z.string().regex(/^\d+-\d+$/), alert: z.lazy(() => alertPlaySchema) });
export type AlertNotice = z.infer<typeof alertNoticeSchema>;

/** One alert as the overlay page plays it. */
export const alertPlaySchema = z.strictObject({
  id: z.string().min(1).max(100),
  type: alertEventTypeSchema,
  text: z.string().max(2000),
  imageUrl: z.url().nullable(),
  animation: z.enum(alertAnimations),
  sound: z.enum(alertSoundChoices),
  /**
   * With `sound` upload: the sound's upload, which the overlay page reads at
   * `{page}/sounds/{id}` with its key (a built-in chime when it cannot).
   */
  soundUploadId: z.uuid().nullable(),
  durationMs: z.number().int().min(ALERT_DURATION_MIN_MS).max(ALERT_DURATION_MAX_MS),
  /** From the studio's test button. */
  test: z.boolean(),
});
export type AlertPlay = z.infer<typeof alertPlaySchema>;

const ALERTS_CHANNEL = /^onair:projects:([0-9a-f-]{36}):alerts$/;
export const alertChannels = {
  project: (projectId: string) => `onair:projects:${projectId}:alerts`,
  /** A Redis stream of the project's recent alerts: an overlay that reconnects resumes after the last one it played. */
  log: (projectId: string) => `onair:projects:${projectId}:alerts:log`,
  projectOf: (channel: string): string | null => ALERTS_CHANNEL.exec(channel)?.[1] ?? null,
} as const;

/** Where the alerts overlay page is served (the studio adds it as a browser source over the canvas). */
export const ALERTS_OVERLAY_PATH = '/overlay/alerts/:projectId';
/** An uploaded alert sound, read by the overlay page with the page's key. */
export const ALERTS_OVERLAY_SOUND_PATH = '/overlay/alerts/:projectId/sounds/:uploadId';

const alertsView = z.object({
  settings: alertSettingsSchema,
  /** The overlay page's address, with the project's overlay key: a browser source of it shows the alerts. */
  overlayUrl: z.url(),
});

export const getAlertSettingsEndpoint = defineEndpoint({
  id: 'getAlertSettings',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId/alerts',
  summary:
    'The on-screen alerts of a project: per event type, whether it plays, its message, picture or animation, sound and duration; and the overlay page address.',
  tag: 'events',
  access: 'user',
  params: projectIdParamsSchema,
  response: alertsView,
});

export const updateAlertSettingsEndpoint = defineEndpoint({
  id: 'updateAlertSettings',
  projectPermission: 'update project',
  method: 'put',
  path: '/api/v1/projects/:projectId/alerts',
  summary: 'Replaces the on-screen alerts of a project.',
  tag: 'events',
  access: 'user',
  params: projectIdParamsSchema,
  body: z.strictObject({ settings: alertSettingsSchema }),
  response: alertsView,
});

export const testAlertEndpoint = defineEndpoint({
  id: 'testAlert',
  projectPermission: 'update project',
  method: 'post',
  path: '/api/v1/projects/:projectId/alerts/test',
  summary: 'Plays a sample alert of a type in the program (with made-up values), as configured, even when that alert is off.',
  tag: 'events',
  access: 'user',
  params: projectIdParamsSchema,
  body: z.strictObject({ type: alertEventTypeSchema }),
  response: z.object({ alert: alertPlaySchema }),
  successStatus: 202,
});

export const alertEndpoints = [getAlertSettingsEndpoint, updateAlertSettingsEndpoint, testAlertEndpoint] as const;
