import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  hasPermission,
  OnAirError,
  participantSignalSchema,
  signalingChannels,
  workerSignalSchema,
  type ClientMessage,
  type IceServer,
  type ProjectRole,
  type ServerMessage,
  type SessionStatus,
  type WorkerSignal,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { ProjectAccess } from '../access/project-access.ts';
import type { Logger } from '@onair/runtime';
import type { CurrentUser } from '../http/auth-context.ts';

/** Spec §4 "Room": the room is polled every 100 ms until available. */
const ROOM_POLL_MS = 100;
/** A placement takes a moment; a session in the queue longer than this waits for room, and the page is told. */
const WAITING_TOLD_AFTER_MS = 3000;
/** While joined, how often the session's owner is checked, so a failover is followed promptly. */
const OWNER_WATCH_MS = 500;
/** An offer published while no worker listens yet (a session just placed) is retried this long. */
const RELAY_RETRY_MS = 5000;

type RoomMessage = Extract<ClientMessage, { type: `room.${string}` }>;

export interface RoomSessions {
  open(projectId: string): Promise<SessionStatus>;
  status(projectId: string): Promise<SessionStatus>;
}

export interface RoomSignalingDeps {
  /** The project roles (spec §6): who may join a room. */
  access: ProjectAccess;
  db: Db;
  redis: Redis;
  /** A connection of its own, in subscriber mode. */
  subscriber: Redis;
  sessions: RoomSessions;
  logger: Logger;
  /** Told to every page that joins, for its peer connection. */
  iceServers?: IceServer[];
}

/** One browser socket as signaling sees it. */
export interface RoomClient {
  user: CurrentUser;
  send(message: ServerMessage): void;
}

interface Membership {
  client: RoomClient;
  projectId: string;
  participantId: string;
  role: ProjectRole;
  workerId: string | null;
  timer: NodeJS.Timeout | undefined;
  closed: boolean;
  /** The page was told its session waits for a worker (room.waiting), and not yet that one runs it. */
  waitingTold: boolean;
}

/**
 * The api's part of the studio's WebRTC signaling: checks the 'join room' permission, opens the
 * project's session when nobody did, waits for its worker, then relays offers and candidates to
 * whichever worker owns the session (through the project's Redis channel) and answers and states
 * back to the page. When the owner changes (failover), the page is told `room.ready` again with
 * the new worker and re-offers.
 */
export class RoomSignaling {
  private readonly members = new Map<RoomClient, Map<string, Membership>>();
  private readonly byParticipant = new Map<string, Membership>();

  constructor(private readonly deps: RoomSignalingDeps) {
    deps.subscriber.on('message', (channel: string, raw: string) => this.onWorkerMessage(channel, raw));
  }

  async handle(client: RoomClient, message: RoomMessage): Promise<void> {
    switch (message.type) {
      case 'room.join':
        await this.join(client, message.projectId);
        return;
      case 'room.offer': {
        const m = this.membership(client, message.projectId);
        await this.relay(m, {
          type: 'offer',
          ...this.who(m),
          peerId: message.peerId,
          sdp: message.sdp,
          tracks: message.tracks,
          previewMid: message.previewMid,
          guestMids: message.guestMids,
        });
        return;
      }
      case 'room.ice': {
        const m = this.membership(client, message.projectId);
        await this.relay(m, { type: 'ice', ...this.who(m), peerId: message.peerId, candidate: message.candidate });
        return;
      }
      case 'room.leave':
        await this.leave(client, message.projectId);
        return;
    }
  }

  /** The socket closed: every room it joined is left. */
  async disconnected(client: RoomClient): Promise<void> {
    for (const projectId of [...(this.members.get(client)?.keys() ?? [])]) await this.leave(client, projectId);
  }

  async close(): Promise<void> {
    for (const client of [...this.members.keys()]) await this.disconnected(client);
  }

  private async join(client: RoomClient, projectId: string): Promise<void> {
    const role = await this.roleOf(client.user, projectId);
    if (!hasPermission(role, 'join room')) {
      throw new OnAirError('FORBIDDEN', 'You cannot join this studio: your role in the project does not allow joining the room.');
    }
    const rooms = this.members.get(client) ?? new Map<string, Membership>();
    this.members.set(client, rooms);
    // Joining again (a reloaded page, a reconnect) starts afresh as a new participant.
    if (rooms.has(projectId)) await this.leave(client, projectId);
    const m: Membership = { client, projectId, participantId: randomUUID(), role: role!, workerId: null, timer: undefined, closed: false, waitingTold: false };
    rooms.set(projectId, m);
    this.byParticipant.set(m.participantId, m);
    await this.deps.subscriber.subscribe(signalingChannels.toParticipant(m.participantId));
    client.send({ type: 'room.joined', projectId, participantId: m.participantId, role: m.role, iceServers: this.deps.iceServers ?? [] });
    const status = await this.deps.sessions.status(projectId);
    if (status.state === 'stopped') {
      // Refused (the owner's plan has can-use-product off): the studio hears why, and is not left half in the room.
      await this.deps.sessions.open(projectId).catch(async (err: unknown) => {
        await this.leave(client, projectId);
        throw err;
      });
    }
    this.watch(m, ROOM_POLL_MS);
    this.deps.logger.info({ projectId, participantId: m.participantId, userId: client.user.id, role: m.role }, 'joined the room');
  }

  /** Polls the session until its worker runs it, then keeps following the owner. */
  private watch(m: Membership, delayMs: number): void {
    m.timer = setTimeout(() => {
      void this.checkOwner(m).finally(() => {
        if (!m.closed) this.watch(m, m.workerId === null ? ROOM_POLL_MS : OWNER_WATCH_MS);
      });
    }, delayMs);
  }

  private async checkOwner(m: Membership): Promise<void> {
    try {
      const status = await this.deps.sessions.status(m.projectId);
      if (status.state === 'stopped') {
        await this.deps.sessions.open(m.projectId);
        return;
      }
      if (status.state === 'waiting') {
        // In the queue, no worker has it (first placement, or its worker was lost and none has room):
        // whichever worker takes it next needs the page's offer, even the one it had before.
        m.workerId = null;
        if (!m.waitingTold && (status.waitingSinceMs ?? 0) >= WAITING_TOLD_AFTER_MS) {
          m.waitingTold = true;
          m.client.send({ type: 'room.waiting', projectId: m.projectId, waitingSinceMs: status.waitingSinceMs ?? 0 });
        }
        return;
      }
      const workerId = status.state === 'running' ? status.workerId : null;
      if (workerId === null || workerId === m.workerId) return;
      m.workerId = workerId;
      m.waitingTold = false;
      m.client.send({ type: 'room.ready', projectId: m.projectId, workerId });
    } catch (err) {
      this.deps.logger.warn({ err, projectId: m.projectId }, 'room owner check failed');
    }
  }

  private async leave(client: RoomClient, projectId: string): Promise<void> {
    const rooms = this.members.get(client);
    const m = rooms?.get(projectId);
    if (!rooms || !m) return;
    m.closed = true;
    clearTimeout(m.timer);
    rooms.delete(projectId);
    if (rooms.size === 0) this.members.delete(client);
    this.byParticipant.delete(m.participantId);
    await this.deps.subscriber.unsubscribe(signalingChannels.toParticipant(m.participantId)).catch(() => undefined);
    await this.deps.redis.publish(signalingChannels.toWorker(projectId), JSON.stringify(workerSignalSchema.parse({ type: 'leave', ...this.who(m) })));
  }

  private membership(client: RoomClient, projectId: string): Membership {
    const m = this.members.get(client)?.get(projectId);
    if (!m) throw new OnAirError('VALIDATION_FAILED', 'Join the room of this project before sending media.');
    return m;
  }

  private who(m: Membership): { projectId: string; participantId: string; userId: string; role: ProjectRole } {
    return { projectId: m.projectId, participantId: m.participantId, userId: m.client.user.id, role: m.role };
  }

  private async relay(m: Membership, signal: WorkerSignal): Promise<void> {
    const json = JSON.stringify(workerSignalSchema.parse(signal));
    const until = Date.now() + RELAY_RETRY_MS;
    for (;;) {
      const receivers = await this.deps.redis.publish(signalingChannels.toWorker(m.projectId), json);
      if (receivers > 0 || m.closed) return;
      if (Date.now() > until) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'The studio session is not running yet; try again in a moment.');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private onWorkerMessage(channel: string, raw: string): void {
    let signal;
    try {
      signal = participantSignalSchema.parse(JSON.parse(raw));
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, channel }, 'ignoring malformed signaling message');
      return;
    }
    const m = this.byParticipant.get(signal.participantId);
    if (!m || channel !== signalingChannels.toParticipant(m.participantId)) return;
    switch (signal.type) {
      case 'answer':
        m.client.send({ type: 'room.answer', projectId: m.projectId, peerId: signal.peerId, sdp: signal.sdp });
        return;
      case 'state':
        m.client.send({ type: 'room.state', projectId: m.projectId, peerId: signal.peerId, state: signal.state });
        return;
      case 'tiles':
        m.client.send({ type: 'room.tiles', projectId: m.projectId, peerId: signal.peerId, tiles: signal.tiles });
        return;
      case 'sendSize':
        m.client.send({ type: 'room.sendSize', projectId: m.projectId, peerId: signal.peerId, camera: signal.camera });
        return;
    }
  }

  /** Spec §6 roles; only the owner (host) exists so far. No role means no permission. */
  private async roleOf(user: CurrentUser, projectId: string): Promise<ProjectRole | null> {
    return this.deps.access.roleOf(user, projectId);
  }
}
