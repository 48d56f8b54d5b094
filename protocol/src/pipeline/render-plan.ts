import { z } from 'zod';
import { chatOnScreenDrawnSchema } from './lower-third.ts';
import { canvasKindSchema } from '../scene/vertical.ts';

/**
 * The render plan: the flattened, validated description of everything a session's pipeline
 * process draws and sends. It is the contract between the media worker and its pipeline child;
 * the scene document is mapped to it before a pipeline starts (validate at the edge, then trust).
 * Every input that can appear in any scene is listed once and attached once; scenes only place
 * inputs, so switching scenes or moving a layer only changes compositor and mixer pad properties.
 */

const id = z.string().min(1).max(128);
const cropEdge = z.number().int().min(0).max(100_000);

export const outputProfileSchema = z.object({
  width: z.number().int().min(16).max(3840).multipleOf(2),
  height: z.number().int().min(16).max(2160).multipleOf(2),
  fps: z.number().int().min(1).max(60),
  videoBitrateKbps: z.number().int().min(100).max(20_000),
  audioBitrateKbps: z.number().int().min(32).max(320),
  /** Seconds between keyframes; platforms ask for 2. */
  keyframeIntervalSeconds: z.number().int().min(1).max(10).default(2),
  /** x264 threads; explicit so sessions sharing a machine do not each take every core. */
  encoderThreads: z.number().int().min(1).max(16).default(2),
});
export type OutputProfile = z.infer<typeof outputProfileSchema>;

/** The output profiles the product offers (30 fps, CBR bitrates platforms accept). */
export const outputProfiles = {
  '480p30': { width: 854, height: 480, fps: 30, videoBitrateKbps: 1500, audioBitrateKbps: 128, keyframeIntervalSeconds: 2, encoderThreads: 2 },
  '720p30': { width: 1280, height: 720, fps: 30, videoBitrateKbps: 3000, audioBitrateKbps: 128, keyframeIntervalSeconds: 2, encoderThreads: 2 },
  '1080p30': { width: 1920, height: 1080, fps: 30, videoBitrateKbps: 4500, audioBitrateKbps: 160, keyframeIntervalSeconds: 2, encoderThreads: 2 },
} as const satisfies Record<string, OutputProfile>;

/** 0xRRGGBB */
const rgb = z.number().int().min(0).max(0xffffff);

export const testPatternInputSchema = z.object({
  id,
  kind: z.literal('test-pattern'),
  /** `solid` draws `color`; the others are GStreamer videotestsrc patterns. */
  pattern: z.enum(['smpte', 'ball', 'solid', 'black', 'snow']).default('smpte'),
  color: rgb.default(0xffffff),
  width: z.number().int().min(2).max(3840),
  height: z.number().int().min(2).max(2160),
  /** A sine tone at this frequency when set; no audio otherwise. */
  toneHz: z.number().min(20).max(20_000).optional(),
});

export const imageInputSchema = z.object({
  id,
  kind: z.literal('image'),
  /** Absolute path of a PNG or JPEG file on the worker (fetched there before the plan is sent). */
  path: z.string().startsWith('/'),
});

/**
 * A video file (an upload) played as a live input, with its sound. `loop`: starts over when it
 * ends (otherwise its last frame stays, silent); `restartOnShow`: starts over whenever a scene
 * that shows it becomes the active one.
 */
export const videoFileInputSchema = z.object({
  id,
  kind: z.literal('video-file'),
  /** Absolute path of an MP4 (H.264 + AAC) or WebM (VP8/VP9 + Opus/Vorbis) file on the worker. */
  path: z
    .string()
    .startsWith('/')
    .regex(/^[^"\\\n]+$/, 'a plain path'),
  loop: z.boolean().default(true),
  restartOnShow: z.boolean().default(false),
});

/** One encoding a live video input takes, on a loopback port of its own. */
export const rtpVideoCodecSchema = z.object({
  encoding: z.enum(['VP8', 'H264']),
  port: z.number().int().min(1).max(65535),
  payloadType: z.number().int().min(0).max(127),
});
export type RtpVideoCodec = z.infer<typeof rtpVideoCodecSchema>;

export const rtpVideoSchema = z.object({
  /**
   * Every encoding the input decodes, each on its own port, so a track in whichever codec the
   * browser negotiated (VP8 or H.264) plays without rebuilding anything; the one that flows is shown.
   */
  codecs: z
    .array(rtpVideoCodecSchema)
    .min(1)
    .refine((codecs) => new Set(codecs.map((c) => c.encoding)).size === codecs.length, { message: 'one port per encoding' }),
  /**
   * A colour the sender paints where the picture is transparent (web pages from a render worker:
   * neither a virtual display nor H.264 carries alpha); the pipeline keys it out.
   */
  keyColor: z.enum(['green']).optional(),
  /**
   * Absolute path of a PNG shown in the layer instead of the track while no packets arrive (spec §2
   * "Source placeholders": 'Camera Offline', 'Screenshare Offline', …), from the start until the
   * first packets and again whenever the track stops.
   */
  placeholder: z.string().startsWith('/').optional(),
  /**
   * The name of the person whose camera it is, written on the placeholder under its words (issue 51:
   * the card of someone in the studio with the camera off says who).
   */
  placeholderLabel: z.string().trim().min(1).max(100).optional(),
});
export const rtpAudioSchema = z.object({
  port: z.number().int().min(1).max(65535),
  encoding: z.literal('OPUS'),
  payloadType: z.number().int().min(0).max(127),
  /** Starts silent and fades in over the scene fade when shown (a guest source; spec §4 "Guest tile": it starts at 0). */
  fadeIn: z.boolean().optional(),
});

/** A track fed over loopback UDP by the WebRTC endpoint or an ingest (RTP, clock 90 kHz / 48 kHz). */
export const rtpInputSchema = z
  .object({
    id,
    kind: z.literal('rtp'),
    video: rtpVideoSchema.optional(),
    audio: rtpAudioSchema.optional(),
  })
  .refine((i) => i.video !== undefined || i.audio !== undefined, { message: 'an rtp input needs video, audio or both' });

export const planInputSchema = z.discriminatedUnion('kind', [testPatternInputSchema, imageInputSchema, rtpInputSchema, videoFileInputSchema]);
export type PlanInput = z.infer<typeof planInputSchema>;
export type PlanInputKind = PlanInput['kind'];

/** Where an input sits in one scene's program picture (compositor sink pad properties). */
export const planPlacementSchema = z.object({
  inputId: id,
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
  zorder: z.number().int().min(0).max(10_000),
  alpha: z.number().min(0).max(1).default(1),
  visible: z.boolean().default(true),
  /** Radius of its rounded corners in output pixels (layerCornerRadius); 0 draws it square. */
  cornerRadius: z.number().min(0).max(10_000).default(0),
  /** Pixels of the input's own frames cut from each edge before it is scaled into the box (the layer's crop). */
  crop: z.object({ top: cropEdge, right: cropEdge, bottom: cropEdge, left: cropEdge }).default({ top: 0, right: 0, bottom: 0, left: 0 }),
  /**
   * How what is left after the crop fills the box: `fill` stretches it to the box, `cover` cuts it
   * further, centred, to the box's aspect, so it fills the box undistorted (layerFit; the editor's
   * object-fit: cover).
   */
  fit: z.enum(['fill', 'cover']).default('fill'),
});
export type PlanPlacement = z.infer<typeof planPlacementSchema>;
/** A placement as written before defaults (crop, fit, corner radius, alpha, visible) are filled in. */
export type PlanPlacementInput = z.input<typeof planPlacementSchema>;

export const planSceneSchema = z.object({
  id,
  placements: z.array(planPlacementSchema),
});

export const inputAudioSchema = z.object({
  inputId: id,
  /** Linear gain, 1 = unchanged. */
  volume: z.number().min(0).max(4).default(1),
  muted: z.boolean().default(false),
});

/**
 * A destination as the pipeline sees it. `url` is the server and application; `key` the secret
 * stream key, joined at the last moment and never logged.
 */
export const planOutputSchema = z.object({
  id,
  url: z.string().regex(/^rtmps?:\/\/[^/\s]+\/\S*$/, 'an rtmp:// or rtmps:// URL'),
  key: z.string().max(512).optional(),
  /**
   * Whether this output may reach a private or loopback address (the operator's own server, or a
   * LAN setup), as the api's policy decided; the worker checks the address again before every
   * connection. Unset: the worker's own ALLOW_PRIVATE_RTMP decides. Never the metadata address.
   */
  allowPrivate: z.boolean().optional(),
  /** Which canvas this destination gets; unset is horizontal. */
  canvas: canvasKindSchema.optional(),
  /**
   * The stream key was set by OnAir (a Local stream name, a linked or test-mode platform's key),
   * not typed by the creator: a refusal then does not tell the creator to check a key.
   */
  keySetByOnAir: z.boolean().optional(),
});
export type PlanOutput = z.infer<typeof planOutputSchema>;

/**
 * The program preview sent back to the studio's browsers: a light VP8 encode of the composited
 * picture, as RTP to a loopback port the worker's WebRTC endpoint reads and relays to every peer.
 */
export const planPreviewSchema = z.object({
  port: z.number().int().min(1).max(65535),
  payloadType: z.number().int().min(96).max(127).default(96),
  width: z.number().int().min(16).max(1920).multipleOf(2).default(640),
  height: z.number().int().min(16).max(1080).multipleOf(2).default(360),
  bitrateKbps: z.number().int().min(100).max(4000).default(800),
});
export type PlanPreview = z.infer<typeof planPreviewSchema>;

/**
 * The holding slate (issue 19): a full-frame picture drawn over the whole program while every
 * live input the active scene shows has stopped sending (the host's connection lost, an ingest
 * gone) for `afterMs`, so the outputs keep a picture and stay connected; it goes away as soon as
 * one of them sends again. Only inputs that sent at least once count as dropped.
 */
export const planSlateSchema = z.object({
  /** Absolute path of a PNG or JPEG on the worker ('We'll be right back', or the creator's Be Right Back screen). */
  path: z.string().startsWith('/'),
  afterMs: z.number().int().min(0).max(60_000).default(1000),
});
export type PlanSlate = z.infer<typeof planSlateSchema>;

/**
 * The vertical canvas of the same scenes: its size in output pixels (720×1280 at 720p) and where
 * each scene places its inputs on it. The pipeline composites and encodes it only while an output
 * asks for it, from the same decoded inputs as the horizontal program.
 */
export const planVerticalSchema = z.object({
  width: z.number().int().min(16).max(2160).multipleOf(2),
  height: z.number().int().min(16).max(3840).multipleOf(2),
  scenes: z.array(planSceneSchema),
});
export type PlanVertical = z.infer<typeof planVerticalSchema>;

/** Whether any of these outputs takes the vertical canvas (then the pipeline builds it). */
export function outputsUseVertical(outputs: readonly { canvas?: string | undefined }[]): boolean {
  return outputs.some((o) => o.canvas === 'vertical');
}

export const planCountdownSchema = z.object({ endsAt: z.number().int().nonnegative() });
export type PlanCountdown = z.infer<typeof planCountdownSchema>;

export const renderPlanSchema = z
  .object({
    profile: outputProfileSchema,
    inputs: z.array(planInputSchema).max(64),
    scenes: z.array(planSceneSchema).min(1),
    activeSceneId: id,
    audio: z.array(inputAudioSchema).default([]),
    outputs: z.array(planOutputSchema).max(32).default([]),
    /** Fixed for the life of the pipeline, like the inputs. */
    preview: planPreviewSchema.optional(),
    /** The holding slate; fixed for the life of the pipeline, like the inputs. */
    slate: planSlateSchema.optional(),
    /**
     * Records the program (the outputs' own encode) as fragmented MP4 parts in this folder while set;
     * set or cleared by a new plan version, like the outputs.
     */
    recording: z.object({ dir: z.string().startsWith('/') }).optional(),
    vertical: planVerticalSchema.optional(),
    /**
     * The time left of the countdown scene the program shows (issue 19), drawn as mm:ss over it;
     * `endsAt` in ms since the epoch, as the api times it. Set or cleared by a new plan version.
     */
    countdown: planCountdownSchema.optional(),
    /**
     * The chat message on screen (issue 53 item 1), drawn by the pipeline as a lower third over the
     * program; changed live by the worker's chatOnScreen command, kept here so a restarted pipeline draws it.
     */
    chatOnScreen: chatOnScreenDrawnSchema.optional(),
    /**
     * Live inputs fed by a person who is not in the session now (no studio or guest page of theirs
     * connected to it; the worker knows, sceneToRenderPlan's `present`). While such an input sends
     * nothing its layers draw nothing, not its placeholder, so what is under them shows: no 'Camera
     * Offline' card for someone who is not there (issue 51; media-worker/README.md "An arriving feed
     * is always seen"). Changed live by the worker's presence command as people come and go.
     */
    absentInputs: z.array(id).max(64).default([]),
  })
  .superRefine((plan, ctx) => {
    const inputIds = new Set<string>();
    for (const input of plan.inputs) {
      if (inputIds.has(input.id)) ctx.addIssue({ code: 'custom', message: `duplicate input id ${input.id}`, path: ['inputs'] });
      inputIds.add(input.id);
    }
    if (!plan.scenes.some((s) => s.id === plan.activeSceneId)) {
      ctx.addIssue({ code: 'custom', message: `active scene ${plan.activeSceneId} is not in the plan`, path: ['activeSceneId'] });
    }
    plan.scenes.forEach((scene, si) =>
      scene.placements.forEach((p, pi) => {
        if (!inputIds.has(p.inputId)) ctx.addIssue({ code: 'custom', message: `unknown input ${p.inputId}`, path: ['scenes', si, 'placements', pi] });
      }),
    );
    plan.vertical?.scenes.forEach((scene, si) =>
      scene.placements.forEach((p, pi) => {
        if (!inputIds.has(p.inputId))
          ctx.addIssue({ code: 'custom', message: `unknown input ${p.inputId}`, path: ['vertical', 'scenes', si, 'placements', pi] });
      }),
    );
    if (outputsUseVertical(plan.outputs) && !plan.vertical)
      ctx.addIssue({ code: 'custom', message: 'an output takes the vertical canvas but the plan has none', path: ['vertical'] });
    plan.audio.forEach((a, ai) => {
      if (!inputIds.has(a.inputId)) ctx.addIssue({ code: 'custom', message: `unknown input ${a.inputId}`, path: ['audio', ai] });
    });
    const outputIds = new Set(plan.outputs.map((o) => o.id));
    if (outputIds.size !== plan.outputs.length) ctx.addIssue({ code: 'custom', message: 'duplicate output id', path: ['outputs'] });
  });
export type RenderPlan = z.infer<typeof renderPlanSchema>;
export type RenderPlanInput = z.input<typeof renderPlanSchema>;
