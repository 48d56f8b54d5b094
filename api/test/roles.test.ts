/**
 * Spec §6's role table, enforced: every project endpoint of the api (from the list the OpenAPI
 * document is made of) and every project message of /ws, against every project role, generated
 * from protocol's tables. A role that holds the permission gets past the role check (the request
 * may still be refused for its content: a generic body is not a valid one); a role without it gets
 * 403 with words; someone with no role gets 404, as if the project did not exist.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import pino from 'pino';
import { WebSocket } from 'ws';
import { clientMessagePermissions, GUEST_SOCKET_QUERY, hasPermission, projectRoles, type ClientMessage, type ProjectRole } from '@onair/protocol';
import { mountedEndpoints } from '../src/app.ts';
import { call, createTestUser, guestLinkOf, joinAsGuest, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

type Caller = ProjectRole | 'none';
let api: StudioApi;
let projectId = '';
const callers = new Map<Caller, TestUser>();
const PROJECT_GONE = 'This project does not exist.';
const logLines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  api = await startStudioApi({
    logger: pino({ level: 'info' }, sink),
    env: { SECRETS_KEY: Buffer.alloc(32, 5).toString('base64'), GUEST_JOIN_RATE_LIMIT_PER_IP: '10000' },
  });
  const host = await createTestUser(api, { plan: 'Premium' });
  // Every endpoint gets a guest of its own (a guest may leave); the plan's ten seats are not what is tested here.
  await api.db.entitlement.updateMany({ where: { featureId: 'maximum-guests', subscription: { userId: host.id } }, data: { value: 'Unlimited' } });
  callers.set('host', host);
  projectId = ((await call(api, host, 'POST', '/api/v1/projects', { name: 'Roles' })).body as { id: string }).id;
  for (const role of projectRoles) {
    if (role === 'host' || role === 'guest') continue;
    const user = await createTestUser(api);
    if (role === 'impersonate') await api.db.user.update({ where: { id: user.id }, data: { userType: 'ADMIN' } });
    else await api.db.projectMember.create({ data: { projectId, userId: user.id, role } });
    callers.set(role, user);
  }
  callers.set('none', await createTestUser(api));
});

/** The guest role as guests reach it: by the project's guest link (a fresh guest, since one may leave). */
async function newGuest(): Promise<TestUser> {
  const joined = await joinAsGuest(api, projectId, await guestLinkOf(api, callers.get('host')!, projectId));
  if (!joined.guest) throw new Error(`guest not joined: ${joined.status} ${JSON.stringify(joined.body)}`);
  callers.set('guest', joined.guest);
  return joined.guest;
}
afterAll(async () => {
  await api?.close();
});

const projectEndpoints = mountedEndpoints.filter((e) => e.path.includes(':projectId'));

describe('the role table on HTTP', () => {
  it('names a permission for every project endpoint', () => {
    expect(projectEndpoints.length).toBeGreaterThan(15);
    expect(projectEndpoints.filter((e) => !e.projectPermission).map((e) => e.id)).toEqual([]);
  });

  for (const endpoint of projectEndpoints) {
    it(`${endpoint.method.toUpperCase()} ${endpoint.path} needs '${endpoint.projectPermission}'`, async () => {
      // Other ids point nowhere, so a caller who passes the role check changes nothing.
      const path = endpoint.path.replace(':projectId', projectId).replace(/:(\w+)/g, () => randomUUID());
      const body = ['get', 'delete'].includes(endpoint.method) ? undefined : {};
      for (const caller of [...projectRoles, 'none'] as const) {
        const user = caller === 'guest' ? await newGuest() : callers.get(caller)!;
        const res = await call(api, user, endpoint.method.toUpperCase(), path, body);
        const error = (res.body as { error?: { code: string; message: string } } | undefined)?.error;
        const label = `${caller} → ${res.status} ${JSON.stringify(res.body)}`;
        if (caller === 'none') {
          expect(res.status, label).toBe(404);
          expect(error?.message, label).toBe(PROJECT_GONE);
        } else if (hasPermission(caller, endpoint.projectPermission!)) {
          expect(res.status, label).not.toBe(401);
          expect(error?.code, label).not.toBe('FORBIDDEN');
          expect(error?.message, label).not.toBe(PROJECT_GONE);
        } else {
          expect(res.status, label).toBe(403);
          expect(error, label).toMatchObject({
            code: 'FORBIDDEN',
            message: expect.stringContaining(`Your role in this project (${caller}) does not allow you to`),
          });
        }
      }
    });
  }
});

function socketOf(user: TestUser): Promise<{ ws: WebSocket; next: () => Promise<{ type: string; code?: string; message?: string }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(user.guest ? `${api.wsUrl}?${GUEST_SOCKET_QUERY}` : api.wsUrl, { headers: { cookie: user.cookie } });
    const queue: { type: string }[] = [];
    const waiters: ((m: { type: string }) => void)[] = [];
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as { type: string };
      const w = waiters.shift();
      if (w) w(m);
      else queue.push(m);
    });
    const next = () => new Promise<{ type: string }>((r) => (queue.length > 0 ? r(queue.shift()!) : waiters.push(r)));
    ws.on('open', () => void next().then(() => resolve({ ws, next })));
    ws.on('error', reject);
  });
}

describe('the role table on /ws', () => {
  // One sample per message type: the Record makes a new message a type error here until it has one.
  // A message without a permission (null) touches no project, or only leaves one.
  const samples: Record<ClientMessage['type'], (projectId: string) => ClientMessage> = {
    subscribe: (id) => ({ type: 'subscribe', projectId: id }),
    unsubscribe: (id) => ({ type: 'unsubscribe', projectId: id }),
    ping: () => ({ type: 'ping' }),
    'room.join': (id) => ({ type: 'room.join', projectId: id }),
    // An offer of a page that has not joined: a role that may join is told to join first, not refused.
    'room.offer': (id) => ({ type: 'room.offer', projectId: id, peerId: randomUUID(), sdp: 'v=0', tracks: [], previewMid: null, guestMids: [] }),
    'room.ice': (id) => ({ type: 'room.ice', projectId: id, peerId: randomUUID(), candidate: { candidate: '', sdpMid: '0', sdpMLineIndex: 0 } }),
    'room.leave': (id) => ({ type: 'room.leave', projectId: id }),
    // Allowed callers get past the role check to the next refusal: the project is not live.
    'chat.send': (id) => ({ type: 'chat.send', projectId: id, text: 'hello', targets: [randomUUID()] }),
    'chat.history.request': (id) => ({ type: 'chat.history.request', projectId: id }),
    // A partner channel, not a project: checked against the channel's access (channel-events.test.ts).
    'channel.watch': () => ({ type: 'channel.watch', channelId: randomUUID() }),
    'channel.unwatch': () => ({ type: 'channel.unwatch', channelId: randomUUID() }),
  };

  for (const [type, make] of Object.entries(samples)) {
    const permission = clientMessagePermissions[type as ClientMessage['type']];
    if (permission === null) continue;
    it(`${type} needs '${permission}'`, async () => {
      for (const caller of [...projectRoles, 'none'] as const) {
        const { ws, next } = await socketOf(caller === 'guest' ? await newGuest() : callers.get(caller)!);
        ws.send(JSON.stringify(make(projectId)));
        const reply = await next();
        const label = `${caller} → ${JSON.stringify(reply)}`;
        if (caller === 'none') expect(reply, label).toMatchObject({ type: 'error', code: 'NOT_FOUND' });
        else if (hasPermission(caller, permission)) expect(reply.code ?? reply.type, label).not.toMatch(/FORBIDDEN|NOT_FOUND/);
        else expect(reply, label).toMatchObject({ type: 'error', code: 'FORBIDDEN' });
        ws.close();
      }
    });
  }
});

describe('impersonate', () => {
  it('is audited with who acted on which project, and never joins the room', async () => {
    const admin = callers.get('impersonate')!;
    expect((await call(api, admin, 'GET', `/api/v1/projects/${projectId}`)).status).toBe(200);
    const audits = logLines.map((l) => JSON.parse(l) as { audit?: string; userId?: string; projectId?: string }).filter((l) => l.audit === 'impersonate');
    expect(audits).toContainEqual(expect.objectContaining({ userId: admin.id, projectId }));
    const { ws, next } = await socketOf(admin);
    ws.send(JSON.stringify({ type: 'room.join', projectId }));
    expect(await next()).toMatchObject({ type: 'error', code: 'FORBIDDEN' });
    ws.close();
  });
});
