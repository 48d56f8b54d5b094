import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Redis } from 'ioredis';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  clientMessagePermissions,
  clientMessageSchema,
  findUnsafeText,
  GUEST_SOCKET_QUERY,
  OnAirError,
  unsafeTextMessage,
  WS_PATH,
  type ServerMessage,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ProjectAccess } from '../access/project-access.ts';
import { resolveCurrentUser, type CurrentUser, type GuestResolver, type SessionResolver } from '../http/auth-context.ts';
import { CLOSE_POLICY_VIOLATION, MessageBudget, SocketsPerUser, type SocketLimitsConfig } from './socket-limits.ts';
import type { ClientMessageHandlers, Feed, SocketHub, StudioClient, StudioSocketFeature } from './studio-feature.ts';

const HEARTBEAT_MS = 30_000;

interface StudioSocket extends StudioClient {
  ws: WebSocket;
  projects: Set<string>;
  channels: Set<string>;
  alive: boolean;
  budget: MessageBudget;
  /** The features were told it ended (at its close, or earlier when a feature closed it). */
  ended: boolean;
}

export interface StudioSocketsDeps {
  db: Db;
  /** A connection of its own: a Redis connection in subscriber mode can do nothing else. */
  subscriber: Redis;
  /** Every message of a project is checked against the sender's role (protocol's clientMessagePermissions). */
  access: ProjectAccess;
  resolveSession: SessionResolver;
  /** Guests by link: a socket opened with `?as=guest` is the guest of its guest-session cookie. */
  resolveGuest?: GuestResolver;
  /** Upgrades on other paths that another part of the server takes (overlay feeds); the rest get 404. */
  otherPath?: (path: string) => boolean;
  logger: Logger;
  publicUrl: string;
  /** What the features add: message handlers, feeds, open and close hooks. */
  features: readonly StudioSocketFeature[];
  /** From the api's WS_* settings (a WebRTC offer with camera, microphone, screen and preview m-lines runs to about 12 KB). */
  limits: SocketLimitsConfig;
}

/**
 * The `/ws` endpoint of the studio. A socket is opened with the session cookie and subscribes to
 * projects it may read; each api replica subscribes its Redis connection to the channels of the
 * projects its own sockets watch, so a patch accepted by any replica reaches every open studio.
 */
export class StudioSockets implements SocketHub {
  private readonly limits: SocketLimitsConfig;
  private readonly handlers: ClientMessageHandlers;
  /** The channels subscribed now, each with its feed and key (a project or a user). */
  private readonly subscribed = new Map<string, { feed: Feed; key: string }>();
  private readonly wss: WebSocketServer;
  private readonly perUser: SocketsPerUser;
  private readonly clients = new Set<StudioSocket>();
  private readonly watchers = new Map<string, Set<StudioSocket>>();
  private readonly channelWatchers = new Map<string, Set<StudioSocket>>();
  /** Each user's sockets on this replica, for account events (a subscription change reaches every tab). */
  private readonly byUser = new Map<string, Set<StudioSocket>>();
  /** Settles once the user's feeds are subscribed on this replica (a failure is logged and settles it too). */
  private readonly userFeedsSubscribed = new Map<string, Promise<void>>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly deps: StudioSocketsDeps) {
    this.limits = deps.limits;
    // A larger message makes the library close that socket with 1009 and emit 'error' on it (handled in onConnection).
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.limits.maxMessageBytes });
    this.perUser = new SocketsPerUser(this.limits.maxSocketsPerUser);
    this.handlers = {};
    for (const feature of deps.features) {
      for (const type of Object.keys(feature.handlers ?? {}) as (keyof ClientMessageHandlers)[]) {
        if (this.handlers[type]) throw new Error(`two /ws features handle ${type}`);
      }
      Object.assign(this.handlers, feature.handlers);
    }
    deps.subscriber.on('message', (channel: string, message: string) => this.onRedisMessage(channel, message));
    this.heartbeat = setInterval(() => this.sweep(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Takes over HTTP upgrades to `/ws` on the api's server. */
  attach(server: Server): void {
    server.on('upgrade', (req, socket, head) => {
      const path = (req.url ?? '').split('?')[0];
      // Another part of the server's (overlay pages' feeds).
      if (path !== undefined && this.deps.otherPath?.(path)) return;
      if (path !== WS_PATH) {
        refuse(socket, 404, 'Not Found');
        return;
      }
      this.upgrade(req, socket, head).catch((err: unknown) => {
        this.deps.logger.error({ err }, 'websocket upgrade failed');
        refuse(socket, 500, 'Internal Server Error');
      });
    });
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const client of this.wss.clients) client.close(1001, 'server shutting down');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.watchers.clear();
    for (const feature of [...this.deps.features].reverse()) await feature.close?.();
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // Browsers send Origin on WebSocket handshakes and do not apply CORS to them: refuse other
    // sites so a page elsewhere cannot ride the creator's cookie (cross-site WebSocket hijacking).
    const origin = req.headers.origin;
    if (origin !== undefined && !this.sameSite(origin, req.headers.host)) {
      refuse(socket, 403, 'Forbidden');
      return;
    }
    const asGuest = new URLSearchParams((req.url ?? '').split('?')[1] ?? '').toString() === GUEST_SOCKET_QUERY;
    const user = asGuest ? ((await this.deps.resolveGuest?.(req)) ?? null) : await resolveCurrentUser(this.deps.db, this.deps.resolveSession, req);
    if (!user) {
      refuse(socket, 401, 'Unauthorized');
      return;
    }
    if (this.perUser.full(user.id)) {
      this.deps.logger.info({ userId: user.id, max: this.limits.maxSocketsPerUser }, 'websocket refused: too many sockets for one user');
      refuse(socket, 429, 'Too Many Requests');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, user));
  }

  private sameSite(origin: string, host: string | undefined): boolean {
    try {
      const o = new URL(origin);
      return o.origin === new URL(this.deps.publicUrl).origin || o.host === host;
    } catch {
      return false;
    }
  }

  private onConnection(ws: WebSocket, user: CurrentUser): void {
    // Errors of one socket (a message over the size limit, a broken frame) end that socket only:
    // the library closes it; without a listener the error would be thrown and stop the process.
    ws.on('error', (err: Error & { code?: string }) => {
      this.deps.logger.info({ userId: user.id, code: err.code, reason: err.message }, 'websocket closed for a protocol error');
    });
    // Two upgrades of one user may both pass the check before either connects: count here for sure.
    if (!this.perUser.add(user.id)) {
      ws.close(CLOSE_POLICY_VIOLATION, 'Too many open studio connections');
      return;
    }
    const client: StudioSocket = {
      ws,
      user,
      projects: new Set(),
      channels: new Set(),
      alive: true,
      budget: new MessageBudget(this.limits),
      ended: false,
      send: (message) => send(ws, message),
      watch: (projectId) => this.watch(client, projectId),
      unwatch: (projectId) => this.unwatch(client, projectId),
      watchChannel: (channelId) => this.watchChannel(client, channelId),
      unwatchChannel: (channelId) => this.unwatchChannel(client, channelId),
      close: (code, reason) => {
        this.ended(client);
        ws.close(code, reason);
      },
    };
    this.clients.add(client);
    const userFeedsReady = this.addUserSocket(client);
    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('message', (data: RawData) => {
      const verdict = client.budget.take();
      if (verdict === 'close') {
        this.deps.logger.info({ userId: user.id }, 'websocket closed: message rate exceeded');
        ws.close(CLOSE_POLICY_VIOLATION, 'Message rate exceeded');
        return;
      }
      if (verdict === 'refused') {
        if (client.budget.shouldTell())
          send(ws, { type: 'error', code: 'RATE_LIMITED', message: 'Messages are arriving too fast; some were ignored. Slow down and try again.' });
        return;
      }
      this.onClientMessage(client, data).catch((err: unknown) => {
        const error = err instanceof OnAirError ? err : new OnAirError('INTERNAL');
        if (error.fault === 'service') this.deps.logger.error({ err, userId: user.id }, 'websocket message failed');
        send(ws, { type: 'error', code: error.code, message: error.message });
      });
    });
    for (const feature of this.deps.features) feature.connected?.(client);
    ws.on('close', () => {
      this.perUser.remove(user.id);
      this.clients.delete(client);
      this.removeUserSocket(client);
      for (const projectId of client.projects) void this.unwatch(client, projectId);
      for (const channelId of client.channels) void this.unwatchChannel(client, channelId);
      this.ended(client);
    });
    // 'ready' once the user's feeds listen: what the user changes after it (a project made in another
    // tab, a plan bought) reaches this socket.
    void userFeedsReady.then(() => send(ws, { type: 'ready', userId: user.id }));
  }

  private async onClientMessage(client: StudioSocket, data: RawData): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(data.toString());
    } catch {
      throw new OnAirError('MALFORMED_JSON');
    }
    const unsafe = findUnsafeText(json);
    if (unsafe) throw new OnAirError('VALIDATION_FAILED', unsafeTextMessage('message', unsafe));
    const parsed = clientMessageSchema.safeParse(json);
    if (!parsed.success) throw new OnAirError('VALIDATION_FAILED', `The message is not valid: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    const message = parsed.data;
    const permission = clientMessagePermissions[message.type];
    if (permission && 'projectId' in message) await this.deps.access.require(client.user, message.projectId, permission);
    if (message.type === 'ping') {
      send(client.ws, { type: 'pong' });
      return;
    }
    if (message.type === 'unsubscribe') {
      await this.unwatch(client, message.projectId);
      return;
    }
    const handle = this.handlers[message.type] as ((client: StudioClient, message: unknown) => Promise<void>) | undefined;
    if (!handle) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'This server does not take that message.');
    await handle(client, message);
  }

  /** Tells the features a socket is gone, once (at its close, or when a feature closed it first). */
  private ended(client: StudioSocket): void {
    if (client.ended) return;
    client.ended = true;
    for (const feature of this.deps.features) feature.disconnected?.(client);
  }

  watchersOf(projectId: string): Iterable<StudioClient> {
    return this.watchers.get(projectId) ?? [];
  }

  socketsOf(userId: string): Iterable<StudioClient> {
    return [...(this.byUser.get(userId) ?? [])];
  }

  channelWatchersOf(channelId: string): Iterable<StudioClient> {
    return [...(this.channelWatchers.get(channelId) ?? [])];
  }

  private async subscribe(feeds: readonly Feed[], key: string): Promise<void> {
    const channels = feeds.map((feed) => {
      const channel = feed.channel(key);
      this.subscribed.set(channel, { feed, key });
      return channel;
    });
    if (channels.length > 0) await this.deps.subscriber.subscribe(...channels);
  }

  private async unsubscribe(feeds: readonly Feed[], key: string): Promise<void> {
    const channels = feeds.map((feed) => feed.channel(key));
    for (const channel of channels) this.subscribed.delete(channel);
    if (channels.length > 0) await this.deps.subscriber.unsubscribe(...channels);
  }

  private get projectFeeds(): Feed[] {
    return this.deps.features.flatMap((f) => f.projectFeeds ?? []);
  }

  private get userFeeds(): Feed[] {
    return this.deps.features.flatMap((f) => f.userFeeds ?? []);
  }

  private get channelFeeds(): Feed[] {
    return this.deps.features.flatMap((f) => f.channelFeeds ?? []);
  }

  private async watchChannel(client: StudioSocket, channelId: string): Promise<void> {
    client.channels.add(channelId);
    let set = this.channelWatchers.get(channelId);
    if (!set) {
      set = new Set();
      this.channelWatchers.set(channelId, set);
      await this.subscribe(this.channelFeeds, channelId);
    }
    set.add(client);
  }

  private async unwatchChannel(client: StudioSocket, channelId: string): Promise<void> {
    client.channels.delete(channelId);
    const set = this.channelWatchers.get(channelId);
    if (!set) return;
    set.delete(client);
    if (set.size === 0) {
      this.channelWatchers.delete(channelId);
      await this.unsubscribe(this.channelFeeds, channelId).catch(() => undefined);
    }
  }

  private async watch(client: StudioSocket, projectId: string): Promise<void> {
    client.projects.add(projectId);
    let set = this.watchers.get(projectId);
    if (!set) {
      set = new Set();
      this.watchers.set(projectId, set);
      await this.subscribe(this.projectFeeds, projectId);
    }
    set.add(client);
  }

  private async unwatch(client: StudioSocket, projectId: string): Promise<void> {
    client.projects.delete(projectId);
    const set = this.watchers.get(projectId);
    if (!set) return;
    set.delete(client);
    if (set.size === 0) {
      this.watchers.delete(projectId);
      await this.unsubscribe(this.projectFeeds, projectId).catch(() => undefined);
    }
  }

  private addUserSocket(client: StudioSocket): Promise<void> {
    const userId = client.user.id;
    let set = this.byUser.get(userId);
    if (!set) {
      set = new Set();
      this.byUser.set(userId, set);
      const subscribed = this.subscribe(this.userFeeds, userId).catch((err: unknown) =>
        this.deps.logger.warn({ err, userId }, 'account events not subscribed'),
      );
      this.userFeedsSubscribed.set(userId, subscribed);
    }
    set.add(client);
    return this.userFeedsSubscribed.get(userId) ?? Promise.resolve();
  }

  private removeUserSocket(client: StudioSocket): void {
    const userId = client.user.id;
    const set = this.byUser.get(userId);
    if (!set) return;
    set.delete(client);
    if (set.size === 0) {
      this.byUser.delete(userId);
      this.userFeedsSubscribed.delete(userId);
      this.unsubscribe(this.userFeeds, userId).catch(() => undefined);
    }
  }

  private onRedisMessage(channel: string, raw: string): void {
    const subscription = this.subscribed.get(channel);
    if (!subscription) return;
    try {
      subscription.feed.forward(subscription.key, raw, this);
    } catch (err) {
      this.deps.logger.error({ err, channel, feed: subscription.feed.name }, 'forwarding a published message failed');
    }
  }

  /** Drops sockets that did not answer the last ping (a laptop that went to sleep). */
  private sweep(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        client.ws.terminate();
        continue;
      }
      client.alive = false;
      client.ws.ping();
    }
  }
}

function send(ws: WebSocket, message: ServerMessage): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
