import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { renderKeys, renderProblemText, serverMessageSchema, type RenderStatus, type ServerMessage } from '@onair/protocol';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let replica: StudioApi;
let host: TestUser;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  api = await startStudioApi();
  // A second api process on the same database: a deployment with two api pods.
  replica = await startStudioApi({ databaseUrl: api.databaseUrl });
  host = await createTestUser(api);
});
afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await replica?.close();
  await api?.close();
});

/** A studio's socket that records every message it receives. */
async function open(
  target: StudioApi,
  user: TestUser,
): Promise<{ ws: WebSocket; messages: ServerMessage[]; next: (type: ServerMessage['type']) => Promise<ServerMessage> }> {
  const ws = new WebSocket(target.wsUrl, { headers: { cookie: user.cookie } });
  sockets.push(ws);
  const messages: ServerMessage[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    messages.push(serverMessageSchema.parse(JSON.parse(data.toString())));
    for (const wake of waiters.splice(0)) wake();
  });
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
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  await next('ready');
  return { ws, messages, next };
}

function refusedWith(target: StudioApi, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(target.wsUrl, { headers });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => reject(new Error('the socket opened')));
    ws.on('error', () => undefined);
  });
}

async function newProject(user: TestUser): Promise<{ projectId: string; sceneId: string }> {
  const { body } = await call(api, user, 'POST', '/api/v1/projects', { name: 'Live' });
  const projectId = (body as { id: string }).id;
  const doc = await call(api, user, 'GET', `/api/v1/projects/${projectId}/scene`);
  return { projectId, sceneId: (doc.body as { activeSceneId: string }).activeSceneId };
}

describe('/ws', () => {
  it('refuses a handshake without a session and one from another site', async () => {
    expect(await refusedWith(api, {})).toBe(401);
    expect(await refusedWith(api, { cookie: 'onair.session_token=nope' })).toBe(401);
    expect(await refusedWith(api, { cookie: host.cookie, origin: 'https://evil.example' })).toBe(403);
  });

  it('pushes every accepted patch to every open studio of the project, across api replicas', async () => {
    const { projectId, sceneId } = await newProject(host);
    const first = await open(api, host);
    const second = await open(replica, host);
    for (const studio of [first, second]) {
      studio.ws.send(JSON.stringify({ type: 'subscribe', projectId }));
      expect(await studio.next('subscribed')).toEqual({ type: 'subscribed', projectId, version: 0 });
    }

    const sourceId = randomUUID();
    const res = await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
      baseVersion: 0,
      ops: [
        { op: 'addSource', source: { id: sourceId, kind: 'webcam' } },
        { op: 'addLayer', sceneId, layer: { id: randomUUID(), sourceId } },
      ],
    });
    expect(res.status).toBe(200);
    for (const studio of [first, second]) {
      const pushed = await studio.next('scene.patched');
      expect(pushed).toEqual({ type: 'scene.patched', projectId, version: 1, ops: (res.body as { ops: unknown }).ops });
    }

    // An edit through the replica reaches the studio on the first api as well.
    const viaReplica = await call(replica, host, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
      baseVersion: 1,
      ops: [{ op: 'renameScene', sceneId, name: 'Intro' }],
    });
    expect(viaReplica.status).toBe(200);
    expect(await first.next('scene.patched')).toMatchObject({ version: 2, ops: [{ op: 'renameScene', name: 'Intro' }] });
  });

  it('tells every open studio of the project its new name, across api replicas', async () => {
    const { projectId } = await newProject(host);
    const studio = await open(replica, host);
    studio.ws.send(JSON.stringify({ type: 'subscribe', projectId }));
    await studio.next('subscribed');
    expect((await call(api, host, 'PATCH', `/api/v1/projects/${projectId}`, { name: ' Late show ' })).status).toBe(200);
    expect(await studio.next('project.renamed')).toEqual({ type: 'project.renamed', projectId, name: 'Late show' });
    // A refused rename tells nobody anything.
    expect((await call(api, host, 'PATCH', `/api/v1/projects/${projectId}`, { name: '' })).status).toBe(400);
    studio.ws.send(JSON.stringify({ type: 'ping' }));
    await studio.next('pong');
    expect(studio.messages.filter((m) => m.type === 'project.renamed')).toHaveLength(1);
  });

  it("follows the user's project list in every open tab, on any replica: a project made or renamed elsewhere shows at once", async () => {
    const owner = await createTestUser(api);
    const stranger = await createTestUser(api);
    const [tab, otherDevice, strangers] = await Promise.all([open(api, owner), open(replica, owner), open(api, stranger)]);
    const { body } = await call(api, owner, 'POST', '/api/v1/projects', { name: 'Made in one tab' });
    const project = body as { id: string; name: string };
    for (const socket of [tab, otherDevice]) {
      expect(await socket.next('projects.changed')).toEqual({ type: 'projects.changed', change: 'created', project: body });
    }
    expect((await call(api, owner, 'PATCH', `/api/v1/projects/${project.id}`, { name: 'Renamed in another' })).status).toBe(200);
    expect(await otherDevice.next('projects.changed')).toMatchObject({ change: 'renamed', project: { id: project.id, name: 'Renamed in another' } });
    strangers.ws.send(JSON.stringify({ type: 'ping' }));
    await strangers.next('pong');
    expect(strangers.messages.filter((m) => m.type === 'projects.changed')).toEqual([]);
  });

  it("does not let a studio subscribe to someone else's project, and stops after unsubscribe", async () => {
    const { projectId, sceneId } = await newProject(host);
    const stranger = await createTestUser(api);
    const snoop = await open(api, stranger);
    snoop.ws.send(JSON.stringify({ type: 'subscribe', projectId }));
    expect(await snoop.next('error')).toMatchObject({ type: 'error', code: 'NOT_FOUND' });

    const studio = await open(api, host);
    studio.ws.send(JSON.stringify({ type: 'subscribe', projectId }));
    await studio.next('subscribed');
    studio.ws.send(JSON.stringify({ type: 'unsubscribe', projectId }));
    studio.ws.send(JSON.stringify({ type: 'ping' }));
    await studio.next('pong');
    await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/scene`, { baseVersion: 0, ops: [{ op: 'renameScene', sceneId, name: 'Quiet' }] });
    studio.ws.send(JSON.stringify({ type: 'ping' }));
    await studio.next('pong');
    await new Promise((r) => setTimeout(r, 200));
    expect(studio.messages.some((m) => m.type === 'scene.patched')).toBe(false);
    expect(snoop.messages.some((m) => m.type === 'scene.patched')).toBe(false);
  });

  it("relays a web page's render status from the render workers, and drops a malformed one", async () => {
    const { projectId } = await newProject(host);
    const studio = await open(replica, host);
    studio.ws.send(JSON.stringify({ type: 'subscribe', projectId }));
    await studio.next('subscribed');

    const sourceId = randomUUID();
    const reason = renderProblemText('ADDRESS_REFUSED', 'it redirects to 169.254.169.254, which is not on the public internet');
    const status: RenderStatus = {
      renderId: `${projectId}.${sourceId}`,
      sessionId: projectId,
      sourceId,
      workerId: 'render-1',
      state: 'refused',
      problem: { code: 'ADDRESS_REFUSED', reason, fault: 'user' },
      attempt: 1,
      retryAt: null,
      at: new Date().toISOString(),
    };
    // Malformed (no state, not JSON) and another session's status come first: none reaches the studio.
    const { state: _state, ...stateless } = status;
    await api.redis.publish(renderKeys.status(projectId), JSON.stringify(stateless));
    await api.redis.publish(renderKeys.status(projectId), 'not json');
    await api.redis.publish(renderKeys.status(projectId), JSON.stringify({ ...status, sessionId: randomUUID() }));
    await api.redis.publish(renderKeys.status(projectId), JSON.stringify(status));
    expect(await studio.next('render.status')).toEqual({ type: 'render.status', projectId, sourceId, state: 'refused', reason });

    await api.redis.publish(renderKeys.status(projectId), JSON.stringify({ ...status, state: 'live', problem: null, attempt: 0 }));
    expect(await studio.next('render.status')).toEqual({ type: 'render.status', projectId, sourceId, state: 'live' });
    studio.ws.send(JSON.stringify({ type: 'ping' }));
    await studio.next('pong');
    expect(studio.messages.filter((m) => m.type === 'render.status')).toHaveLength(2);
  });

  it('answers a malformed message with an error and keeps the socket open', async () => {
    const studio = await open(api, host);
    studio.ws.send('not json');
    expect(await studio.next('error')).toMatchObject({ code: 'MALFORMED_JSON' });
    studio.ws.send(JSON.stringify({ type: 'subscribe', projectId: 'nope' }));
    expect(await studio.next('error')).toMatchObject({ code: 'VALIDATION_FAILED' });
    studio.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await studio.next('pong')).toEqual({ type: 'pong' });
  });
});
