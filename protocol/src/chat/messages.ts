import { z } from 'zod';
import { chatDestinationEntrySchema, chatMessageSchema } from './chat.ts';
import { chatOnAirSchema, chatOnScreenSchema } from './on-screen.ts';

/**
 * `/ws` messages of the platform chat (spec §7 room data messages, served by the api instead of
 * the host's browser): Studio2PlatformChatSend → `chat.send`, Studio2PlatformChatRequestHistory →
 * `chat.history.request`, Studio2PlatformChatHistory → `chat.history`, Studio2PlatformChatMessage
 * → `chat.messages`, Studio2PlatformChatWritable → `chat.destinations` (which chats can be written to).
 */
export const chatClientMessageSchemas = [
  z.strictObject({
    type: z.literal('chat.send'),
    projectId: z.uuid(),
    /** Checked against spec §5 by the api (trimmed 1–200). */
    text: z.string().max(4000),
    /** Destination ids; each must be a chat that can send. */
    targets: z.array(z.uuid()).min(1).max(50),
  }),
  z.strictObject({ type: z.literal('chat.history.request'), projectId: z.uuid() }),
] as const;

export const chatServerMessageSchemas = [
  /** New or updated messages (an outbound message again when a platform's outcome arrives), oldest first. */
  z.strictObject({ type: z.literal('chat.messages'), projectId: z.uuid(), messages: z.array(chatMessageSchema) }),
  /** The project's chats: which exist, which can be written to, how each connector is doing; `live` is the broadcast's. */
  z.strictObject({ type: z.literal('chat.destinations'), projectId: z.uuid(), live: z.boolean(), destinations: z.array(chatDestinationEntrySchema) }),
  /** The recent non-private messages of the current broadcast, oldest first, with the chats. */
  z.strictObject({
    type: z.literal('chat.history'),
    projectId: z.uuid(),
    live: z.boolean(),
    destinations: z.array(chatDestinationEntrySchema),
    messages: z.array(chatMessageSchema),
  }),
  /** The chat message shown in the program changed (put on, replaced, taken off or timed out): null when none is. */
  z.strictObject({ type: z.literal('chat.onScreen'), projectId: z.uuid(), onScreen: chatOnScreenSchema.nullable() }),
  /** The session's pipeline has this showing on air (null: no lower third): relayed from the media worker's report. */
  z.strictObject({ type: z.literal('chat.onAir'), projectId: z.uuid(), onAir: chatOnAirSchema.nullable() }),
] as const;

export const chatServerMessageSchema = z.discriminatedUnion('type', [...chatServerMessageSchemas]);
export type ChatServerMessage = z.infer<typeof chatServerMessageSchema>;

const CHAT_CHANNEL = /^onair:projects:([0-9a-f-]{36}):chat$/;

/** Redis pub/sub channel of a project's chat messages, published as sent to browsers. */
export const chatChannels = {
  project: (projectId: string) => `onair:projects:${projectId}:chat`,
  projectOf: (channel: string): string | null => CHAT_CHANNEL.exec(channel)?.[1] ?? null,
} as const;
