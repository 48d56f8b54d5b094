// What a feature adds to the studio's `/ws`: handlers of its client messages, the Redis channels it
// publishes on (forwarded to the sockets that watch a project, or to a user's sockets), and what
// it does when a socket opens or closes. The socket server (studio-sockets.ts) owns the transport —
// upgrade, sign-in, limits, subscriptions — and knows no feature; sockets.ts lists the features.
import type { z } from 'zod';
import type { ClientMessage, ServerMessage } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { CurrentUser } from '../http/auth-context.ts';

/** One open studio socket, as the features see it. */
export interface StudioClient {
  readonly user: CurrentUser;
  send(message: ServerMessage): void;
  /** From now on this socket receives the project's feeds (the caller has checked its access). */
  watch(projectId: string): Promise<void>;
  unwatch(projectId: string): Promise<void>;
  /** From now on this socket receives the partner channel's feeds (the caller has checked its access). */
  watchChannel(channelId: string): Promise<void>;
  unwatchChannel(channelId: string): Promise<void>;
  /** Ends the socket now: the features' `disconnected` run at once, then the close handshake. */
  close(code: number, reason: string): void;
}

/** The sockets of this api replica, for a feed to deliver to. */
export interface SocketHub {
  /** The sockets watching a project. */
  watchersOf(projectId: string): Iterable<StudioClient>;
  /** Every socket of a user (a guest's id is their user id), watching or not. */
  socketsOf(userId: string): Iterable<StudioClient>;
  /** The sockets watching a partner channel. */
  channelWatchersOf(channelId: string): Iterable<StudioClient>;
}

/** A Redis channel per key (a project, a user) whose messages a feature forwards to sockets. */
export interface Feed {
  readonly name: string;
  channel(key: string): string;
  /** Called with each message of `channel(key)`. */
  forward(key: string, raw: string, hub: SocketHub): void;
}

type Handler<T extends ClientMessage['type']> = (client: StudioClient, message: Extract<ClientMessage, { type: T }>) => Promise<void>;

/** Handlers of client messages by type; the access each needs is checked before (protocol's clientMessagePermissions). */
export type ClientMessageHandlers = { [T in ClientMessage['type']]?: Handler<T> };

export interface StudioSocketFeature {
  readonly name: string;
  readonly handlers?: ClientMessageHandlers;
  /** Subscribed while a socket of this replica watches the project. */
  readonly projectFeeds?: readonly Feed[];
  /** Subscribed while a socket of the user is open on this replica. */
  readonly userFeeds?: readonly Feed[];
  /** Subscribed while a socket of this replica watches the partner channel. */
  readonly channelFeeds?: readonly Feed[];
  connected?(client: StudioClient): void;
  disconnected?(client: StudioClient): void;
  close?(): Promise<void> | void;
}

/** A feature's part of `/ws`, built from the composition when the socket server starts. */
export interface StudioSocketPart<D> {
  readonly name: string;
  readonly build: (deps: D) => StudioSocketFeature;
}

/** A published message checked with its schema; a malformed one is logged and dropped. */
export function parsePublished<S extends z.ZodType>(schema: S, raw: string, logger: Logger, what: string, context: Record<string, unknown>): z.infer<S> | null {
  try {
    return schema.parse(JSON.parse(raw)) as z.infer<S>;
  } catch (err) {
    logger.warn({ err: (err as Error).message, ...context }, `ignoring malformed ${what}`);
    return null;
  }
}

/** Sends one message to each socket watching the project. */
export function toWatchers(hub: SocketHub, projectId: string, message: ServerMessage): void {
  for (const client of hub.watchersOf(projectId)) client.send(message);
}

/** A feed of server messages that carry their project: checked with `schema` and sent to the project's watchers as published. */
export function publishedAsIs(
  name: string,
  channel: (projectId: string) => string,
  schema: z.ZodType<ServerMessage & { projectId: string }>,
  logger: Logger,
): Feed {
  return {
    name,
    channel,
    forward: (projectId, raw, hub) => {
      const message = parsePublished(schema, raw, logger, `${name} message`, { projectId });
      if (message?.projectId === projectId) toWatchers(hub, projectId, message);
    },
  };
}
