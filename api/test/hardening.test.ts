/**
 * The findings of the black-box hardening round, each reproduced against the real api (HTTP and
 * /ws on one server, real PostgreSQL and Redis): every one must end in a clear 4xx (or a closed
 * socket), the api must keep serving everybody else, and nothing a client sent may be logged as an
 * error of ours.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { signInByEmailCode } from './helpers/browser.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let free: TestUser;
let premium: TestUser;
const logLines: { level: number; msg: string }[] = [];
const sockets: WebSocket[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  api = await startStudioApi({
    logger: pino({ level: 'info' }, sink),
    env: {
      WS_MESSAGES_PER_SECOND: '5',
      WS_MESSAGE_BURST: '10',
      WS_MAX_SOCKETS_PER_USER: '4',
      SCENE_MAX_SOURCES: '4',
      SCENE_MAX_LAYERS: '3',
      SCENE_MAX_SCENES: '3',
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      // Test files share one Redis and all call from 127.0.0.1: this api gets its own sign-in rate buckets.
      AUTH_RATE_LIMIT_PREFIX: `test-rate:${randomUUID()}`,
    },
  });
  free = await createTestUser(api);
  premium = await createTestUser(api, { plan: 'Premium' });
});
afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await api?.close();
});

const errorLogs = () => logLines.filter((l) => l.level >= 50);

function openSocket(user: TestUser): Promise<{ ws: WebSocket; messages: { type: string; code?: string }[]; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(api.wsUrl, { headers: { cookie: user.cookie } });
    sockets.push(ws);
    const messages: { type: string; code?: string }[] = [];
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('message', (data) => {
      messages.push(JSON.parse(data.toString()) as { type: string });
      if (messages.length === 1) resolve({ ws, messages, closed });
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.on('error', () => undefined);
  });
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function pingPong(socket: { ws: WebSocket; messages: { type: string }[] }): Promise<void> {
  const before = socket.messages.filter((m) => m.type === 'pong').length;
  socket.ws.send(JSON.stringify({ type: 'ping' }));
  await until('pong', () => (socket.messages.filter((m) => m.type === 'pong').length > before ? true : undefined));
}

describe('/ws limits', () => {
  it('closes only the socket that sent an oversized message; the api and every other socket go on', async () => {
    const bystander = await openSocket(premium);
    const attacker = await openSocket(free);
    attacker.ws.send(JSON.stringify({ type: 'ping', pad: 'x'.repeat(200_000) }));
    expect(await attacker.closed).toBe(1009);
    await pingPong(bystander);
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
    // A new socket of the same user still opens: the server did not go down and come back.
    const again = await openSocket(free);
    await pingPong(again);
    again.ws.close();
    bystander.ws.close();
    expect(errorLogs()).toEqual([]);
  });

  it('refuses messages over the rate with RATE_LIMITED, then closes a socket that keeps flooding', async () => {
    const socket = await openSocket(free);
    for (let i = 0; i < 15; i++) socket.ws.send(JSON.stringify({ type: 'ping' }));
    await until('a RATE_LIMITED error', () => socket.messages.find((m) => m.type === 'error' && m.code === 'RATE_LIMITED'));
    // At most the burst was served.
    expect(socket.messages.filter((m) => m.type === 'pong').length).toBeLessThanOrEqual(10);
    // A client that slows down is served again.
    await new Promise((r) => setTimeout(r, 600));
    await pingPong(socket);
    for (let i = 0; i < 40; i++) socket.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await socket.closed).toBe(1008);
  });

  it('caps the sockets one user holds; closing one makes room', async () => {
    const open = await Promise.all([1, 2, 3, 4].map(() => openSocket(premium)));
    await expect(openSocket(premium)).rejects.toThrow('refused with 429');
    // Other users are not affected by one user's cap.
    const other = await openSocket(free);
    other.ws.close();
    open[0]!.ws.close();
    await open[0]!.closed;
    const fifth = await openSocket(premium);
    await pingPong(fifth);
    for (const s of [...open, fifth]) s.ws.close();
  });

  it('answers unstorable text in a message with VALIDATION_FAILED', async () => {
    const socket = await openSocket(free);
    socket.ws.send(JSON.stringify({ type: 'subscribe', projectId: 'a\u0000b' }));
    socket.ws.send('{"type":"subscribe","projectId":"\\ud800"}');
    await until('two errors', () => (socket.messages.filter((m) => m.type === 'error' && m.code === 'VALIDATION_FAILED').length === 2 ? true : undefined));
    await pingPong(socket);
    socket.ws.close();
  });
});

describe('HTTP input that used to answer 500', () => {
  it('a broken %-escape in a path parameter is 400 MALFORMED_URL, signed in or not', async () => {
    for (const user of [null, free]) {
      const res = await call(api, user, 'GET', '/api/v1/projects/%E0/scene');
      expect(res).toMatchObject({ status: 400, body: { error: { code: 'MALFORMED_URL' } } });
    }
    expect((await call(api, free, 'DELETE', '/api/v1/projects/%E0%A4/destinations/%FF')).status).toBe(400);
  });

  it('NUL and unpaired surrogates in any string are 400 VALIDATION_FAILED with the field named; nothing is stored', async () => {
    const nulName = await call(api, free, 'PATCH', '/api/v1/users/current', { displayName: '\u0000' });
    expect(nulName).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED', details: { path: ['displayName'], rule: 'unsafe-text' } } } });
    expect((nulName.body as { error: { message: string } }).error.message).toMatch(/body\.displayName contains a NUL character/);
    expect((await call(api, free, 'POST', '/api/v1/projects', { name: 'a\u0000b' })).status).toBe(400);
    expect((await call(api, free, 'GET', '/api/v1/projects')).body).toMatchObject({ projects: [] });

    const project = (await call(api, free, 'POST', '/api/v1/projects', { name: 'Show' })).body as { id: string; version: number };
    const patch = `{"baseVersion":${project.version},"ops":[{"op":"addScene","sceneId":"${randomUUID()}","name":"\\ud800"}]}`;
    const lone = await call(api, free, 'PATCH', `/api/v1/projects/${project.id}/scene`, patch);
    expect(lone).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED', details: { rule: 'unsafe-text' } } } });
    expect((lone.body as { error: { message: string } }).error.message).toMatch(/unpaired surrogate/);
    // A key counts as text too, and so does a query string.
    expect((await call(api, free, 'PATCH', '/api/v1/users/current', '{"display\\u0000Name":"x"}')).status).toBe(400);
    expect((await call(api, free, 'GET', '/api/v1/projects?x=%00')).status).toBe(400);
    expect(errorLogs()).toEqual([]);
  });

  it('routes outside the contract meet the same rules: the OAuth popup, the web app, unknown paths', async () => {
    expect((await call(api, free, 'GET', '/api/v1/destinations/auth/twitch/callback?state=%00&code=x')).status).toBe(400);
    for (const path of ['/%E0', '/studio/%E0%A4', '/api/%E0', '/api/v1/destinations/auth/%E0/callback']) {
      const res = await fetch(`${api.url}${path}`, { headers: { cookie: free.cookie } });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
    expect(errorLogs()).toEqual([]);
  });

  it('bodies nested without end are refused before any schema walks them', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect((await call(api, free, 'POST', '/api/v1/projects', `{"name":${deep}}`)).status).toBe(400);
  });
});

describe('sign-in bodies', () => {
  it('are limited in size and type before better-auth reads them', async () => {
    const big = await fetch(`${api.url}/api/auth/email-otp/send-verification-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${'a'.repeat(2 * 1024 * 1024)}@example.test`, type: 'sign-in' }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    // 20 MiB streamed without a length: refused once the limit is passed, not read to the end.
    const chunks = (async function* () {
      for (let i = 0; i < 20; i++) yield new Uint8Array(1024 * 1024).fill(0x61);
    })();
    const streamed = await fetch(`${api.url}/api/auth/sign-in/email-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const other = await fetch(`${api.url}/api/auth/sign-in/email-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'x'.repeat(1000),
    });
    expect(other.status).toBe(415);
    const nul = await fetch(`${api.url}/api/auth/email-otp/send-verification-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a\u0000@example.test', type: 'sign-in' }),
    });
    expect(nul.status).toBe(400);
  });

  it('still sign people in: a parsed body reaches better-auth whole', async () => {
    const browser = await signInByEmailCode(api.url, `${randomUUID()}@example.test`);
    expect((await browser.get('/api/v1/users/current')).status).toBe(200);
  });
});

describe('scene document caps (SCENE_MAX_*)', () => {
  it('refuses the source, layer and scene over the configured caps with words, and lets a document shrink', async () => {
    const project = (await call(api, premium, 'POST', '/api/v1/projects', { name: 'Caps' })).body as { id: string };
    const doc = (await call(api, premium, 'GET', `/api/v1/projects/${project.id}/scene`)).body as {
      version: number;
      sources: unknown[];
      scenes: { id: string; layers: unknown[] }[];
    };
    let version = doc.version;
    const patch = async (ops: unknown[]) => {
      const res = await call(api, premium, 'PATCH', `/api/v1/projects/${project.id}/scene`, { baseVersion: version, ops });
      if (res.status === 200) version = (res.body as { version: number }).version;
      return res;
    };
    const microphone = () => ({ id: randomUUID(), kind: 'microphone', name: 'Mic', settings: {} });
    const added: string[] = [];
    while (doc.sources.length + added.length < 4) {
      const source = microphone();
      expect((await patch([{ op: 'addSource', source }])).status).toBe(200);
      added.push(source.id);
    }
    const over = await patch([{ op: 'addSource', source: microphone() }]);
    expect(over).toMatchObject({
      status: 422,
      body: {
        error: {
          code: 'SCENE_RULE_VIOLATED',
          message: 'A project can have up to 4 sources. Remove sources you no longer use before adding more.',
          details: { rule: 'document-source-limit', limit: 4 },
        },
      },
    });

    const scene = doc.scenes[0]!;
    const layersFree = 3 - scene.layers.length;
    const layerOps = added.map((sourceId) => ({ op: 'addLayer', sceneId: scene.id, layer: { id: randomUUID(), sourceId } }));
    expect(layerOps.length).toBeGreaterThan(layersFree);
    if (layersFree > 0) expect((await patch(layerOps.slice(0, layersFree))).status).toBe(200);
    const layerOver = await patch([layerOps[layersFree]]);
    expect(layerOver).toMatchObject({
      status: 422,
      body: {
        error: { message: 'A scene can show up to 3 sources. Remove one from the scene before adding another.', details: { rule: 'document-layer-limit' } },
      },
    });

    const scenes = [randomUUID(), randomUUID(), randomUUID()];
    const addedScenes = await patch(scenes.slice(0, 3 - doc.scenes.length).map((id, i) => ({ op: 'addScene', sceneId: id, name: `S${i}` })));
    expect(addedScenes.status).toBe(200);
    const tooMany = await patch([{ op: 'addScene', sceneId: randomUUID(), name: 'One more' }]);
    expect(tooMany).toMatchObject({ status: 422, body: { error: { details: { rule: 'document-scene-limit', limit: 3 } } } });
    expect((await patch([{ op: 'removeScene', sceneId: scenes[0] }])).status).toBe(200);
    expect((await patch([{ op: 'addScene', sceneId: randomUUID(), name: 'Room again' }])).status).toBe(200);
    expect(errorLogs()).toEqual([]);
  });
});

describe('custom RTMP addresses in every spelling', () => {
  it('refuses loopback and metadata addresses written with a trailing dot or in numeric forms', async () => {
    const project = (await call(api, premium, 'POST', '/api/v1/projects', { name: 'Addresses' })).body as { id: string };
    for (const rtmpUrl of [
      'rtmp://localhost.:1935/live',
      'rtmp://127.0.0.1.:1935/live',
      'rtmp://169.254.169.254./live',
      'rtmp://2130706433/live',
      'rtmp://0x7f.1/live',
    ]) {
      const res = await call(api, premium, 'POST', `/api/v1/projects/${project.id}/destinations`, { type: 'CustomRTMP', name: 'x', rtmpUrl, streamKey: 'k' });
      expect(res, rtmpUrl).toMatchObject({ status: 422, body: { error: { code: 'DESTINATION_ADDRESS_REFUSED' } } });
    }
    // Where the operator allows private servers, the metadata address stays refused in any spelling.
    const lan = await startStudioApi({
      databaseUrl: api.databaseUrl,
      env: { ALLOW_PRIVATE_RTMP: 'true', SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') },
    });
    try {
      for (const rtmpUrl of ['rtmp://169.254.169.254./live', 'rtmp://2852039166/live']) {
        const res = await call(lan, premium, 'POST', `/api/v1/projects/${project.id}/destinations`, { type: 'CustomRTMP', name: 'x', rtmpUrl, streamKey: 'k' });
        expect(res, rtmpUrl).toMatchObject({
          status: 422,
          body: { error: { code: 'DESTINATION_ADDRESS_REFUSED', message: expect.stringContaining('metadata') } },
        });
      }
      expect(
        (
          await call(lan, premium, 'POST', `/api/v1/projects/${project.id}/destinations`, {
            type: 'CustomRTMP',
            name: 'LAN',
            rtmpUrl: 'rtmp://localhost.:1935/live',
            streamKey: 'k',
          })
        ).status,
      ).toBe(201);
    } finally {
      await lan.close();
    }
  });
});
