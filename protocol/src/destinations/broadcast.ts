import { z } from 'zod';
import { outputStateSchema, pipelineErrorCodeSchema } from '../pipeline/ipc.ts';
import type { PlanId } from '../plans.ts';

/**
 * A broadcast's life (issue 8): idle → starting → live → ending → ended, and failed from any
 * state that is not over. The transitions are written here once; the api refuses any other.
 */
export const broadcastStates = ['idle', 'starting', 'live', 'ending', 'ended', 'failed'] as const;
export const broadcastStateSchema = z.enum(broadcastStates);
export type BroadcastState = z.infer<typeof broadcastStateSchema>;

export const broadcastTransitions: Record<BroadcastState, readonly BroadcastState[]> = {
  idle: ['starting', 'failed'],
  starting: ['live', 'ending', 'failed'],
  live: ['ending', 'failed'],
  ending: ['ended', 'failed'],
  ended: [],
  failed: [],
};

export function canTransitionBroadcast(from: BroadcastState, to: BroadcastState): boolean {
  return broadcastTransitions[from].includes(to);
}

/** A broadcast that still holds the project (a second Go Live is refused while one is). */
export function isBroadcastActive(state: BroadcastState): boolean {
  return state === 'starting' || state === 'live' || state === 'ending';
}

/** Spec §6: Free streams up to 10 hours, Premium and VIP 48. Legacy has the Free limit (the spec grants it nothing more). */
export const STREAM_LIMIT_HOURS: Record<PlanId, number> = { Free: 10, Premium: 48, VIP: 48, Legacy: 10 };
/** How long before the limit the studio warns that the broadcast will end. */
export const STREAM_LIMIT_WARNING_SECONDS = 10 * 60;

export function streamLimitSeconds(plan: PlanId): number {
  return STREAM_LIMIT_HOURS[plan] * 3600;
}

/**
 * One destination's output while live, as the studio shows it (status light, bitrate, reconnect
 * count). `state` is the pipeline's output state (connecting, live, reconnecting, failed, stopped);
 * `reason` is the creator's words for a failure, never the URL or key.
 */
export const destinationOutputSchema = z.object({
  destinationId: z.string(),
  state: outputStateSchema,
  bitrateKbps: z.number().nonnegative(),
  reconnects: z.number().int().nonnegative(),
  errorCode: pipelineErrorCodeSchema.optional(),
  reason: z.string().optional(),
});
export type DestinationOutput = z.infer<typeof destinationOutputSchema>;

export const broadcastViewSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  state: broadcastStateSchema,
  failureReason: z.string().nullable(),
  startedAt: z.iso.datetime().nullable(),
  endedAt: z.iso.datetime().nullable(),
  /** When the plan's stream-duration limit ends it; the studio warns STREAM_LIMIT_WARNING_SECONDS before. */
  endsAt: z.iso.datetime().nullable(),
  /** The destinations it pushes to, with their last reported health. */
  outputs: z.array(destinationOutputSchema),
  /** The recording of this broadcast (issue 19), when it was started with `record`. */
  recordingId: z.uuid().nullable().optional(),
});
export type BroadcastView = z.infer<typeof broadcastViewSchema>;

/** What preparing the platforms for a broadcast did, per OAuth destination (`/destinations/start-broadcast`). */
export const platformPreparationSchema = z.object({
  destinationId: z.uuid(),
  ok: z.boolean(),
  /** The platform's broadcast or live video id when one was created. */
  platformBroadcastId: z.string().nullable(),
  /** Why it failed, in the creator's words. */
  error: z.string().optional(),
});
export type PlatformPreparation = z.infer<typeof platformPreparationSchema>;
