import { z } from 'zod';

/**
 * The contract between a studio session (media worker) and the render workers.
 *
 * - A session asks for a page by adding one long-running BullMQ job to the `renders` queue (queues.ts; data =
 *   `RenderJob`, a fresh job id recorded under `renderKeys.current`). Whichever render worker has
 *   room takes it and keeps the job active while the page renders; if that worker dies, the job
 *   stalls and another worker takes it over (BullMQ stalled-job check).
 * - The session changes or stops a running page with `RenderCommand`s on the commands channel, and
 *   keeps `renderKeys.current` and the job's data up to date, which workers re-read every few
 *   seconds (pub/sub alone would lose a command sent while a worker reconnects).
 * - The render worker reports the page's state with `RenderStatus` on the session's status channel
 *   (and as the job's progress): the studio shows 'Preview unavailable' with `reason`.
 * - Frames and sound travel as RTP over UDP to the `video` and `audio` targets the session gave:
 *   H.264 (constrained baseline, SPS/PPS with every keyframe, keyframe every 2 s) and Opus 48 kHz
 *   stereo, like a WebRTC track forwarded by werift.
 */

/** Browser sources are at least 852×480 (spec §5); 1920×1080 is the largest output profile. */
export const RENDER_MIN_SIZE = { width: 852, height: 480 } as const;
export const RENDER_MAX_SIZE = { width: 1920, height: 1080 } as const;

/**
 * Transparent pages are rendered over this key colour (the page's own backgrounds are kept); the
 * session's pipeline keys it out (`alpha method=green`). A virtual display has no alpha channel, and
 * H.264 carries none either; measured alternatives are in render-worker/src/page/page-renderer.ts.
 */
export const RENDER_CHROMA_KEY = { r: 0, g: 255, b: 0 } as const;

/** How long a render request lives without renewal: a session that dies stops its pages after this. */
export const RENDER_LEASE_MS = 30_000;

export const renderKeys = {
  /** Pub/sub channel every render worker listens on for `RenderCommand`s. */
  commands: 'onair:render:commands',
  /** Pub/sub channel of one session's `RenderStatus` messages. */
  status: (sessionId: string) => `onair:render:status:${sessionId}`,
  /**
   * The BullMQ job id of the render's current request, held as a lease (RENDER_LEASE_MS) that the
   * session keeps renewing. A request sets it, a stop deletes it, a dead session lets it expire; a
   * worker stops a page whose job is no longer current (stopped, replaced, or its session gone),
   * also when it missed a pub/sub command.
   */
  current: (renderId: string) => `onair:render:current:${renderId}`,
} as const;

/** BullMQ job ids may not contain ':'; a render id is `{sessionId}.{sourceId}` or any such token. */
export const renderIdSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,200}$/);

export const renderRtpTargetSchema = z.object({
  host: z.string().min(1).max(255),
  port: z.number().int().min(1).max(65535),
  payloadType: z.number().int().min(96).max(127),
  /** Fixed SSRC so the receiver can demultiplex; random when absent. */
  ssrc: z.number().int().min(0).max(0xffffffff).optional(),
});
export type RenderRtpTarget = z.infer<typeof renderRtpTargetSchema>;

export const renderPageSchema = z.object({
  url: z.url({ protocol: /^https?$/ }).max(2048),
  width: z.number().int().min(RENDER_MIN_SIZE.width).max(RENDER_MAX_SIZE.width),
  height: z.number().int().min(RENDER_MIN_SIZE.height).max(RENDER_MAX_SIZE.height),
  /** Render over RENDER_CHROMA_KEY instead of white where the page has no background. */
  transparent: z.boolean(),
});
export type RenderPage = z.infer<typeof renderPageSchema>;

export const renderJobSchema = z.object({
  renderId: renderIdSchema,
  sessionId: z.string().min(1).max(200),
  sourceId: z.string().min(1).max(200),
  page: renderPageSchema,
  video: renderRtpTargetSchema,
  /** Null when the page's sound is not wanted (the source is muted for good). */
  audio: renderRtpTargetSchema.nullable(),
});
export type RenderJob = z.infer<typeof renderJobSchema>;

export const renderCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('stop'), renderId: renderIdSchema }),
  /** A changed url reloads the page; a changed size restarts it at the new size. */
  z.object({ type: z.literal('update'), renderId: renderIdSchema, page: renderPageSchema }),
]);
export type RenderCommand = z.infer<typeof renderCommandSchema>;

/**
 * starting → live ⇄ unavailable (retried with backoff) → … ; refused is final for that url (a
 * creator fault: fix the address); stopped is final.
 */
export const renderStates = ['starting', 'live', 'unavailable', 'refused', 'stopped'] as const;
export type RenderState = (typeof renderStates)[number];

/** Which state may follow which (a reload goes back to starting; stopped is final). */
export const renderTransitions: Record<RenderState, readonly RenderState[]> = {
  starting: ['live', 'unavailable', 'refused', 'stopped'],
  live: ['starting', 'unavailable', 'refused', 'stopped'],
  unavailable: ['starting', 'unavailable', 'stopped'],
  refused: ['starting', 'unavailable', 'stopped'],
  stopped: [],
};

/** Why a page is not showing. `fault` tells the creator's problem apart from ours. */
export const renderProblems = {
  ADDRESS_REFUSED: { fault: 'user', message: 'This page cannot be shown because {detail}.' },
  SCHEME_REFUSED: { fault: 'user', message: 'This page cannot be shown because {detail}.' },
  LOAD_FAILED: { fault: 'user', message: 'The page could not be loaded ({detail}).' },
  HTTP_ERROR: { fault: 'user', message: 'The page answered with an error ({detail}).' },
  PAGE_CRASHED: { fault: 'service', message: 'The page stopped unexpectedly; it is being restarted.' },
  PAGE_HUNG: { fault: 'service', message: 'The page stopped responding; it is being restarted.' },
  RECYCLED: { fault: 'service', message: 'The page is being restarted to free memory.' },
  CAPTURE_FAILED: { fault: 'service', message: 'The page could not be captured; retrying.' },
} as const satisfies Record<string, { fault: 'user' | 'service'; message: string }>;
export type RenderProblemCode = keyof typeof renderProblems;
export const renderProblemCodes = Object.keys(renderProblems) as [RenderProblemCode, ...RenderProblemCode[]];

export function renderProblemText(code: RenderProblemCode, detail = ''): string {
  return renderProblems[code].message.replace('{detail}', detail);
}

export const renderStatusSchema = z.object({
  renderId: renderIdSchema,
  sessionId: z.string(),
  sourceId: z.string(),
  workerId: z.string(),
  state: z.enum(renderStates),
  problem: z
    .object({
      code: z.enum(renderProblemCodes),
      /** Words for the creator, shown under 'Preview unavailable'. */
      reason: z.string(),
      fault: z.enum(['user', 'service']),
    })
    .nullable(),
  /** How many times in a row the page failed; 0 while it is live. */
  attempt: z.number().int().nonnegative(),
  /** When the next attempt starts, for 'unavailable'. */
  retryAt: z.iso.datetime().nullable(),
  at: z.iso.datetime(),
});
export type RenderStatus = z.infer<typeof renderStatusSchema>;
