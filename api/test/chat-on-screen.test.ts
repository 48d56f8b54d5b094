/**
 * Chat on screen (issue 39 item 4) on the server: a host puts a platform or room chat message in
 * the program and takes it off, or its time runs out; every studio of the project and the overlay
 * page the render worker draws it from follow. Only the roles that may edit the show change it; bad
 * input gets a stable error code. Real PostgreSQL and Redis.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import {
  CHAT_ON_SCREEN_DEFAULT_MS,
  CHAT_ON_SCREEN_TEXT_MAX,
  chatOnScreenSchema,
  sessionCommandSchema,
  sessionKeys,
  sessionStatusKeys,
  type ChatOnScreen,
  type ServerMessage,
} from '@onair/protocol';
import { StudioChatSocket } from './helpers/chat.ts';
import { call, createTestUser, guestLinkOf, joinAsGuest, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let host: TestUser;
let projectId: string;
let studio: StudioChatSocket;

beforeAll(async () => {
  api = await startStudioApi();
  host = await createTestUser(api, { plan: 'Premium' });
  projectId = (await api.db.project.create({ data: { ownerId: host.id, name: 'On screen' } })).id;
  studio = await StudioChatSocket.open(api.wsUrl, host.cookie, projectId);
});

afterAll(async () => {
  studio?.close();
  await api?.close();
});

const path = () => `/api/v1/projects/${projectId}/chat/on-screen`;

/** A platform chat message as a connector stores it. */
async function platformMessage(content: string, extra: { private?: boolean; projectId?: string; displayName?: string } = {}): Promise<string> {
  const row = await api.db.chatMessage.create({
    data: {
      projectId: extra.projectId ?? projectId,
      direction: 'inbound',
      platform: 'twitch',
      sender: '1234',
      displayName: extra.displayName ?? 'Kappa_Fan',
      content,
      segments: [{ kind: 'text', value: content }],
      private: extra.private ?? false,
      sentAt: new Date(),
    },
  });
  return row.id;
}

/** The `chat.onScreen` messages the studio socket received after `from`. */
function onScreenUpdates(from: number): (ChatOnScreen | null)[] {
  return studio.received.slice(from).flatMap((m: ServerMessage) => (m.type === 'chat.onScreen' && m.projectId === projectId ? [m.onScreen] : []));
}

/** Reads the overlay's event stream until `count` states have come. */
async function overlayStates(url: string, count: number, during: () => Promise<void>): Promise<(ChatOnScreen | null)[]> {
  const abort = new AbortController();
  const states: (ChatOnScreen | null)[] = [];
  const res = await fetch(url, { signal: abort.signal });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  let buffer = '';
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk);
      for (const block of buffer.split('\n\n').slice(0, -1)) {
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (data) states.push((JSON.parse(data.slice(6)) as { onScreen: ChatOnScreen | null }).onScreen);
      }
      buffer = buffer.split('\n\n').at(-1)!;
    }
  })().catch(() => undefined);
  await waitFor('the overlay state', async () => (states.length > 0 ? true : undefined), 10_000, 20);
  await during();
  await waitFor(`${count} overlay states`, async () => (states.length >= count ? true : undefined), 10_000, 20);
  abort.abort();
  await reading;
  return states;
}

describe('chat on screen', () => {
  it('puts a platform message on screen for 15 s by default, as text, seen by the studio and the overlay page, then takes it off', async () => {
    const messageId = await platformMessage('  <b>x</b> hello\nthere  ');
    const before = await call(api, host, 'GET', path());
    expect(before.status).toBe(200);
    const { onScreen: nothing, overlayUrl } = before.body as { onScreen: ChatOnScreen | null; overlayUrl: string };
    expect(nothing).toBeNull();
    const overlay = new URL(overlayUrl);
    expect(overlay.pathname).toBe(`/overlay/chat-on-screen/${projectId}`);
    const stream = `${api.url}${overlay.pathname}/stream${overlay.search}`;

    const from = studio.received.length;
    const states = await overlayStates(stream, 3, async () => {
      const shown = await call(api, host, 'PUT', path(), { kind: 'platform', messageId });
      expect(shown.status, JSON.stringify(shown.body)).toBe(200);
      const onScreen = chatOnScreenSchema.parse((shown.body as { onScreen: unknown }).onScreen);
      expect(onScreen).toMatchObject({ kind: 'platform', messageId, platform: 'twitch', displayName: 'Kappa_Fan', text: '<b>x</b> hello there' });
      expect(onScreen.remainingMs).toBe(CHAT_ON_SCREEN_DEFAULT_MS);
      // A studio that opens now (or reloads) reads it, with the time it has left.
      const read = (await call(api, host, 'GET', path())).body as { onScreen: ChatOnScreen };
      expect(read.onScreen).toMatchObject({ messageId, shownAt: onScreen.shownAt });
      expect(read.onScreen.remainingMs).toBeGreaterThan(0);
      expect(read.onScreen.remainingMs).toBeLessThanOrEqual(CHAT_ON_SCREEN_DEFAULT_MS);
      // Taken off with "only this one": it was this one.
      const hidden = await call(api, host, 'DELETE', `${path()}?messageId=${messageId}`);
      expect(hidden.status).toBe(200);
      expect((hidden.body as { onScreen: unknown }).onScreen).toBeNull();
    });
    expect(states[0]).toBeNull();
    expect(states[1]).toMatchObject({ messageId, text: '<b>x</b> hello there', platform: 'twitch' });
    expect(states[2]).toBeNull();
    await waitFor('the studio told twice', async () => (onScreenUpdates(from).length >= 2 ? true : undefined), 10_000, 20);
    expect(onScreenUpdates(from).map((s) => s?.messageId ?? null)).toEqual([messageId, null]);
    expect((await call(api, host, 'GET', path())).body).toMatchObject({ onScreen: null });
  });

  it('goes off by itself when its time is up, and a newer message is not taken off by an older one', async () => {
    const first = await platformMessage('first');
    const second = await platformMessage('a message far too long for a lower third '.repeat(20));
    const from = studio.received.length;
    expect((await call(api, host, 'PUT', path(), { kind: 'platform', messageId: first, durationMs: null })).status).toBe(200);
    const replaced = await call(api, host, 'PUT', path(), { kind: 'platform', messageId: second, durationMs: 3000 });
    const onScreen = (replaced.body as { onScreen: ChatOnScreen }).onScreen;
    expect(onScreen.text).toHaveLength(CHAT_ON_SCREEN_TEXT_MAX);
    expect(onScreen.text.endsWith('…')).toBe(true);
    // Another host still clicking the first one off changes nothing: the second stays.
    const stale = await call(api, host, 'DELETE', `${path()}?messageId=${first}`);
    expect((stale.body as { onScreen: ChatOnScreen }).onScreen.messageId).toBe(second);
    await waitFor('the end of its time', async () => (onScreenUpdates(from).at(-1) === null ? true : undefined), 15_000, 50);
    expect(onScreenUpdates(from).map((s) => s?.messageId ?? null)).toEqual([first, second, null]);
    expect((await call(api, host, 'GET', path())).body).toMatchObject({ onScreen: null });
  });

  it("tells the session's worker of each change, and the studio what the worker reports on air (issue 53 item 1)", async () => {
    const messageId = await platformMessage('on air please');
    const worker = api.redis.duplicate();
    const commands: unknown[] = [];
    worker.on('message', (_channel: string, raw: string) => commands.push(sessionCommandSchema.parse(JSON.parse(raw))));
    await worker.subscribe(sessionKeys.commands(projectId));
    try {
      const from = studio.received.length;
      const shown = await call(api, host, 'PUT', path(), { kind: 'platform', messageId, durationMs: null });
      const onScreen = chatOnScreenSchema.parse((shown.body as { onScreen: unknown }).onScreen);
      await waitFor('the worker told', async () => (commands.length >= 1 ? true : undefined), 10_000, 20);
      // The worker reads the message where the api keeps it.
      expect(JSON.parse((await api.redis.get(sessionKeys.chatOnScreen(projectId)))!)).toMatchObject({ messageId, text: 'on air please' });
      // Nothing is on air until the pipeline says so: another session's report and another kind reach nobody.
      const onAir = { messageId, shownAt: onScreen.shownAt };
      const channel = sessionStatusKeys.channel(projectId);
      await api.redis.publish(channel, JSON.stringify({ sessionId: randomUUID(), type: 'chatOnScreenApplied', onAir }));
      await api.redis.publish(channel, JSON.stringify({ sessionId: projectId, type: 'planApplied', version: 3 }));
      await api.redis.publish(channel, JSON.stringify({ sessionId: projectId, type: 'chatOnScreenApplied', onAir }));
      const onAirUpdates = () =>
        studio.received.slice(from).flatMap((m: ServerMessage) => (m.type === 'chat.onAir' && m.projectId === projectId ? [m.onAir] : []));
      await waitFor('the studio told it is on air', async () => (onAirUpdates().length >= 1 ? true : undefined), 10_000, 20);
      expect(onAirUpdates()).toEqual([onAir]);
      // A studio that opens later reads what the worker keeps.
      await api.redis.set(sessionKeys.chatOnAir(projectId), JSON.stringify(onAir));
      expect((await call(api, host, 'GET', path())).body).toMatchObject({ onScreen: { messageId }, onAir });
      expect((await call(api, host, 'DELETE', path())).status).toBe(200);
      await waitFor('the worker told again', async () => (commands.length >= 2 ? true : undefined), 10_000, 20);
      expect(commands).toEqual([{ type: 'chatOnScreen' }, { type: 'chatOnScreen' }]);
    } finally {
      await api.redis.del(sessionKeys.chatOnAir(projectId));
      worker.disconnect();
    }
  });

  it("shows a message of the room chat with the sender's name and no platform", async () => {
    const row = await api.db.guestChatMessage.create({
      data: { projectId, senderId: randomUUID(), senderName: 'Grace (guest)', senderRole: 'guest', content: 'hi <i>all</i>' },
    });
    const shown = await call(api, host, 'PUT', path(), { kind: 'guest', messageId: row.id });
    expect(shown.status).toBe(200);
    expect((shown.body as { onScreen: ChatOnScreen }).onScreen).toMatchObject({
      kind: 'guest',
      platform: null,
      displayName: 'Grace (guest)',
      text: 'hi <i>all</i>',
    });
    // The same id as a platform message is not one.
    const wrongKind = await call(api, host, 'PUT', path(), { kind: 'platform', messageId: row.id });
    expect(wrongKind.body).toMatchObject({ error: { code: 'CHAT_MESSAGE_NOT_FOUND' } });
    await call(api, host, 'DELETE', path());
  });

  it("refuses bad input with stable codes: an unknown message, another project's, a private one, a duration out of range, a kind it does not know", async () => {
    const other = (await api.db.project.create({ data: { ownerId: host.id, name: 'Other' } })).id;
    const elsewhere = await platformMessage('elsewhere', { projectId: other });
    const whisper = await platformMessage('psst', { private: true });
    const ok = await platformMessage('fine');
    const cases: [unknown, number, string][] = [
      [{ kind: 'platform', messageId: randomUUID() }, 404, 'CHAT_MESSAGE_NOT_FOUND'],
      [{ kind: 'platform', messageId: elsewhere }, 404, 'CHAT_MESSAGE_NOT_FOUND'],
      [{ kind: 'platform', messageId: whisper }, 422, 'CHAT_MESSAGE_PRIVATE'],
      [{ kind: 'platform', messageId: ok, durationMs: 500 }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'platform', messageId: ok, durationMs: 3_600_000 }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'email', messageId: ok }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'platform', messageId: 'not-an-id' }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'platform', messageId: ok, extra: true }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of cases) {
      const res = await call(api, host, 'PUT', path(), body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body, JSON.stringify(body)).toMatchObject({ error: { code, message: expect.any(String) } });
    }
    expect((await call(api, host, 'GET', path())).body).toMatchObject({ onScreen: null });
  });

  it('lets the roles that edit the show change it (co-host, contributor); a viewer and a guest may only read; a stranger sees no project', async () => {
    const messageId = await platformMessage('from the audience');
    const member = async (role: 'cohost' | 'contributor' | 'viewer') => {
      const user = await createTestUser(api);
      await api.db.projectMember.create({ data: { projectId, userId: user.id, role } });
      return user;
    };
    for (const role of ['cohost', 'contributor'] as const) {
      const user = await member(role);
      expect((await call(api, user, 'PUT', path(), { kind: 'platform', messageId })).status, role).toBe(200);
      expect((await call(api, user, 'DELETE', path())).status, role).toBe(200);
    }
    const viewer = await member('viewer');
    // From an address of its own: guest joins are rate-limited per address, and other files join from loopback.
    const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const joined = await joinAsGuest(api, projectId, await guestLinkOf(api, host, projectId), { displayName: 'Grace', ip });
    expect(joined.guest, `${joined.status} ${JSON.stringify(joined.body)}`).not.toBeNull();
    for (const [label, user] of [
      ['viewer', viewer],
      ['guest', joined.guest!],
    ] as const) {
      expect((await call(api, user, 'GET', path())).status, label).toBe(200);
      const put = await call(api, user, 'PUT', path(), { kind: 'platform', messageId });
      expect(put.status, label).toBe(403);
      expect(put.body, label).toMatchObject({ error: { code: 'FORBIDDEN' } });
      expect((await call(api, user, 'DELETE', path())).status, label).toBe(403);
    }
    const stranger = await createTestUser(api);
    expect((await call(api, stranger, 'PUT', path(), { kind: 'platform', messageId })).status).toBe(404);
    expect((await call(api, null, 'PUT', path(), { kind: 'platform', messageId })).status).toBe(401);
    expect((await call(api, host, 'GET', path())).body).toMatchObject({ onScreen: null });
  });

  it("serves the overlay page only with the project's key, and the page sets every text as text", async () => {
    const { overlayUrl } = (await call(api, host, 'GET', path())).body as { overlayUrl: string };
    const url = new URL(overlayUrl);
    const page = await fetch(`${api.url}${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
    const html = await page.text();
    expect(html).toContain('textContent=m.text');
    expect(html).not.toMatch(/innerHTML|insertAdjacentHTML|outerHTML/);
    expect((await fetch(`${api.url}${url.pathname}`)).status).toBe(404);
    expect((await fetch(`${api.url}${url.pathname}?key=wrong`)).status).toBe(404);
    expect((await fetch(`${api.url}${url.pathname}/stream?key=wrong`)).status).toBe(404);
    expect((await fetch(`${api.url}/overlay/chat-on-screen/${randomUUID()}${url.search}`)).status).toBe(404);
  });
});
