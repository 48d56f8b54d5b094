// WebRTC signaling over /ws (issue 6): the 'join room' permission of spec §6 decides who may
// join, a join opens the project's session, and offers are relayed to the session's channel,
// which the owning media worker listens on; its answers come back to the page that offered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { isolatedRedisUrl } from '@onair/embedded/test-services';
import {
  participantSignalSchema,
  serverMessageSchema,
  queues,
  sessionKeys,
  signalingChannels,
  workerSignalSchema,
  type ServerMessage,
  type WorkerSignal,
} from '@onair/protocol';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let host: TestUser;
let stranger: TestUser;
let listener: Redis;
const sockets: WebSocket[] = [];

// A Redis database of its own: the test takes session jobs off the queue as a media worker would,
// which must not touch other files' jobs on the shared test Redis.
/** A database of this file's own: other files' workers run beside these. */
let redisUrl = '';
const ICE_SERVERS = [{ urls: 'stun:stun.example.test:3478' }, { urls: ['turn:turn.example.test:3478'], username: 'onair', credential: 'turn-secret' }];

beforeAll(async () => {
  redisUrl = await isolatedRedisUrl();
  api = await startStudioApi({ env: { REDIS_URL: redisUrl, WEBRTC_ICE_SERVERS: JSON.stringify(ICE_SERVERS) } });
  host = await createTestUser(api);
  stranger = await createTestUser(api);
  listener = new Redis(redisUrl);
});
afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  listener?.disconnect();
  await api?.close();
});

async function open(user: TestUser): Promise<{ ws: WebSocket; send: (m: unknown) => void; next: (type: ServerMessage['type']) => Promise<ServerMessage> }> {
  const ws = new WebSocket(api.wsUrl, { headers: { cookie: user.cookie } });
  sockets.push(ws);
  const messages: ServerMessage[] = [];
  ws.on('message', (data) => messages.push(serverMessageSchema.parse(JSON.parse(data.toString()))));
  let seen = 0;
  const next = async (type: ServerMessage['type']): Promise<ServerMessage> => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = messages.slice(seen).findIndex((m) => m.type === type);
      if (found >= 0) {
        seen += found + 1;
        return messages[seen - 1]!;
      }
      if (Date.now() > deadline) throw new Error(`no ${type} message; got ${JSON.stringify(messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await next('ready');
  return { ws, send: (m) => ws.send(JSON.stringify(m)), next };
}

async function newProject(user: TestUser): Promise<string> {
  const { body } = await call(api, user, 'POST', '/api/v1/projects', { name: 'Room' });
  return (body as { id: string }).id;
}

describe('room signaling', () => {
  it('refuses a user without the join room permission with a clear error, and one without a role as if there were no project', async () => {
    const projectId = await newProject(host);
    const stranger2 = await open(stranger);
    stranger2.send({ type: 'room.join', projectId });
    expect(await stranger2.next('error')).toMatchObject({ type: 'error', code: 'NOT_FOUND', message: 'This project does not exist.' });
    // The renderer role holds no permission of spec §6.
    await api.db.projectMember.create({ data: { projectId, userId: stranger.id, role: 'renderer' } });
    const studio = await open(stranger);
    studio.send({ type: 'room.join', projectId });
    const error = await studio.next('error');
    expect(error).toMatchObject({ type: 'error', code: 'FORBIDDEN', message: 'Your role in this project (renderer) does not allow you to join the studio.' });
    // Nothing reaches a worker from a socket without the permission (the role check comes first).
    studio.send({ type: 'room.offer', projectId, peerId: 'p', sdp: 'v=0', tracks: [], previewMid: null });
    expect(await studio.next('error')).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('opens the session for the host and relays offers and answers with the owning worker', async () => {
    const projectId = await newProject(host);
    const studio = await open(host);
    studio.send({ type: 'room.join', projectId });
    const joined = await studio.next('room.joined');
    // The page learns the deployment's STUN/TURN servers with the join.
    expect(joined).toMatchObject({ role: 'host', iceServers: ICE_SERVERS });
    const participantId = (joined as { participantId: string }).participantId;

    // The join queued the session (its job id is the project id) with the document snapshot.
    const queue = new Queue(queues.sessions.name, { connection: listener });
    await expect.poll(async () => (await queue.getJob(projectId))?.id, { timeout: 5000 }).toBe(projectId);
    expect(await listener.hexists(sessionKeys.document(projectId), 'document')).toBe(1);

    // The worker side, as the owning media worker does it: owner record, channel, answer.
    const now = new Date().toISOString();
    await listener.set(
      sessionKeys.owner(projectId),
      JSON.stringify({ projectId, workerId: 'w-1', state: 'running', since: now, lastSeenAt: now, appliedVersion: 0, pickups: 0 }),
    );
    const received: WorkerSignal[] = [];
    const worker = listener.duplicate();
    await worker.subscribe(signalingChannels.toWorker(projectId));
    worker.on('message', (_channel: string, raw: string) => received.push(workerSignalSchema.parse(JSON.parse(raw))));

    studio.send({ type: 'room.offer', projectId, peerId: 'peer-1', sdp: 'v=0 offer', tracks: [{ mid: '0', type: 'camera' }], previewMid: '2' });
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
    expect(received[0]).toMatchObject({
      type: 'offer',
      participantId,
      userId: host.id,
      role: 'host',
      peerId: 'peer-1',
      tracks: [{ mid: '0', type: 'camera' }],
    });
    await listener.publish(
      signalingChannels.toParticipant(participantId),
      JSON.stringify(participantSignalSchema.parse({ type: 'answer', projectId, participantId, peerId: 'peer-1', sdp: 'v=0 answer', workerId: 'w-1' })),
    );
    expect(await studio.next('room.answer')).toMatchObject({ peerId: 'peer-1', sdp: 'v=0 answer' });

    // Leaving (or closing the page) tells the worker.
    studio.ws.close();
    await expect.poll(() => received.map((r) => r.type), { timeout: 5000 }).toContain('leave');
    worker.disconnect();
    await (await queue.getJob(projectId))?.remove().catch(() => undefined);
    await queue.close();
  });

  it('tells the page the worker is ready, and again when the session moved to another worker', async () => {
    const projectId = await newProject(host);
    // The queue side of a media worker: it takes this project's session job and holds it while the test runs.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const takerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const taker = new Worker(
      queues.sessions.name,
      async (job) => {
        if (job.id === projectId) await held;
      },
      { connection: takerConnection, autorun: true },
    );
    const studio = await open(host);
    studio.send({ type: 'room.join', projectId });
    await studio.next('room.joined');
    const ownedBy = async (workerId: string) => {
      const now = new Date().toISOString();
      await listener.set(
        sessionKeys.owner(projectId),
        JSON.stringify({ projectId, workerId, state: 'running', since: now, lastSeenAt: now, appliedVersion: 0, pickups: 0 }),
      );
    };
    await ownedBy('w-1');
    expect(await studio.next('room.ready')).toMatchObject({ workerId: 'w-1' });
    // A failover: another worker owns the session now; the page is told, so it re-offers there.
    const moved = setInterval(() => void ownedBy('w-2'), 200);
    try {
      expect(await studio.next('room.ready')).toMatchObject({ workerId: 'w-2' });
    } finally {
      clearInterval(moved);
      studio.ws.close();
      release();
      await taker.close();
      takerConnection.disconnect();
    }
  });

  it('tells the page when no worker has room for the session, and that a worker runs it once one takes it', async () => {
    const projectId = await newProject(host);
    // No worker takes jobs here: the session waits in the queue, as on a fleet whose workers are full.
    const studio = await open(host);
    studio.send({ type: 'room.join', projectId });
    await studio.next('room.joined');
    const waiting = await studio.next('room.waiting');
    expect(waiting).toMatchObject({ type: 'room.waiting', projectId });
    // Told once the wait is more than a placement's moment, with how long it has lasted.
    expect((waiting as { waitingSinceMs: number }).waitingSinceMs).toBeGreaterThanOrEqual(3000);
    // A worker takes it: the page hears where to offer, and the wait is over.
    const takerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const taker = new Worker(
      queues.sessions.name,
      async (job) => {
        if (job.id !== projectId) return;
        const now = new Date().toISOString();
        await listener.set(
          sessionKeys.owner(projectId),
          JSON.stringify({ projectId, workerId: 'w-full', state: 'running', since: now, lastSeenAt: now, appliedVersion: 0, pickups: 0 }),
        );
        await held;
      },
      { connection: takerConnection, autorun: true },
    );
    try {
      expect(await studio.next('room.ready')).toMatchObject({ workerId: 'w-full' });
    } finally {
      studio.ws.close();
      release();
      await taker.close();
      takerConnection.disconnect();
    }
  });

  it('keeps the relay for the socket that joined', async () => {
    const projectId = await newProject(host);
    const studio = await open(host);
    studio.send({ type: 'room.join', projectId });
    const joined = await studio.next('room.joined');
    const participantId = (joined as { participantId: string }).participantId;
    const queue = new Queue(queues.sessions.name, { connection: listener });
    const received: WorkerSignal[] = [];
    const worker = listener.duplicate();
    await worker.subscribe(signalingChannels.toWorker(projectId));
    worker.on('message', (_channel: string, raw: string) => received.push(workerSignalSchema.parse(JSON.parse(raw))));
    studio.send({
      type: 'room.ice',
      projectId,
      peerId: 'peer-1',
      candidate: { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0', sdpMLineIndex: 0 },
    });
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
    expect(received[0]).toMatchObject({ type: 'ice', participantId, peerId: 'peer-1', candidate: { sdpMid: '0' } });
    studio.ws.close();
    await expect.poll(() => received.map((r) => r.type), { timeout: 5000 }).toContain('leave');
    worker.disconnect();
    await (await queue.getJob(projectId))?.remove().catch(() => undefined);
    await queue.close();
  });
});
