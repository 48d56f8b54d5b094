/**
 * Owner failover of the chat connectors (issue 16): two api processes on one database and one
 * Redis, a YouTube chat live on the doubles. Killing the process that owns the chat's connector
 * (SIGKILL: no goodbye, its Redis lease simply stops being renewed) moves the connector to the
 * other within 10 s, and a studio connected to the survivor sees every message once.
 *
 * YouTube is the platform for this: its chat is a list the new owner reads from the saved page
 * token, so nothing written during the takeover is lost. Twitch's IRC chat has no replay: what is
 * said in the seconds without an owner is lost there, as it is for any IRC client that reconnects.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type Db } from '@onair/db';
import { chatDoublesEnv, freePort, startChatDoubles, waitFor, type ChatDoubles } from '@onair/embedded';
import { createTestDatabase, testRedisUrl, type TestDatabase } from '@onair/embedded/test-services';
import { Redis } from 'ioredis';
import { createLiveChatProject, FAST_CHAT_ENV, StudioChatSocket } from './helpers/chat.ts';
import { createTestUser } from './helpers/studio-api.ts';

const AUTH_SECRET = 'chat-failover-test-secret-0123456789abcdef';
const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const cwd = fileURLToPath(new URL('..', import.meta.url));

interface ApiProcess {
  child: ChildProcess;
  url: string;
  wsUrl: string;
  output: string[];
}

let doubles: ChatDoubles;
let database: TestDatabase;
let db: Db;
let redis: Redis;
const processes: ApiProcess[] = [];

async function startApi(): Promise<ApiProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      AUTH_SECRET,
      LOG_LEVEL: 'warn',
      ...chatDoublesEnv(doubles),
      ...FAST_CHAT_ENV,
      // The lease and supervision of production: the takeover is measured as it would happen there.
      PLATFORM_OWNER_LEASE_MS: '5000',
      PLATFORM_SUPERVISE_MS: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (d: Buffer) => output.push(d.toString()));
  const api = { child, url, wsUrl: `ws://127.0.0.1:${port}/ws`, output };
  processes.push(api);
  // Generous: on a loaded machine tsx takes a while to load the api.
  await waitFor(`the api on ${port} (${output.join('')})`, async () => ((await fetch(`${url}/healthz`)).ok ? true : undefined), 120_000, 200);
  return api;
}

beforeAll(async () => {
  doubles = await startChatDoubles();
  database = await createTestDatabase();
  db = createDb(database.url);
  redis = new Redis(testRedisUrl());
  await Promise.all([startApi(), startApi()]);
}, 180_000);

afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await Promise.all(
    processes.map((p) => new Promise((resolve) => (p.child.exitCode !== null || p.child.signalCode !== null ? resolve(null) : p.child.once('exit', resolve)))),
  );
  redis?.disconnect();
  await db?.$disconnect();
  await database?.drop();
  await doubles?.close();
});

it('moves a chat to the other api within 10 s of its owner dying, with no message lost or shown twice', async () => {
  const host = await createTestUser({ db, authSecret: AUTH_SECRET }, { plan: 'Premium' });
  doubles.youtube.goLive();
  doubles.youtube.pollingIntervalMillis = 200;
  const project = await createLiveChatProject(db, doubles, host.id);
  const ownerKey = `onair:chat:owner:${project.youtube}`;
  const firstOwner = await waitFor('an owner of the YouTube chat', async () => (await redis.get(ownerKey)) ?? undefined, 15_000, 100);
  const owner = processes.find((p) => firstOwner.includes(`-${p.child.pid}-`))!;
  const survivor = processes.find((p) => p !== owner)!;
  expect(owner).toBeDefined();
  const studio = await StudioChatSocket.open(survivor.wsUrl, host.cookie, project.projectId);
  await studio.waitForState(project.youtube, 'live');

  // Viewers write all along: before, during and after the takeover.
  const posted: string[] = [];
  let n = 0;
  const writer = setInterval(() => posted.push(doubles.youtube.post(`Viewer ${n % 7}`, `message ${n++}`)), 50);
  try {
    await waitFor('messages through the first owner', async () => (studio.chatMessages().length >= 10 ? true : undefined), 15_000, 50);
    owner.child.kill('SIGKILL');
    const killedAt = Date.now();
    const newOwner = await waitFor(
      'the other api to own the chat',
      async () => {
        const value = await redis.get(ownerKey);
        return value?.includes(`-${survivor.child.pid}-`) ? value : undefined;
      },
      10_000,
      100,
    );
    expect(newOwner).not.toBe(firstOwner);
    // Told as a figure, not asserted: the bound is the waitFor above.
    process.stdout.write(`chat owner taken over ${Date.now() - killedAt} ms after the owner was killed\n`);
    await new Promise((r) => setTimeout(r, 1500));
  } finally {
    clearInterval(writer);
  }
  await waitFor(
    `all ${posted.length} messages at the studio`,
    async () => {
      const seen = new Set(studio.chatMessages().map((m) => m.content));
      return posted.every((_, i) => seen.has(`message ${i}`)) ? true : undefined;
    },
    20_000,
    100,
  );
  const shown = studio.received.flatMap((m) =>
    m.type === 'chat.messages' ? m.messages.filter((c) => c.destinationId === project.youtube).map((c) => c.content) : [],
  );
  expect(shown.length).toBe(posted.length);
  expect(new Set(shown).size).toBe(posted.length);
  expect(await db.chatMessage.count({ where: { destinationId: project.youtube } })).toBe(posted.length);
  studio.close();
}, 120_000);
