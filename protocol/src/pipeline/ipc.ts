import { z } from 'zod';
import { chatOnAirSchema, chatOnScreenDrawnSchema } from './lower-third.ts';
import { encoderSettingsSchema } from './encoder-ladder.ts';
import { planOutputSchema, renderPlanSchema } from './render-plan.ts';

/**
 * Bounds of the WebRTC inputs' jitter buffer latency (ms). Below the minimum a frame's packets,
 * paced out by the browser, no longer fit; above the maximum a sender is too late to show live.
 */
export const JITTER_LATENCY_MIN_MS = 40;
export const JITTER_LATENCY_MAX_MS = 400;
/** Until the worker has measured a session's senders. */
export const JITTER_LATENCY_DEFAULT_MS = 150;

/**
 * Typed messages between a media worker and one of its pipeline child processes (Node IPC
 * channel, `process.send`). The worker validates what it receives; the child validates what it is
 * told. Nothing else crosses that boundary.
 */

/** Error codes of the pipeline and its outputs. `user` faults are at the creator's destination. */
export const pipelineErrorCatalogue = {
  DESTINATION_REFUSED: { fault: 'user', message: 'The destination refused the stream. Check the stream key and that the channel may go live.' },
  /** Refused at a destination whose stream key OnAir set (Local, a linked or test-mode platform): there is no key for the creator to check. */
  DESTINATION_STREAM_REFUSED: {
    fault: 'user',
    message:
      'The destination did not accept this stream: it does not know the stream name OnAir gave it. Go live again; if it keeps happening, remove the destination and add it again.',
  },
  /** The server already has a publisher on this stream name (nginx-rtmp: NetStream.Publish.BadName, "Already publishing"). */
  DESTINATION_IN_USE: { fault: 'user', message: 'Another stream is already live on this address.' },
  DESTINATION_ADDRESS_REFUSED: {
    fault: 'user',
    message: "The destination's address now points at a private or local network, which this server does not stream to.",
  },
  DESTINATION_UNREACHABLE: { fault: 'user', message: 'The destination server could not be reached. Check the server address.' },
  DESTINATION_TLS_FAILED: { fault: 'user', message: 'The secure (RTMPS) connection to the destination could not be verified. Check the server address.' },
  DESTINATION_STALLED: { fault: 'user', message: 'The destination stopped accepting data.' },
  DESTINATION_LOST: { fault: 'user', message: 'The connection to the destination was lost and did not come back.' },
  PLAN_INVALID: { fault: 'service', message: 'The pipeline was given a plan it cannot render.' },
  PIPELINE_FAILED: { fault: 'service', message: 'The media pipeline failed.' },
  PIPELINE_CRASHED: { fault: 'service', message: 'The media pipeline process stopped unexpectedly.' },
  INPUT_FAILED: { fault: 'service', message: 'A source of the scene failed.' },
} as const satisfies Record<string, { fault: 'user' | 'service'; message: string }>;
export type PipelineErrorCode = keyof typeof pipelineErrorCatalogue;
export const pipelineErrorCodes = Object.keys(pipelineErrorCatalogue) as [PipelineErrorCode, ...PipelineErrorCode[]];
export const pipelineErrorCodeSchema = z.enum(pipelineErrorCodes);

/**
 * A destination output's life. `connecting` until the server accepted the publish; `live` while
 * bytes flow; `reconnecting` after a loss (its branch is cycled with backoff); `failed` when it
 * never connected for a user reason, or stayed down past the give-up window; `stopped` when removed.
 */
export const outputStates = ['connecting', 'live', 'reconnecting', 'failed', 'stopped'] as const;
export type OutputState = (typeof outputStates)[number];
export const outputStateSchema = z.enum(outputStates);
export const outputTransitions: Record<OutputState, readonly OutputState[]> = {
  connecting: ['live', 'reconnecting', 'failed', 'stopped'],
  live: ['reconnecting', 'failed', 'stopped'],
  reconnecting: ['live', 'reconnecting', 'failed', 'stopped'],
  failed: ['stopped'],
  stopped: [],
};

/** The pipeline process's life, forward only: a stopped or failed pipeline is replaced, never revived. */
export const pipelineStates = ['starting', 'playing', 'stopping', 'stopped', 'failed'] as const;
export type PipelineState = (typeof pipelineStates)[number];
export const pipelineStateSchema = z.enum(pipelineStates);
export const pipelineTransitions: Record<PipelineState, readonly PipelineState[]> = {
  starting: ['playing', 'stopping', 'failed'],
  playing: ['stopping', 'failed'],
  stopping: ['stopped', 'failed'],
  stopped: [],
  failed: [],
};

export const outputStatsSchema = z.object({
  id: z.string(),
  state: outputStateSchema,
  bytesSent: z.number().nonnegative(),
  bitrateKbps: z.number().nonnegative(),
  reconnects: z.number().int().nonnegative(),
  errorCode: pipelineErrorCodeSchema.optional(),
});
export type OutputStats = z.infer<typeof outputStatsSchema>;

export const sessionStatsSchema = z.object({
  sessionId: z.string(),
  at: z.iso.datetime(),
  state: pipelineStateSchema,
  fps: z.number().nonnegative(),
  framesOut: z.number().int().nonnegative(),
  droppedFrames: z.number().int().nonnegative(),
  /** Sum of the outputs' send rates. */
  bitrateKbps: z.number().nonnegative(),
  /** Last render-plan version applied. */
  planVersion: z.number().int().nonnegative(),
  outputs: z.array(outputStatsSchema),
  /** What the encoder does now, read from the encoder itself (it steps down when the worker runs out of CPU). */
  encoder: encoderSettingsSchema.optional(),
  /** Since when the program shows the holding slate (every live source dropped), or null. */
  slateSince: z.iso.datetime().nullable().optional(),
  /** The file the pipeline records to now (a part of the broadcast's recording), when it records. */
  recordingPath: z.string().optional(),
});
export type SessionStats = z.infer<typeof sessionStatsSchema>;

/** How a destination output retries; defaults are what platforms tolerate, tests shorten them. */
export const outputPolicySchema = z.object({
  /** Delays between reconnection attempts of one output, the last one repeated. */
  backoffMs: z.array(z.number().int().positive()).min(1).default([500, 1000, 2000, 3000]),
  /** A live output whose sent byte count does not move for this long is reconnected. */
  stallAfterMs: z.number().int().positive().default(5000),
  /** An output down for this long is removed and reported failed. */
  giveUpAfterMs: z.number().int().positive().default(120_000),
});
export type OutputPolicy = z.infer<typeof outputPolicySchema>;

export const pipelineStartConfigSchema = z.object({
  sessionId: z.string().min(1),
  planVersion: z.number().int().nonnegative().default(0),
  plan: renderPlanSchema,
  outputPolicy: outputPolicySchema.prefault({}),
  /** Where a .dot graph of the pipeline is written when it errors; none when omitted. */
  dotDir: z.string().optional(),
  /** The encoder's step on its ladder (encoder-ladder.ts); a restarted pipeline keeps the step it had. */
  encoderStep: z.number().int().nonnegative().default(0),
  /** Latency of the WebRTC inputs' jitter buffers (ms), as the worker measured the senders need it; the default until measured. */
  jitterLatencyMs: z.number().int().min(JITTER_LATENCY_MIN_MS).max(JITTER_LATENCY_MAX_MS).optional(),
  /**
   * Outputs that were connected in this session's previous pipeline process (a rebuild or a crash
   * restart): the platform may still hold the old connection for a moment and refuse the new one
   * ('Already publishing'), so such an output reconnects with backoff instead of failing fast as a
   * new destination with a wrong key would.
   */
  continuingOutputs: z.array(z.string()).default([]),
  /**
   * Loopback ports where the worker takes each canvas's encoded program as FLV (its destinations'
   * RTMP connections live in the worker and outlive this process); none: the program has no outputs.
   */
  outputPorts: z.object({ horizontal: z.number().int().min(1).max(65535), vertical: z.number().int().min(1).max(65535) }).optional(),
});
export type PipelineStartConfig = z.infer<typeof pipelineStartConfigSchema>;
export type PipelineStartConfigInput = z.input<typeof pipelineStartConfigSchema>;

export const pipelineCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), config: pipelineStartConfigSchema }),
  /** The whole plan at `version`; the child applies only what changed (pad properties, outputs). */
  z.object({ type: z.literal('applyPlan'), version: z.number().int().nonnegative(), plan: renderPlanSchema }),
  z.object({ type: z.literal('setOutputs'), outputs: z.array(planOutputSchema) }),
  /** Start recording into this folder (a new part), or stop (null); the outputs are untouched. */
  z.object({ type: z.literal('setRecording'), recording: z.object({ dir: z.string().startsWith('/') }).nullable() }),
  /** Re-set the live encoder at this step of its ladder (cheaper when higher); outputs stay connected. */
  z.object({ type: z.literal('encoderStep'), step: z.number().int().nonnegative() }),
  /** Re-set the jitter buffers of every WebRTC input to this latency; the pipeline's latency follows. */
  z.object({ type: z.literal('jitterLatency'), ms: z.number().int().min(JITTER_LATENCY_MIN_MS).max(JITTER_LATENCY_MAX_MS) }),
  /**
   * Who is in the session changed: the same plan version planned again (RenderPlan.absentInputs,
   * and scenes that follow a layout re-flowed without the people away). Its inputs are the same.
   */
  z.object({ type: z.literal('presence'), plan: renderPlanSchema }),
  /** Draws this chat message as the lower third over the program, or none (null): one property write, no plan. */
  z.object({ type: z.literal('chatOnScreen'), chatOnScreen: chatOnScreenDrawnSchema.nullable() }),
  /** A destination (in the worker) connected: the canvas's encoder makes a keyframe now. */
  z.object({ type: z.literal('keyframe'), canvas: z.enum(['horizontal', 'vertical']) }),
  z.object({ type: z.literal('stop') }),
]);
export type PipelineCommand = z.infer<typeof pipelineCommandSchema>;

export const pipelineReportSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('state'), state: pipelineStateSchema }),
  z.object({ type: z.literal('planApplied'), version: z.number().int().nonnegative() }),
  /** The lower third the program draws from now on (null: none); the studio says 'On screen' from it. */
  z.object({ type: z.literal('chatOnScreenApplied'), onAir: chatOnAirSchema.nullable() }),
  z.object({
    type: z.literal('outputStatus'),
    outputId: z.string(),
    state: outputStateSchema,
    errorCode: pipelineErrorCodeSchema.optional(),
    /** Words for the creator, from the catalogue; never the URL. */
    reason: z.string().optional(),
  }),
  z.object({ type: z.literal('stats'), stats: sessionStatsSchema }),
  z.object({ type: z.literal('error'), code: pipelineErrorCodeSchema, message: z.string(), fatal: z.boolean() }),
  /**
   * A live input's decoder lost data after the network (packets its jitter buffer gave up on):
   * its picture is damaged until the sender's next keyframe, so the worker asks the sender for one.
   */
  z.object({ type: z.literal('keyframeWanted'), inputId: z.string() }),
]);
export type PipelineReport = z.infer<typeof pipelineReportSchema>;

/** Redis keys and channels where a worker publishes session status for the api. */
export const sessionStatusKeys = {
  /** Latest stats of a session, JSON, with a TTL. */
  stats: (sessionId: string) => `onair:sessions:${sessionId}:stats`,
  /** Pub/sub channel of a session's reports (stats, output status, errors). */
  channel: (sessionId: string) => `onair:sessions:${sessionId}:status`,
} as const;
