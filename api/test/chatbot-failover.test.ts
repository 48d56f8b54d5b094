/**
 * Failover of the chatbot (issue 22): two api processes on one database and one Redis, a channel's
 * bot running on one of them against the Twitch doubles. Killing that process (SIGKILL: its Redis
 * lease simply stops being renewed) moves the bot to the other within 10 s, and no message is
 * answered twice: every message the bot acts on is claimed in Redis first.
 *
 * What viewers write in the seconds without an owner is not answered: Twitch's IRC chat has no
 * replay (as chat-failover.test.ts says of the platform chat).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type Db } from '@onair/db';
import { freePort, startTwitchChatDouble, waitFor, type TwitchChatDouble } from '@onair/embedded';
import { createTestDatabase, testRedisUrl, type TestDatabase } from '@onair/embedded/test-services';
import { Redis } from 'ioredis';
import { startTwitchDouble, type TwitchDouble } from './helpers/platform-doubles/twitch-double.ts';
import { createTestUser } from './helpers/studio-api.ts';

const AUTH_SECRET = 'chatbot-failover-test-secret-0123456789abcdef';
const BOT_ID = '55501';
const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const cwd = fileURLToPath(new URL('..', import.meta.url));

interface ApiProcess {
  child: ChildProcess;
  output: string[];
}

let irc: TwitchChatDouble;
let twitch: TwitchDouble;
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
      ...twitch.env(),
      TWITCH_CHAT_URL: irc.wsUrl,
      CHAT_TWITCH_RECONNECT_MS: '300',
      CHATBOT_TWITCH_USER_ID: BOT_ID,
      CHATBOT_TWITCH_LOGIN: 'onairbot',
      CHATBOT_TWITCH_TOKEN: twitch.issueAccessToken(),
      // The lease and supervision of production: the takeover is measured as it would happen there.
      PLATFORM_OWNER_LEASE_MS: '5000',
      PLATFORM_SUPERVISE_MS: '1000',
      EVENTS_CONNECTORS: 'false',
      CHAT_CONNECTORS: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (d: Buffer) => output.push(d.toString()));
  const api = { child, output };
  processes.push(api);
  await waitFor(
    `the api on ${port} (${output.join('')})`,
    async () => ((await fetch(`${url}/healthz`).catch(() => null))?.ok ? true : undefined),
    120_000,
    200,
  );
  return api;
}

beforeAll(async () => {
  [irc, twitch] = await Promise.all([startTwitchChatDouble(), startTwitchDouble()]);
  twitch.moderators.add(BOT_ID);
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
  await irc?.close();
  await twitch?.close();
});

it('moves the bot to the other api within 10 s of its owner dying, answering no message twice', async () => {
  const creator = await createTestUser({ db, authSecret: AUTH_SECRET });
  const login = `ada${randomUUID().slice(0, 6)}`;
  const accountId = `twitch-${randomUUID()}`;
  await db.account.create({ data: { id: randomUUID(), accountId, providerId: 'twitch', userId: creator.id } });
  await db.platformLogin.create({ data: { providerId: 'twitch', accountId, login } });
  await db.chatbotCommand.create({ data: { channelId: creator.id, name: '!ping', nameKey: '!ping', message: 'pong {args}', globalCooldownSeconds: 0 } });
  await db.chatbotSettings.create({ data: { channelId: creator.id, enabled: true, enabledAt: new Date() } });
  twitch.onChatMessage = (_b, _s, text) => void irc.say(login, { login: 'onairbot', text });

  const ownerKey = `onair:chatbot:owner:${creator.id}`;
  const firstOwner = await waitFor('an owner of the bot', async () => (await redis.get(ownerKey)) ?? undefined, 20_000, 100);
  const owner = processes.find((p) => firstOwner.includes(`-${p.child.pid}-`))!;
  const survivor = processes.find((p) => p !== owner)!;
  expect(owner).toBeDefined();
  await waitFor('the bot in the chat', async () => (irc.joined(login).length > 0 ? true : undefined), 20_000, 50);

  const pongs = () => twitch.chat.messages.map((m) => m.text).filter((t) => t.startsWith('pong '));
  let n = 0;
  const writer = setInterval(() => irc.say(login, { login: `viewer${n % 5}`, text: `!ping ${n++}` }), 100);
  let takenOverAt = 0;
  try {
    await waitFor('answers from the first owner', async () => (pongs().length >= 10 ? true : undefined), 20_000, 50);
    owner.child.kill('SIGKILL');
    const killedAt = Date.now();
    await waitFor(
      'the other api to own the bot',
      async () => ((await redis.get(ownerKey))?.includes(`-${survivor.child.pid}-`) ? true : undefined),
      10_000,
      100,
    );
    takenOverAt = n;
    process.stdout.write(`chatbot taken over ${Date.now() - killedAt} ms after its owner was killed\n`);
    await waitFor('answers from the new owner', async () => (pongs().some((t) => Number(t.slice(5)) > takenOverAt) ? true : undefined), 15_000, 50);
    await new Promise((r) => setTimeout(r, 1000));
  } finally {
    clearInterval(writer);
  }
  const all = pongs();
  expect(new Set(all).size).toBe(all.length);
  expect(all.length).toBeGreaterThan(10);
}, 120_000);
