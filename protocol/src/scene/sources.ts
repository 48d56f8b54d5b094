import { z } from 'zod';
import { checkUrlTarget } from '../address-policy.ts';
import {
  BROWSER_SOURCE_PLACEMENT,
  CAPTURE_SOURCE_SIZE,
  DEFAULT_POSITION,
  GAME_SOURCE_SIZE,
  GUEST_SOURCE_SIZE,
  WATERMARK_PLACEMENT,
  type LayerBox,
} from './layout.ts';

/** Every kind of source of spec §3, plus `image` for logos and backgrounds and `video` for uploaded video files. */
export const sourceKinds = ['webcam', 'screenshare', 'microphone', 'game', 'participant', 'webpage', 'watermark', 'image', 'video'] as const;
export const sourceKindSchema = z.enum(sourceKinds);
export type SourceKind = z.infer<typeof sourceKindSchema>;

/** The groups of the source picker (spec §3). Hidden kinds are added by the product, not picked. */
export const sourceGroups = ['Capture', '3rd Party Integrations', 'Hidden'] as const;
export type SourceGroup = (typeof sourceGroups)[number];

export const sourceKindInfo: Record<SourceKind, { label: string; group: SourceGroup; hasVideo: boolean; hasAudio: boolean }> = {
  webcam: { label: 'Camera', group: 'Capture', hasVideo: true, hasAudio: true },
  screenshare: { label: 'Screen Share', group: 'Capture', hasVideo: true, hasAudio: true },
  microphone: { label: 'Audio', group: 'Capture', hasVideo: false, hasAudio: true },
  game: { label: 'Game Source', group: 'Capture', hasVideo: true, hasAudio: true },
  participant: { label: 'Guest', group: 'Capture', hasVideo: true, hasAudio: true },
  webpage: { label: 'Browser Source', group: '3rd Party Integrations', hasVideo: true, hasAudio: true },
  watermark: { label: 'Watermark', group: 'Hidden', hasVideo: true, hasAudio: false },
  image: { label: 'Image', group: 'Hidden', hasVideo: true, hasAudio: false },
  video: { label: 'Video File', group: 'Hidden', hasVideo: true, hasAudio: true },
};

/** Where and how large a new layer of each kind starts (spec §9). Audio-only sources take no room. */
export function defaultPlacement(kind: SourceKind): LayerBox {
  switch (kind) {
    case 'participant':
      return { ...DEFAULT_POSITION, ...GUEST_SOURCE_SIZE };
    case 'game':
      return { ...DEFAULT_POSITION, ...GAME_SOURCE_SIZE };
    case 'webpage':
      return { ...BROWSER_SOURCE_PLACEMENT };
    case 'watermark':
      return { ...WATERMARK_PLACEMENT };
    case 'microphone':
      return { ...DEFAULT_POSITION, width: 0, height: 0 };
    case 'webcam':
    case 'screenshare':
    case 'image':
    case 'video':
      return { ...DEFAULT_POSITION, ...CAPTURE_SOURCE_SIZE };
  }
}

// ─── Settings per kind ───

const opacity = z.number().min(0).max(1);
/** Stored volume; patches may send any number and get it clamped to 0..1 (spec §5). */
const volume = z.number().min(0).max(1);
const displayName = z.string().max(100);
const optionalId = z.string().min(1).max(200).nullable();

export const GAME_PARTICIPANT_PREFIX = 'source-';

// The shapes are complete (a stored source always has every field); the defaults of spec §3 are
// the `sourceDefaults` below, applied when a source is added. Zod defaults are not used because
// zod 4 applies them inside `.partial()` too, which would turn a one-field change into a reset.
const webcamShape = {
  opacity,
  volume,
  muted: z.boolean(),
  webcamDeviceId: optionalId,
  microphoneDeviceId: optionalId,
  displayName,
  userId: optionalId,
  mirrorCamera: z.boolean(),
};
const screenshareShape = {
  opacity,
  volume,
  muted: z.boolean(),
  displayName,
  userId: optionalId,
  videoTrackId: optionalId,
  audioTrackId: optionalId,
};
const microphoneShape = {
  volume,
  muted: z.boolean(),
  microphoneDeviceId: optionalId,
  displayName,
  userId: optionalId,
  optimizeForMusic: z.boolean(),
};
const gameShape = {
  opacity,
  volume,
  muted: z.boolean(),
  /** Stored without the 'source-' prefix the engine puts on it (spec §5). */
  participantId: optionalId.refine((id) => id === null || !id.startsWith(GAME_PARTICIPANT_PREFIX), {
    message: `the '${GAME_PARTICIPANT_PREFIX}' prefix is stripped`,
  }),
  displayName,
};
const participantShape = { opacity, volume, muted: z.boolean(), userId: optionalId, displayName };

/** keep-loaded: the page stays loaded while its scene is hidden; scene-loaded: loaded only with its scene. */
export const webpageModes = ['keep-loaded', 'scene-loaded'] as const;

/** Empty until the creator enters an address; otherwise an http(s) URL. */
export const webpageUrlSchema = z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(2048)]);

const webpageConfigShape = {
  url: webpageUrlSchema,
  title: z.string().max(100),
  canPreviewUrl: z.boolean(),
  mode: z.enum(webpageModes),
};
export const webpageConfigSchema = z.strictObject(webpageConfigShape);

/** What an image is for decides the entitlement it needs (custom-logo or custom-backgrounds). */
export const imagePurposes = ['logo', 'background', 'screen'] as const;
/** The screens OnAir draws itself, in every plan (a screen scene's picture when it is not an upload). */
export const builtInScreens = ['starting', 'brb', 'ending'] as const;
export type BuiltInScreen = (typeof builtInScreens)[number];
/**
 * An image is an upload of the project (`uploadId`, checked against the project's uploads by the
 * api) or, as before uploads existed, an http(s) address (`url`, '' for an upload). `uploadId` is
 * optional so documents stored before uploads still read.
 */
const imageShape = {
  opacity,
  url: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(2048)]),
  uploadId: z.uuid().nullable().optional(),
  /** A built-in screen's picture instead of an upload or an address (purpose 'screen'). */
  screen: z.enum(builtInScreens).nullable().optional(),
  purpose: z.enum(imagePurposes),
};
const imageRefine = (s: { url?: string; uploadId?: string | null; screen?: BuiltInScreen | null }) =>
  s.url !== '' || (s.uploadId !== null && s.uploadId !== undefined) || (s.screen !== null && s.screen !== undefined);
const imageRefineMessage = { message: 'an image needs an upload, an address or a built-in screen' };

/**
 * A video file from the project's uploads, with its audio. `loop`: plays again from the start
 * when it ends (otherwise it stays on its last frame, silent); `restartOnShow`: starts over
 * whenever its scene is shown.
 */
const videoShape = {
  opacity,
  volume,
  muted: z.boolean(),
  uploadId: z.uuid().nullable(),
  loop: z.boolean(),
  restartOnShow: z.boolean(),
};

export const sourceSettingsSchemas = {
  webcam: z.strictObject(webcamShape),
  screenshare: z.strictObject(screenshareShape),
  microphone: z.strictObject(microphoneShape),
  game: z.strictObject(gameShape),
  participant: z.strictObject(participantShape),
  webpage: z.strictObject({ opacity, config: webpageConfigSchema }),
  watermark: z.strictObject({}),
  image: z.strictObject(imageShape).refine(imageRefine, imageRefineMessage),
  video: z.strictObject(videoShape),
} as const;

export type SourceSettings<K extends SourceKind = SourceKind> = z.output<(typeof sourceSettingsSchemas)[K]>;

/**
 * Exactly the defaults of spec §3. An image has no sensible default address or purpose, so an
 * added image must bring both.
 */
export const sourceDefaults = {
  webcam: {
    opacity: 1,
    volume: 1,
    muted: false,
    webcamDeviceId: null,
    microphoneDeviceId: 'default',
    displayName: '',
    userId: null,
    mirrorCamera: false,
  },
  screenshare: { opacity: 1, volume: 1, muted: false, displayName: '', userId: null, videoTrackId: null, audioTrackId: null },
  microphone: { volume: 1, muted: false, microphoneDeviceId: null, displayName: '', userId: null, optimizeForMusic: true },
  game: { opacity: 1, volume: 1, muted: false, participantId: null, displayName: '' },
  participant: { opacity: 1, volume: 1, muted: false, userId: null, displayName: '' },
  webpage: { opacity: 1, config: { url: '', title: '', canPreviewUrl: false, mode: 'scene-loaded' } },
  watermark: {},
  image: { opacity: 1, url: '', uploadId: null },
  video: { opacity: 1, volume: 1, muted: false, uploadId: null, loop: true, restartOnShow: false },
} as const satisfies { [K in SourceKind]: Partial<SourceSettings<K>> };

const sourceName = z.string().trim().min(1).max(100);

function sourceOf<K extends SourceKind, S extends z.ZodObject>(kind: K, settings: S) {
  return z.strictObject({ id: z.uuid(), kind: z.literal(kind), name: sourceName, settings });
}

/** A source of the project: what can appear in scenes, with its per-kind settings. */
export const sourceSchema = z.discriminatedUnion('kind', [
  sourceOf('webcam', sourceSettingsSchemas.webcam),
  sourceOf('screenshare', sourceSettingsSchemas.screenshare),
  sourceOf('microphone', sourceSettingsSchemas.microphone),
  sourceOf('game', sourceSettingsSchemas.game),
  sourceOf('participant', sourceSettingsSchemas.participant),
  sourceOf('webpage', sourceSettingsSchemas.webpage),
  sourceOf('watermark', sourceSettingsSchemas.watermark),
  sourceOf('image', sourceSettingsSchemas.image),
  sourceOf('video', sourceSettingsSchemas.video),
]);
export type Source = z.output<typeof sourceSchema>;
export type SourceOf<K extends SourceKind> = Extract<Source, { kind: K }>;

// ─── Settings changes carried by patches ───

/**
 * A change to a source's settings: any subset of its kind's fields. Volume may be any number
 * here: applying the patch clamps it to 0..1 (spec §5), and the game participant id may carry the
 * engine's 'source-' prefix, which applying strips.
 */
const looseVolume = z.number().optional();
const settingsChanges = {
  webcam: z.strictObject(webcamShape).partial().extend({ volume: looseVolume }),
  screenshare: z.strictObject(screenshareShape).partial().extend({ volume: looseVolume }),
  microphone: z.strictObject(microphoneShape).partial().extend({ volume: looseVolume }),
  game: z.strictObject(gameShape).partial().extend({ volume: looseVolume, participantId: optionalId.optional() }),
  participant: z.strictObject(participantShape).partial().extend({ volume: looseVolume }),
  webpage: z.strictObject({ opacity: opacity.optional(), config: webpageConfigSchema.partial().optional() }),
  watermark: z.strictObject({}),
  image: z.strictObject(imageShape).partial(),
  video: z.strictObject(videoShape).partial().extend({ volume: looseVolume }),
} as const;

function changeOf<K extends SourceKind, S extends z.ZodObject>(kind: K, change: S) {
  return change.extend({ kind: z.literal(kind) });
}

/** An `updateSource` settings change, tagged with the source's kind so it is validated at the edge. */
export const sourceSettingsChangeSchema = z.discriminatedUnion('kind', [
  changeOf('webcam', settingsChanges.webcam),
  changeOf('screenshare', settingsChanges.screenshare),
  changeOf('microphone', settingsChanges.microphone),
  changeOf('game', settingsChanges.game),
  changeOf('participant', settingsChanges.participant),
  changeOf('webpage', settingsChanges.webpage),
  changeOf('watermark', settingsChanges.watermark),
  changeOf('image', settingsChanges.image),
  changeOf('video', settingsChanges.video),
]);
export type SourceSettingsChange = z.output<typeof sourceSettingsChangeSchema>;

function newSourceOf<K extends SourceKind, S extends z.ZodObject>(kind: K, change: S) {
  return z.strictObject({ id: z.uuid(), kind: z.literal(kind), name: sourceName.optional(), settings: change.optional() });
}

/** A new source in an `addSource` op: its settings are applied over the kind's defaults. */
export const newSourceSchema = z.discriminatedUnion('kind', [
  newSourceOf('webcam', settingsChanges.webcam),
  newSourceOf('screenshare', settingsChanges.screenshare),
  newSourceOf('microphone', settingsChanges.microphone),
  newSourceOf('game', settingsChanges.game),
  newSourceOf('participant', settingsChanges.participant),
  newSourceOf('webpage', settingsChanges.webpage),
  newSourceOf('watermark', settingsChanges.watermark),
  newSourceOf('image', settingsChanges.image),
  newSourceOf('video', settingsChanges.video),
]);
export type NewSource = z.output<typeof newSourceSchema>;

export function clampVolume(value: number): number {
  return Math.min(1, Math.max(0, value));
}

export function stripGameParticipantPrefix(id: string): string {
  return id.startsWith(GAME_PARTICIPANT_PREFIX) ? id.slice(GAME_PARTICIPANT_PREFIX.length) : id;
}

/**
 * True for URLs that point at a loopback, private, link-local or otherwise non-public address
 * without resolving any name (the render worker's address policy, applied again at navigation
 * time to what names resolve to). Lets the api refuse the obvious cases with a clear message.
 */
export function isPrivateUrl(url: string): boolean {
  const check = checkUrlTarget(url);
  return !check.ok && check.code !== 'invalid-url' && check.code !== 'scheme-not-allowed';
}
