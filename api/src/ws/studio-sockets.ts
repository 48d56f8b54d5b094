import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Redis } from 'ioredis';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  acceptedScenePatchSchema,
  chatChannels,
  chatServerMessageSchema,
  eventChannels,
  eventServerMessageSchema,
  clientMessagePermissions,
  clientMessageSchema,
  destinationChannels,
  findUnsafeText,
  GUEST_SOCKET_QUERY,
  guestChannels,
  unsafeTextMessage,
  destinationServerMessageSchema,
  OnAirError,
  projectChannels,
  renderKeys,
  renderStatusSchema,
  serverMessageSchema,
  userAccountChannel,
  WS_PATH,
  type ServerMessage,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { resolveCurrentUser, type CurrentUser, type GuestResolver, type SessionResolver } from '../http/auth-context.ts';
import { GUEST_GRACE_MS, type GuestService } from '../guests/guest-service.ts';
import type { ProjectAccess } from '../access/project-access.ts';
import type { SceneService } from '../scenes/scene-service.ts';
import { isOverlayFeedPath } from '../overlays/overlay-feed.ts';
import type { RoomClient, RoomSignaling } from '../signaling/room-signaling.ts';
import type { ChatService } from '../chat/chat-service.ts';
import { CLOSE_POLICY_VIOLATION, MessageBudget, SocketsPerUser, type SocketLimitsConfig } from './socket-limits.ts';

const HEARTBEAT_MS = 30_000;
/** A studio session's id is its project's id, so a project's pages report on `renderKeys.status(projectId)`. */
const RENDER_STATUS_PREFIX = renderKeys.status('');

interface StudioSocket {
  ws: WebSocket;
  user: CurrentUser;
  projects: Set<string>;
  alive: boolean;
  room: RoomClient;
  budget: MessageBudget;
}

export interface StudioSocketsDeps {
  db: Db;
  /** A connection of its own: a Redis connection in subscriber mode can do nothing else. */
  subscriber: Redis;
  scenes: SceneService;
  /** Every message of a project is checked against the sender's role (protocol's clientMessagePermissions). */
  access: ProjectAccess;
  resolveSession: SessionResolver;
  logger: Logger;
  publicUrl: string;
  /** WebRTC signaling (`room.*` messages); without it they are refused. */
  room?: RoomSignaling;
  /** Platform chat (`chat.*` messages); without it they are refused. */
  chat?: ChatService;
  /** Guests by link: a socket opened with `?as=guest` is the guest of its guest-session cookie. */
  guests?: { service: GuestService; resolve: GuestResolver; redis: Redis };
  /** From the api's WS_* settings (a WebRTC offer with camera, microphone, screen and preview m-lines runs to about 12 KB). */
  limits: SocketLimitsConfig;
}

/**
 * The `/ws` endpoint of the studio. A socket is opened with the session cookie and subscribes to
 * projects it may read; each api replica subscribes its Redis connection to the channels of the
 * projects its own sockets watch, so a patch accepted by any replica reaches every open studio.
 */
export class StudioSockets {
  private readonly limits: SocketLimitsConfig;
  private readonly wss: WebSocketServer;
  private readonly perUser: SocketsPerUser;
  private readonly clients = new Set<StudioSocket>();
  private readonly watchers = new Map<string, Set<StudioSocket>>();
  /** Each user's sockets on this replica, for account events (a subscription change reaches every tab). */
  private readonly byUser = new Map<string, Set<StudioSocket>>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly deps: StudioSocketsDeps) {
    this.limits = deps.limits;
    // A larger message makes the library close that socket with 1009 and emit 'error' on it (handled in onConnection).
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.limits.maxMessageBytes });
    this.perUser = new SocketsPerUser(this.limits.maxSocketsPerUser);
    deps.subscriber.on('message', (channel: string, message: string) => this.onRedisMessage(channel, message));
    this.heartbeat = setInterval(() => this.sweep(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Takes over HTTP upgrades to `/ws` on the api's server. */
  attach(server: Server): void {
    server.on('upgrade', (req, socket, head) => {
      const path = (req.url ?? '').split('?')[0];
      // Overlay pages' feeds are OverlayFeed's, on the same server.
      if (path !== undefined && isOverlayFeedPath(path)) return;
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
    const user = asGuest ? ((await this.deps.guests?.resolve(req)) ?? null) : await resolveCurrentUser(this.deps.db, this.deps.resolveSession, req);
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
      alive: true,
      room: { user, send: (message) => send(ws, message) },
      budget: new MessageBudget(this.limits),
    };
    this.clients.add(client);
    this.addUserSocket(client);
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
        if (client.budget.shouldTell()) send(ws, { type: 'error', code: 'RATE_LIMITED', message: 'Messages are arriving too fast; some were ignored. Slow down and try again.' });
        return;
      }
      this.onClientMessage(client, data).catch((err: unknown) => {
        const error = err instanceof OnAirError ? err : new OnAirError('INTERNAL');
        if (error.fault === 'service') this.deps.logger.error({ err, userId: user.id }, 'websocket message failed');
        send(ws, { type: 'error', code: error.code, message: error.message });
      });
    });
    if (user.guest) this.guestPresence(user, +1);
    ws.on('close', () => {
      if (user.guest) this.guestPresence(user, -1);
      this.perUser.remove(user.id);
      this.clients.delete(client);
      this.removeUserSocket(client);
      for (const projectId of client.projects) void this.unwatch(client, projectId);
      this.deps.room?.disconnected(client.room).catch((err: unknown) => this.deps.logger.warn({ err, userId: user.id }, 'room not left'));
    });
    send(ws, { type: 'ready', userId: user.id });
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
    switch (message.type) {
      case 'ping':
        send(client.ws, { type: 'pong' });
        return;
      case 'unsubscribe':
        await this.unwatch(client, message.projectId);
        return;
      case 'subscribe': {
        await this.watch(client, message.projectId);
        // Read after the Redis subscription is live: any later version is sure to be delivered.
        const { version } = await this.deps.scenes.assertAccess(client.user, message.projectId);
        send(client.ws, { type: 'subscribed', projectId: message.projectId, version });
        return;
      }
      case 'room.join':
      case 'room.offer':
      case 'room.ice':
      case 'room.leave':
        if (!this.deps.room) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'Media is not available on this server.');
        await this.deps.room.handle(client.room, message);
        return;
      case 'chat.send':
        if (!this.deps.chat) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'Platform chat is not available on this server.');
        await this.deps.chat.send(client.user, message.projectId, message.text, message.targets);
        return;
      case 'chat.history.request':
        if (!this.deps.chat) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'Platform chat is not available on this server.');
        send(client.ws, await this.deps.chat.history(message.projectId));
        return;
    }
  }

  private async watch(client: StudioSocket, projectId: string): Promise<void> {
    client.projects.add(projectId);
    let set = this.watchers.get(projectId);
    if (!set) {
      set = new Set();
      this.watchers.set(projectId, set);
      await this.deps.subscriber.subscribe(...projectChannelsOf(projectId));
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
      await this.deps.subscriber.unsubscribe(...projectChannelsOf(projectId)).catch(() => undefined);
    }
  }

  private addUserSocket(client: StudioSocket): void {
    const userId = client.user.id;
    let set = this.byUser.get(userId);
    if (!set) {
      set = new Set();
      this.byUser.set(userId, set);
      this.deps.subscriber.subscribe(userAccountChannel(userId)).catch((err: unknown) => this.deps.logger.warn({ err, userId }, 'account events not subscribed'));
    }
    set.add(client);
  }

  private removeUserSocket(client: StudioSocket): void {
    const userId = client.user.id;
    const set = this.byUser.get(userId);
    if (!set) return;
    set.delete(client);
    if (set.size === 0) {
      this.byUser.delete(userId);
      this.deps.subscriber.unsubscribe(userAccountChannel(userId)).catch(() => undefined);
    }
  }

  /** A user's account event (subscription.updated), checked before it goes to each of their sockets. */
  private forwardAccountEvent(userId: string, raw: string): void {
    let message: ServerMessage;
    try {
      message = serverMessageSchema.parse(JSON.parse(raw));
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, userId }, 'ignoring malformed account message');
      return;
    }
    if (message.type !== 'subscription.updated') return;
    for (const client of this.byUser.get(userId) ?? []) send(client.ws, message);
  }

  private onRedisMessage(channel: string, raw: string): void {
    const accountOf = /^onair:users:(.+):account$/.exec(channel)?.[1];
    if (accountOf !== undefined && channel === userAccountChannel(accountOf)) {
      this.forwardAccountEvent(accountOf, raw);
      return;
    }
    const destinationsOf = destinationChannels.projectOf(channel);
    if (destinationsOf !== null) {
      this.forwardDestinationMessage(destinationsOf, raw);
      return;
    }
    const chatOf = chatChannels.projectOf(channel);
    if (chatOf !== null) {
      this.forwardChatMessage(chatOf, raw);
      return;
    }
    const eventsOf = eventChannels.projectOf(channel);
    if (eventsOf !== null) {
      this.forwardEventMessage(eventsOf, raw);
      return;
    }
    const roomOf = /^onair:projects:([^:]+):room$/.exec(channel)?.[1];
    if (roomOf !== undefined && channel === guestChannels.room(roomOf)) {
      this.forwardRoomEvent(roomOf, raw);
      return;
    }
    const detailsOf = /^onair:projects:([^:]+):details$/.exec(channel)?.[1];
    if (detailsOf !== undefined && channel === projectChannels.details(detailsOf)) {
      this.forwardProjectDetails(detailsOf, raw);
      return;
    }
    if (channel.startsWith(RENDER_STATUS_PREFIX)) {
      this.forwardRenderStatus(channel.slice(RENDER_STATUS_PREFIX.length), raw);
      return;
    }
    let accepted;
    try {
      accepted = acceptedScenePatchSchema.parse(JSON.parse(raw));
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, channel }, 'ignoring malformed scene patch message');
      return;
    }
    if (channel !== projectChannels.scene(accepted.projectId)) return;
    const message: ServerMessage = { type: 'scene.patched', projectId: accepted.projectId, version: accepted.version, ops: accepted.ops };
    for (const client of this.watchers.get(accepted.projectId) ?? []) send(client.ws, message);
  }

  /** Destination events, broadcast state and output health: published as sent, checked before forwarding. */
  private forwardDestinationMessage(projectId: string, raw: string): void {
    let message: ServerMessage;
    try {
      message = destinationServerMessageSchema.parse(JSON.parse(raw));
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, projectId }, 'ignoring malformed destination message');
      return;
    }
    if (message.projectId !== projectId) return;
    for (const client of this.watchers.get(projectId) ?? []) send(client.ws, message);
  }

  /** Chat messages and connector states, published as sent, checked once before forwarding. */
  private forwardChatMessage(projectId: string, raw: string): void {
    const watchers = this.watchers.get(projectId);
    if (!watchers || watchers.size === 0) return;
    let message: ServerMessage;
    try {
      message = chatServerMessageSchema.parse(JSON.parse(raw));
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, projectId }, 'ignoring malformed chat message');
      return;
    }
    if (message.projectId !== projectId) return;
    const text = JSON.stringify(message);
    for (const client of watchers) if (client.ws.readyState === WebSocket.OPEN) client.ws.send(text);
  }

  /** New events of the feed, published as sent, checked once before forwarding. */
  private forwardEventMessage(projectId: string, raw: string): void {
    const watchers = this.watchers.get(projectId);
    if (!watchers || watchers.size === 0) return;
    let message: ServerMessage;
    try {
      message = eventServerMessageSchema.parse(JSON.parse(raw));
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, projectId }, 'ignoring malformed events message');
      return;
    }
    if (message.projectId !== projectId) return;
    const text = JSON.stringify(message);
    for (const client of watchers) if (client.ws.readyState === WebSocket.OPEN) client.ws.send(text);
  }

  /** A change to the project itself (its name), checked before forwarding. */
  private forwardProjectDetails(projectId: string, raw: string): void {
    let message: ServerMessage;
    try {
      message = serverMessageSchema.parse(JSON.parse(raw));
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, projectId }, 'ignoring malformed project message');
      return;
    }
    if (message.type !== 'project.renamed' || message.projectId !== projectId) return;
    for (const client of this.watchers.get(projectId) ?? []) send(client.ws, message);
  }

  /**
   * Guest Chat and the guests of the room, checked before forwarding. A removed guest's own sockets
   * are told, leave the room (their media stops) and close; the host hears of a guest turned away.
   */
  private forwardRoomEvent(projectId: string, raw: string): void {
    let message: ServerMessage;
    try {
      message = serverMessageSchema.parse(JSON.parse(raw));
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, projectId }, 'ignoring malformed room message');
      return;
    }
    if (!('projectId' in message) || message.projectId !== projectId) return;
    if (message.type === 'guest.removed') {
      // Every socket of that guest on this replica, whether or not it watches the project yet.
      for (const client of [...(this.byUser.get(message.guestId) ?? [])]) {
        if (client.user.guest?.projectId !== projectId) continue;
        send(client.ws, message);
        void this.deps.room?.disconnected(client.room).catch((err: unknown) => this.deps.logger.warn({ err, projectId }, 'removed guest not taken out of the room'));
        client.ws.close(CLOSE_POLICY_VIOLATION, 'Removed from the studio');
      }
      return;
    }
    for (const client of this.watchers.get(projectId) ?? []) {
      if (message.type === 'guest.chat' || message.type === 'guests.changed') send(client.ws, message);
      else if (message.type === 'guest.refused' && !client.user.guest) send(client.ws, message);
    }
  }

  /**
   * Counts a guest's open sockets across replicas: when the last one closes and none comes back
   * within the grace period (a reload, a network blip), the guest has left and their seat is free.
   */
  private guestPresence(user: CurrentUser, delta: 1 | -1): void {
    const guests = this.deps.guests;
    const projectId = user.guest?.projectId;
    if (!guests || !projectId) return;
    const key = `onair:guests:${user.id}:sockets`;
    void (async () => {
      const open = await guests.redis.incrby(key, delta);
      await guests.redis.expire(key, 86_400);
      if (open > 0) return;
      setTimeout(() => {
        void (async () => {
          const still = Number((await guests.redis.get(key)) ?? '0');
          if (still <= 0) await guests.service.markLeft(user.id, projectId);
        })().catch((err: unknown) => this.deps.logger.warn({ err, projectId }, 'guest presence not updated'));
      }, GUEST_GRACE_MS).unref();
    })().catch((err: unknown) => this.deps.logger.warn({ err, projectId }, 'guest presence not counted'));
  }

  /** A render worker's page status, checked and cut down to what the studio shows. */
  private forwardRenderStatus(projectId: string, raw: string): void {
    let status;
    try {
      status = renderStatusSchema.parse(JSON.parse(raw));
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, projectId }, 'ignoring malformed render status');
      return;
    }
    if (status.sessionId !== projectId || status.renderId !== `${projectId}.${status.sourceId}`) return;
    const message: ServerMessage = {
      type: 'render.status',
      projectId,
      sourceId: status.sourceId,
      state: status.state,
      ...(status.problem ? { reason: status.problem.reason } : {}),
    };
    for (const client of this.watchers.get(projectId) ?? []) send(client.ws, message);
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

/** The Redis channels a replica listens on while one of its sockets watches the project. */
function projectChannelsOf(projectId: string): [string, string, string, string, string, string, string] {
  return [
    projectChannels.scene(projectId),
    projectChannels.details(projectId),
    destinationChannels.project(projectId),
    renderKeys.status(projectId),
    chatChannels.project(projectId),
    eventChannels.project(projectId),
    guestChannels.room(projectId),
  ];
}

function send(ws: WebSocket, message: ServerMessage): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
