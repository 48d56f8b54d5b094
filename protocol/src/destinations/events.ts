import { z } from 'zod';
import { broadcastViewSchema, destinationOutputSchema } from './broadcast.ts';
import { destinationViewSchema } from './schemas.ts';
import { encoderSettingsSchema } from '../pipeline/encoder-ladder.ts';
import { ingestFeedMessageSchema, ingestStatusMessageSchema } from '../ingest/http.ts';

/** Spec §4 destination events, pushed to every open studio of the project. */
export const destinationEventKinds = ['Added', 'Changed', 'Removed', 'Authenticated'] as const;
export const destinationEventKindSchema = z.enum(destinationEventKinds);
export type DestinationEventKind = z.infer<typeof destinationEventKindSchema>;

/**
 * `/ws` messages of destinations and broadcasts. The api publishes each one, as it is sent to
 * browsers, on the project's destinations channel; every replica forwards it to its sockets
 * subscribed to that project.
 */
export const destinationEventMessageSchema = z.strictObject({
  type: z.literal('destination.event'),
  projectId: z.uuid(),
  event: destinationEventKindSchema,
  destinationId: z.uuid(),
  /** The destination after the change; null when Removed. */
  destination: destinationViewSchema.nullable(),
});

export const broadcastStateMessageSchema = z.strictObject({
  type: z.literal('broadcast.state'),
  projectId: z.uuid(),
  broadcast: broadcastViewSchema,
});

/** Per-destination output health relayed from the session's pipeline (about once a second while live). */
export const broadcastHealthMessageSchema = z.strictObject({
  type: z.literal('broadcast.health'),
  projectId: z.uuid(),
  broadcastId: z.uuid(),
  at: z.iso.datetime(),
  outputs: z.array(destinationOutputSchema),
  /** The session's encoder now: a step above 0 means the worker ran short of CPU and the stream is encoded cheaper. */
  encoder: encoderSettingsSchema.optional(),
});

/** Ingest status and feed reports travel on the same project channel (Auto Live starts and ends broadcasts). */
export const destinationServerMessageSchemas = [
  destinationEventMessageSchema,
  broadcastStateMessageSchema,
  broadcastHealthMessageSchema,
  ingestStatusMessageSchema,
  ingestFeedMessageSchema,
] as const;
export const destinationServerMessageSchema = z.discriminatedUnion('type', [...destinationServerMessageSchemas]);
export type DestinationServerMessage = z.infer<typeof destinationServerMessageSchema>;

const DESTINATIONS_CHANNEL = /^onair:projects:([0-9a-f-]{36}):destinations$/;

/** Redis pub/sub channel of a project's destination and broadcast messages. */
export const destinationChannels = {
  project: (projectId: string) => `onair:projects:${projectId}:destinations`,
  /** The project of a destinations channel, or null for any other channel. */
  projectOf: (channel: string): string | null => DESTINATIONS_CHANNEL.exec(channel)?.[1] ?? null,
} as const;
