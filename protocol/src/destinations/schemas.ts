import { z } from 'zod';
import { checkUrlTarget } from '../address-policy.ts';
import { canvasKindSchema } from '../scene/vertical.ts';
import { destinationTypeSchema, facebookPrivacySchema, youtubePrivacySchema, type DestinationType } from './catalogue.ts';

/** Spec §9 limits. */
export const DESTINATION_NAME_MAX = 100;
export const TITLE_MAX = 100;
export const DESCRIPTION_MAX = 1500;
export const STREAM_KEY_MAX = 512;

/** The words the Add/Edit form shows under a field; the api answers them in VALIDATION_FAILED details. */
export const destinationFieldMessages = {
  name: `Enter a name of 1 to ${DESTINATION_NAME_MAX} characters.`,
  rtmpUrl: 'The server URL must start with rtmp:// or rtmps://.',
  streamKey: 'Enter the stream key.',
  titleRequired: 'Enter a title.',
  titleTooLong: `The title can be at most ${TITLE_MAX} characters.`,
  descriptionTooLong: `The description can be at most ${DESCRIPTION_MAX} characters.`,
} as const;

const name = z.string().trim().min(1, destinationFieldMessages.name).max(DESTINATION_NAME_MAX, destinationFieldMessages.name);

/** Spec §5: an RTMP URL starts with rtmp:// or rtmps://, in any case, and names a host. */
export const rtmpUrlSchema = z
  .string()
  .trim()
  .max(2048, destinationFieldMessages.rtmpUrl)
  .refine((url) => /^rtmps?:\/\/[^/\s]+/i.test(url), destinationFieldMessages.rtmpUrl);

const streamKey = z.string().max(STREAM_KEY_MAX, `The stream key can be at most ${STREAM_KEY_MAX} characters.`);
const requiredStreamKey = streamKey.trim().min(1, destinationFieldMessages.streamKey);

const title = z.string().trim().max(TITLE_MAX, destinationFieldMessages.titleTooLong);
const description = z.string().max(DESCRIPTION_MAX, destinationFieldMessages.descriptionTooLong);

/** Facebook's targets (spec §3 stream destination kinds). */
export const facebookTargetTypes = ['timeline', 'page', 'group', 'event'] as const;
export const facebookTargetTypeSchema = z.enum(facebookTargetTypes);
export const facebookTargetLabels: Record<z.infer<typeof facebookTargetTypeSchema>, string> = {
  timeline: 'Timeline',
  page: 'Page',
  group: 'Group',
  event: 'Event',
};
export const streamTargetSchema = z.object({ id: z.string().min(1).max(128), name: z.string().max(200), type: facebookTargetTypeSchema });
export type StreamTarget = z.infer<typeof streamTargetSchema>;

export const twitchSettingsSchema = z.strictObject({
  title: z.string().trim().min(1, destinationFieldMessages.titleRequired).max(TITLE_MAX, destinationFieldMessages.titleTooLong),
});
export const youtubeSettingsSchema = z.strictObject({
  title: title.optional(),
  description: description.optional(),
  privacy: youtubePrivacySchema.default('public'),
});
export const facebookSettingsSchema = z.strictObject({
  title: title.optional(),
  description: description.optional(),
  privacy: facebookPrivacySchema.default('EVERYONE'),
  streamDestination: streamTargetSchema.optional(),
});

/** What every destination's `settings` may hold (spec §3): title, description, privacy, streamDestination. */
export const destinationSettingsSchema = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  privacy: z.string().optional(),
  streamDestination: streamTargetSchema.optional(),
});
export type DestinationSettings = z.infer<typeof destinationSettingsSchema>;

/** 'Apply metadata to all destinations' (spec §2): copy title and description to the project's other authenticated destinations. */
const applyMetadataToAll = z.boolean().default(false);

/** Which canvas the destination gets; left out, its platform's default (destinationKinds[type].defaultCanvas). */
const canvas = canvasKindSchema.optional();

const keyedTypes = [
  'Amazon',
  'DLive',
  'Douyu',
  'Huya',
  'Instagram',
  'LinkedIn',
  'TikTok',
  'Trovo',
  'Vimeo',
  'Wowza',
] as const satisfies readonly DestinationType[];

/**
 * The Add Destination form's body, one shape per kind. A platform destination reached by OAuth is
 * created with its metadata and then authenticated in the popup; a stream-key destination carries
 * its server and key; the local destination needs nothing.
 */
export const createDestinationBodySchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('Twitch'), settings: twitchSettingsSchema, applyMetadataToAll, canvas }),
  z.strictObject({ type: z.literal('YouTube'), settings: youtubeSettingsSchema.prefault({}), applyMetadataToAll, canvas }),
  z.strictObject({ type: z.literal('Facebook'), settings: facebookSettingsSchema.prefault({}), applyMetadataToAll, canvas }),
  z.strictObject({ type: z.literal('CustomRTMP'), name, rtmpUrl: rtmpUrlSchema, streamKey: streamKey.default(''), canvas }),
  z.strictObject({ type: z.literal('YouTubeManual'), name, streamKey: requiredStreamKey, canvas }),
  z.strictObject({ type: z.enum(keyedTypes), name: name.optional(), rtmpUrl: rtmpUrlSchema.optional(), streamKey: requiredStreamKey, canvas }),
  z.strictObject({ type: z.literal('Local'), name: name.optional(), canvas }),
]);
export type CreateDestinationBody = z.infer<typeof createDestinationBodySchema>;
export type CreateDestinationInput = z.input<typeof createDestinationBodySchema>;

/**
 * The Edit form and the list toggle. Fields left out keep their value; `streamKey` left out keeps
 * the saved key (the browser never has it back). The api merges this into the saved destination
 * and validates the whole result with `createDestinationBodySchema`, so an edit obeys the same rules.
 */
export const updateDestinationBodySchema = z.strictObject({
  enabled: z.boolean().optional(),
  name: name.optional(),
  rtmpUrl: rtmpUrlSchema.optional(),
  streamKey: streamKey.optional(),
  settings: z
    .strictObject({
      title: z.string().optional(),
      description: z.string().optional(),
      privacy: z.string().optional(),
      streamDestination: streamTargetSchema.nullable().optional(),
    })
    .optional(),
  applyMetadataToAll: z.boolean().optional(),
  canvas,
});
export type UpdateDestinationBody = z.infer<typeof updateDestinationBodySchema>;

/** A field error of the form: which field and the words to show under it. */
export interface DestinationFieldError {
  field: string;
  message: string;
}

/** Validates a form's values as the api will; the UI shows the messages under the fields. */
export function validateDestinationForm(input: unknown): DestinationFieldError[] {
  const result = createDestinationBodySchema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((i) => ({ field: i.path.map(String).join('.') || 'type', message: i.message }));
}

/** The address-policy outcome for an RTMP URL (no DNS: the api resolves names and checks each address). */
export function checkRtmpUrlTarget(url: string) {
  // URL() lower-cases the scheme, so RTMP:// passes as rtmp:.
  return checkUrlTarget(url, ['rtmp:', 'rtmps:']);
}

/** A saved stream key is shown as this, never in clear (spec: never returned after saving). */
export const MASKED_STREAM_KEY = '••••••••';

/** A destination as the api answers it. No stream key and no token, ever. */
export const destinationViewSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  type: destinationTypeSchema,
  providerId: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  username: z.string().nullable(),
  logo: z.string().nullable(),
  dashboardUrl: z.string().nullable(),
  settings: destinationSettingsSchema,
  rtmpUrl: z.string().nullable(),
  /** `MASKED_STREAM_KEY` when a key is saved, null when none. */
  streamKeyMasked: z.string().nullable(),
  /** OAuth destinations: tokens are held and valid. Always true for stream-key and local ones. */
  authenticated: z.boolean(),
  /**
   * An OAuth destination that was connected and lost its access (revoked, expired, refused): it
   * needs the creator to sign in again (Reconnect), unlike one never connected (Authenticate).
   */
  needsSignIn: z.boolean(),
  autoLive: z.boolean(),
  canvas: canvasKindSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type DestinationView = z.infer<typeof destinationViewSchema>;

/** Spec §3 authentication status per destination (without the token: it never leaves the api). */
export const authenticationStatusSchema = z.object({ destinationId: z.uuid(), authenticated: z.boolean() });
export type AuthenticationStatus = z.infer<typeof authenticationStatusSchema>;
