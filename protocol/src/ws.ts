import { z } from 'zod';
import { errorCodes } from './errors.ts';
import { sceneOpSchema } from './scene/patch.ts';
import { destinationServerMessageSchemas } from './destinations/events.ts';
import { roomClientMessageSchemas, roomServerMessageSchemas } from './signaling/messages.ts';
import { renderStates } from './render/render-job.ts';
import { chatClientMessageSchemas, chatServerMessageSchemas } from './chat/messages.ts';
import { channelEventsClientMessageSchemas, channelEventsServerMessageSchema, eventServerMessageSchemas } from './events/events.ts';
import { entitlementsSchema, planIdSchema } from './plans.ts';
import { subscriptionViewSchema } from './http/billing.ts';
import { projectSummarySchema } from './http/projects.ts';
import type { ProjectPermission } from './signaling/roles.ts';
import { guestChatMessageSchema, guestSchema } from './guests/guests.ts';

/**
 * Messages on the api WebSocket `/ws`. The socket is opened with the session cookie; a studio then
 * subscribes to its project and receives every accepted scene patch of it, its own included, which
 * is how its optimistic edits are confirmed.
 */
export const WS_PATH = '/ws';

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('subscribe'), projectId: z.uuid() }),
  z.strictObject({ type: z.literal('unsubscribe'), projectId: z.uuid() }),
  z.strictObject({ type: z.literal('ping') }),
  /** WebRTC signaling of the studio (join, offer, ICE, leave). */
  ...roomClientMessageSchemas,
  /** Platform chat: send to chosen platforms, ask for the recent history. */
  ...chatClientMessageSchemas,
  /** The partner area's live events feed of a channel. */
  ...channelEventsClientMessageSchemas,
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/**
 * The permission of spec §6 each message of a project needs from the sender's project role, checked
 * by the api before it is handled; null for messages that touch no project (or only leave one).
 */
export const clientMessagePermissions: Record<ClientMessage['type'], ProjectPermission | null> = {
  subscribe: 'read project',
  unsubscribe: null,
  ping: null,
  'room.join': 'join room',
  'room.offer': 'join room',
  'room.ice': 'join room',
  'room.leave': null,
  // Writing in the platforms' chats speaks with the channel's own accounts: the people who run the
  // broadcast (host, co-host, an administrator acting for them) may; reading needs only the project.
  'chat.send': 'manage broadcast',
  'chat.history.request': 'read project',
  // A channel, not a project: the handler checks the channel capability (the events feed's).
  'channel.watch': null,
  'channel.unwatch': null,
};

export const serverMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready'), userId: z.string() }),
  /** Sent once the project's patches flow; `version` is the document version at that moment. */
  z.strictObject({ type: z.literal('subscribed'), projectId: z.uuid(), version: z.number().int().min(0) }),
  z.strictObject({ type: z.literal('scene.patched'), projectId: z.uuid(), version: z.number().int().min(1), ops: z.array(sceneOpSchema) }),
  /** The project got a new name (every open studio's header follows). */
  z.strictObject({ type: z.literal('project.renamed'), projectId: z.uuid(), name: z.string().trim().min(1).max(100) }),
  /** To every socket of a user who sees the project in their list: it was made or renamed (the Projects page follows). */
  z.strictObject({ type: z.literal('projects.changed'), change: z.enum(['created', 'renamed']), project: projectSummarySchema }),
  z.strictObject({ type: z.literal('error'), code: z.enum(errorCodes), message: z.string(), projectId: z.uuid().optional() }),
  /**
   * The user's subscription changed (checkout, cancel, renew, a renewal or its failure): every open
   * tab of that user takes the new role, entitlements and subscription (spec §4 "Role and
   * subscription update").
   */
  z.strictObject({
    type: z.literal('subscription.updated'),
    role: planIdSchema,
    entitlements: entitlementsSchema,
    subscription: subscriptionViewSchema.nullable(),
  }),
  z.strictObject({ type: z.literal('pong') }),
  /** Guest Chat: a message from someone in the room (spec §3 "in the room"). */
  z.strictObject({ type: z.literal('guest.chat'), projectId: z.uuid(), message: guestChatMessageSchema }),
  /** The guests in the room changed (one joined, left or was removed): the whole list. */
  z.strictObject({ type: z.literal('guests.changed'), projectId: z.uuid(), guests: z.array(guestSchema), maximum: z.number().int().min(0).nullable() }),
  /** A guest was turned away by the plan's guest limit: the host is told why (spec §6 maximum-guests). */
  z.strictObject({ type: z.literal('guest.refused'), projectId: z.uuid(), displayName: z.string(), maximum: z.number().int().min(0), message: z.string() }),
  /** To the guest's own sockets: the host removed them, their media stops. */
  z.strictObject({ type: z.literal('guest.removed'), projectId: z.uuid(), guestId: z.uuid(), message: z.string() }),
  /**
   * A web page source's render state, relayed from the render workers' `RenderStatus`; `reason` is
   * the words shown under 'Preview unavailable' when it is `refused` or `unavailable`.
   */
  z.strictObject({
    type: z.literal('render.status'),
    projectId: z.uuid(),
    sourceId: z.string().min(1).max(200),
    state: z.enum(renderStates),
    reason: z.string().optional(),
  }),
  /** Destination events (Added, Changed, Removed, Authenticated), broadcast state and output health. */
  ...destinationServerMessageSchemas,
  /** WebRTC signaling: joined, worker ready, answer, connection state. */
  ...roomServerMessageSchemas,
  /** Platform chat: messages, the chats and their connectors, history. */
  ...chatServerMessageSchemas,
  /** Events feed: new follows, subs, raids, cheers, tips and donations. */
  ...eventServerMessageSchemas,
  /** The partner area's live events feed of a watched channel. */
  channelEventsServerMessageSchema,
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
