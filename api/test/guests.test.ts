/**
 * Guests by link (issue 15): the host's one active link, joining with it as the guest role, what a
 * guest may and may not do, Generate New Link revoking the old one, removing and leaving, the plan's
 * guest limit told to the guest and to the host, Guest Chat both ways, and the bad input of the
 * issue (forged, revoked, expired and foreign tokens, long or marked-up names, a flood of joins).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { GUEST_SOCKET_QUERY, serverMessageSchema, type ServerMessage } from '@onair/protocol';
import { call, createTestUser, guestLinkOf, joinAsGuest, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  api = await startStudioApi();
});
afterAll(async () => {
  for (const ws of sockets) ws.close();
  await api?.close();
});

/** Every test joins from its own address, so the per-address join limit is only met where it is tested. */
const addressOf = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}, 198.51.100.${Math.floor(Math.random() * 250) + 1}`;

async function newProject(host: TestUser, name = 'Guests'): Promise<string> {
  const res = await call(api, host, 'POST', '/api/v1/projects', { name });
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

async function open(
  user: TestUser,
): Promise<{ ws: WebSocket; messages: ServerMessage[]; next: (type: ServerMessage['type']) => Promise<ServerMessage>; closed: Promise<number> }> {
  const ws = new WebSocket(user.guest ? `${api.wsUrl}?${GUEST_SOCKET_QUERY}` : api.wsUrl, { headers: { cookie: user.cookie } });
  sockets.push(ws);
  const messages: ServerMessage[] = [];
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (data) => messages.push(serverMessageSchema.parse(JSON.parse(data.toString()))));
  let seen = 0;
  const next = async (type: ServerMessage['type']): Promise<ServerMessage> => {
    for (let i = 0; i < 100; i++) {
      const found = messages.slice(seen).findIndex((m) => m.type === type);
      if (found >= 0) {
        seen += found + 1;
        return messages[seen - 1]!;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no ${type} message; got ${JSON.stringify(messages)}`);
  };
  await next('ready');
  return { ws, messages, next, closed };
}

async function subscribed(user: TestUser, projectId: string) {
  const socket = await open(user);
  socket.ws.send(JSON.stringify({ type: 'subscribe', projectId }));
  await socket.next('subscribed');
  return socket;
}

describe('the guest link', () => {
  it('is one active link per project, copied again as it was, with only its hash stored', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const projectId = await newProject(host);
    const first = await call(api, host, 'GET', `/api/v1/projects/${projectId}/guest-link`);
    expect(first.status).toBe(200);
    const link = first.body as { code: string; linkUrl: string };
    expect(link.linkUrl).toBe(`${api.url}/guest/${projectId}?guestToken=${encodeURIComponent(link.code)}`);
    expect((await call(api, host, 'GET', `/api/v1/projects/${projectId}/guest-link`)).body).toEqual(first.body);
    const rows = await api.db.guestLink.findMany({ where: { projectId } });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(link.code.split('.')[1]);
  });

  it('lets a guest join with a name, read the project and chat, and nothing a guest may not do', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const projectId = await newProject(host);
    const token = await guestLinkOf(api, host, projectId);
    const check = await fetch(`${api.url}/api/v1/guest/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': addressOf() },
      body: JSON.stringify({ projectId, token }),
    });
    expect(await check.json()).toEqual({ projectName: 'Guests' });

    const joined = await joinAsGuest(api, projectId, token, { displayName: '  Grace  ', ip: addressOf() });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ projectId, projectName: 'Guests', displayName: 'Grace' });
    const guest = joined.guest!;
    expect((await api.db.guest.findUniqueOrThrow({ where: { id: guest.id } })).sessionTokenHash).not.toContain(guest.cookie.split('=')[1]);

    expect((await call(api, guest, 'GET', `/api/v1/projects/${projectId}`)).status).toBe(200);
    expect((await call(api, guest, 'GET', `/api/v1/projects/${projectId}/scene`)).status).toBe(200);
    const patch = await call(api, guest, 'PATCH', `/api/v1/projects/${projectId}/scene`, { baseVersion: 0, ops: [] });
    expect(patch).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message: 'Your role in this project (guest) does not allow you to change this project.' } },
    });
    expect((await call(api, guest, 'POST', `/api/v1/projects/${projectId}/guest-link`)).status).toBe(403);
    expect((await call(api, guest, 'DELETE', `/api/v1/projects/${projectId}/guests/${guest.id}`)).status).toBe(403);
    expect((await call(api, guest, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' })).status).toBe(403);
    // The guest cookie opens nothing without the guest page's header, and no other project.
    expect((await call(api, { ...guest, guest: false }, 'GET', `/api/v1/projects/${projectId}`)).status).toBe(401);
    const other = await newProject(host, 'Other');
    expect((await call(api, guest, 'GET', `/api/v1/projects/${other}`)).body).toMatchObject({
      error: { code: 'NOT_FOUND', message: 'This project does not exist.' },
    });

    const { guests } = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/guests`)).body as { guests: { id: string; displayName: string }[] };
    expect(guests).toEqual([expect.objectContaining({ id: guest.id, displayName: 'Grace', byRevokedLink: false })]);
  });

  it('refuses forged, foreign, revoked and expired tokens with words, and a new link leaves joined guests to be removed', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const projectId = await newProject(host);
    const otherProject = await newProject(host, 'Other');
    const token = await guestLinkOf(api, host, projectId);
    const foreign = await guestLinkOf(api, host, otherProject);
    const ip = addressOf();
    const [linkId] = token.split('.');
    for (const bad of [`${linkId}.forged`, 'nonsense', `${randomUUID()}.${token.split('.')[1]}`, foreign]) {
      const res = await joinAsGuest(api, projectId, bad, { ip });
      expect(res, bad).toMatchObject({
        status: 404,
        body: {
          error: { code: 'GUEST_LINK_INVALID', message: 'This guest link is not valid for this studio. Ask the host to send you their guest link again.' },
        },
      });
    }
    const early = await joinAsGuest(api, projectId, token, { displayName: 'Early', ip });
    const hostSocket = await subscribed(host, projectId);
    const guestSocket = await subscribed(early.guest!, projectId);

    const renewed = await call(api, host, 'POST', `/api/v1/projects/${projectId}/guest-link`);
    expect(renewed.status).toBe(201);
    expect((renewed.body as { code: string }).code).not.toBe(token);
    expect(await joinAsGuest(api, projectId, token, { ip })).toMatchObject({
      status: 410,
      body: { error: { code: 'GUEST_LINK_REVOKED', message: 'This guest link was replaced by a new one. Ask the host for the new guest link.' } },
    });
    // The guest who joined by the old link is still in, marked, and can be removed.
    const list = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/guests`)).body as { guests: { id: string; byRevokedLink: boolean }[] };
    expect(list.guests).toEqual([expect.objectContaining({ id: early.guest!.id, byRevokedLink: true })]);
    expect((await call(api, early.guest!, 'GET', `/api/v1/projects/${projectId}`)).status).toBe(200);
    expect((await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/guests/${early.guest!.id}`)).status).toBe(204);
    expect(await guestSocket.next('guest.removed')).toMatchObject({ guestId: early.guest!.id, message: 'The host removed you from the studio.' });
    expect(await guestSocket.closed).toBe(1008);
    await expect.poll(() => hostSocket.messages.some((m) => m.type === 'guests.changed' && m.guests.length === 0)).toBe(true);
    expect(await call(api, early.guest!, 'GET', `/api/v1/projects/${projectId}`)).toMatchObject({
      status: 401,
      body: { error: { code: 'GUEST_SESSION_ENDED', message: 'You are no longer in this studio. Open the guest link again to rejoin.' } },
    });
    // The host's own socket was not disturbed.
    hostSocket.ws.send(JSON.stringify({ type: 'ping' }));
    await hostSocket.next('pong');

    const current = (renewed.body as { code: string }).code;
    await api.db.guestLink.updateMany({ where: { projectId, revokedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await joinAsGuest(api, projectId, current, { ip })).toMatchObject({
      status: 410,
      body: { error: { code: 'GUEST_LINK_EXPIRED', message: 'This guest link has expired. Ask the host for a new guest link.' } },
    });
  });

  it('refuses a display name of 10 000 characters or with markup, and takes the guest in once it is fixed', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const projectId = await newProject(host);
    const token = await guestLinkOf(api, host, projectId);
    const ip = addressOf();
    const long = await joinAsGuest(api, projectId, token, { displayName: 'x'.repeat(10_000), ip });
    expect(long).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('Your name can be at most 40 characters long.') } },
    });
    const markup = await joinAsGuest(api, projectId, token, { displayName: '<img src=x onerror=alert(1)>', ip });
    expect(markup).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('Your name cannot contain < or >.') } },
    });
    const tooLong = await joinAsGuest(api, projectId, token, { displayName: 'y'.repeat(41), ip });
    expect((tooLong.body as { error: { message: string } }).error.message).toContain('Your name can be at most 40 characters long.');
    expect(await api.db.guest.count({ where: { projectId } })).toBe(0);
    expect((await joinAsGuest(api, projectId, token, { displayName: 'Ada & Bob', ip })).status).toBe(201);
  });
});

describe('the plan limit on guests (spec §6 maximum-guests)', () => {
  it('refuses every guest of a Free host, telling the guest and the host why', async () => {
    const host = await createTestUser(api);
    const projectId = await newProject(host);
    const hostSocket = await subscribed(host, projectId);
    const token = await guestLinkOf(api, host, projectId);
    const res = await joinAsGuest(api, projectId, token, { displayName: 'Hopeful', ip: addressOf() });
    expect(res).toMatchObject({
      status: 403,
      body: {
        error: {
          code: 'GUEST_LIMIT_REACHED',
          message: "This studio's plan does not include guests. Ask the host to let you in later.",
          details: { maximum: 0 },
        },
      },
    });
    expect(await hostSocket.next('guest.refused')).toMatchObject({
      displayName: 'Hopeful',
      maximum: 0,
      message: 'Hopeful tried to join, but your plan does not include guests. Upgrade to Premium to invite up to 10.',
    });
  });

  it("answers the guest page's first request (the link check) with the refusal, and tells the host", async () => {
    const host = await createTestUser(api);
    const projectId = await newProject(host);
    const hostSocket = await subscribed(host, projectId);
    const token = await guestLinkOf(api, host, projectId);
    const check = await fetch(`${api.url}/api/v1/guest/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': addressOf() },
      body: JSON.stringify({ projectId, token }),
    });
    expect(check.status).toBe(403);
    expect(await check.json()).toMatchObject({
      error: { code: 'GUEST_LIMIT_REACHED', message: "This studio's plan does not include guests. Ask the host to let you in later.", details: { maximum: 0 } },
    });
    expect(await hostSocket.next('guest.refused')).toMatchObject({
      displayName: '',
      maximum: 0,
      message: 'Someone tried to join, but your plan does not include guests. Upgrade to Premium to invite up to 10.',
    });
  });

  it('lets ten guests into a Premium studio, refuses the eleventh, and frees a seat when one leaves', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const projectId = await newProject(host);
    const token = await guestLinkOf(api, host, projectId);
    const guests: TestUser[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await joinAsGuest(api, projectId, token, { displayName: `Guest ${i + 1}`, ip: addressOf() });
      expect(res.status).toBe(201);
      guests.push(res.guest!);
    }
    const full = await fetch(`${api.url}/api/v1/guest/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': addressOf() },
      body: JSON.stringify({ projectId, token }),
    });
    expect(full.status).toBe(403);
    expect(((await full.json()) as { error: { message: string } }).error.message).toBe(
      'This studio already has 10 guests, the most its plan allows. Ask the host to let you in later.',
    );
    const eleventh = await joinAsGuest(api, projectId, token, { displayName: 'Eleven', ip: addressOf() });
    expect(eleventh).toMatchObject({
      status: 403,
      body: {
        error: { code: 'GUEST_LIMIT_REACHED', message: 'This studio already has 10 guests, the most its plan allows. Ask the host to let you in later.' },
      },
    });
    expect((await call(api, guests[0]!, 'POST', `/api/v1/projects/${projectId}/guests/leave`)).status).toBe(204);
    expect(await call(api, guests[0]!, 'GET', `/api/v1/projects/${projectId}`)).toMatchObject({
      status: 401,
      body: { error: { code: 'GUEST_SESSION_ENDED' } },
    });
    expect((await joinAsGuest(api, projectId, token, { displayName: 'Eleven', ip: addressOf() })).status).toBe(201);
  });
});

describe('a flood of joins from one address', () => {
  it('is rate-limited with words while the studio goes on', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const projectId = await newProject(host);
    const token = await guestLinkOf(api, host, projectId);
    const present = await joinAsGuest(api, projectId, token, { displayName: 'Present', ip: addressOf() });
    const hostSocket = await subscribed(host, projectId);
    const ip = addressOf();
    const results = await Promise.all(Array.from({ length: 50 }, () => joinAsGuest(api, projectId, `${randomUUID()}.x`, { ip })));
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(50 - 20);
    expect(limited[0]!.body).toEqual({ error: { code: 'RATE_LIMITED', message: 'Too many attempts to join from your address. Wait a minute and try again.' } });
    // The guest already in and the host's socket are undisturbed.
    expect((await call(api, present.guest!, 'POST', `/api/v1/projects/${projectId}/guest-chat`, { content: 'still here' })).status).toBe(201);
    expect(await hostSocket.next('guest.chat')).toMatchObject({ message: { content: 'still here', displayName: 'Present', role: 'guest' } });
  });
});

describe('Guest Chat', () => {
  it('goes both ways, is stored with the project, and refuses empty or over-long messages', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    await api.db.user.update({ where: { id: host.id }, data: { name: 'Hana Host' } });
    const projectId = await newProject(host);
    const token = await guestLinkOf(api, host, projectId);
    const guest = (await joinAsGuest(api, projectId, token, { displayName: 'Grace', ip: addressOf() })).guest!;
    const hostSocket = await subscribed(host, projectId);
    const guestSocket = await subscribed(guest, projectId);

    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/guest-chat`, { content: ' Welcome, see onair.test ' })).status).toBe(201);
    expect(await guestSocket.next('guest.chat')).toMatchObject({
      message: { content: 'Welcome, see onair.test', displayName: 'Hana Host', role: 'host', sender: host.id },
    });
    // Everyone in the room gets every message, the sender's own studio included.
    expect(await hostSocket.next('guest.chat')).toMatchObject({ message: { sender: host.id } });
    expect((await call(api, guest, 'POST', `/api/v1/projects/${projectId}/guest-chat`, { content: '<b>hi</b>' })).status).toBe(201);
    expect(await hostSocket.next('guest.chat')).toMatchObject({ message: { content: '<b>hi</b>', displayName: 'Grace', role: 'guest', sender: guest.id } });

    for (const content of ['   ', 'x'.repeat(201)]) {
      expect((await call(api, guest, 'POST', `/api/v1/projects/${projectId}/guest-chat`, { content })).body).toMatchObject({
        error: { code: 'VALIDATION_FAILED' },
      });
    }
    const history = (await call(api, guest, 'GET', `/api/v1/projects/${projectId}/guest-chat`)).body as { messages: { content: string }[] };
    expect(history.messages.map((m) => m.content)).toEqual(['Welcome, see onair.test', '<b>hi</b>']);
  });
});

describe('a guest on /ws', () => {
  it('joins the room of their project as a guest, and no other project', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const projectId = await newProject(host);
    const other = await newProject(host, 'Other');
    const guest = (await joinAsGuest(api, projectId, await guestLinkOf(api, host, projectId), { ip: addressOf() })).guest!;
    const socket = await open(guest);
    socket.ws.send(JSON.stringify({ type: 'room.join', projectId }));
    expect(await socket.next('room.joined')).toMatchObject({ projectId, role: 'guest' });
    socket.ws.send(JSON.stringify({ type: 'subscribe', projectId: other }));
    expect(await socket.next('error')).toMatchObject({ code: 'NOT_FOUND' });
    // A socket without the guest marker is not the guest.
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(api.wsUrl, { headers: { cookie: guest.cookie } });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => undefined);
    });
    expect(refused).toBe(401);
  });
});
