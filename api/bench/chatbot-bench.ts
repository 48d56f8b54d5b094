/**
 * The chatbot under load (issue 22), run by hand: `npm run bench:chatbot -w api`. Prints figures,
 * gates nothing. One api process (the real main.ts) with embedded PostgreSQL and Redis runs one
 * channel's bot against the Twitch doubles (IRC chat and Helix, in this process):
 *
 * 1. Filtering: BENCH_MESSAGES chat lines written at once, every tenth with a banned word (removed
 *    through Helix) and the uppercase, symbols and links filters on; the time until the bot has
 *    handled the last of them (a `!ping` written after them is answered: the bot reads in order)
 *    gives messages per second filtered, with the api process's CPU meanwhile.
 * 2. Command replies: BENCH_PINGS `!ping n` written BENCH_PING_GAP_MS apart; latency from the line
 *    written at the chat double to the bot's reply arriving at the Helix double (p50/p95/max).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DEFAULT_FILTERS } from '@onair/protocol';
import { createDb, type Prisma } from '@onair/db';
import { freePort, startTwitchChatDouble, waitFor } from '@onair/embedded';
import setupServices, { createTestDatabase, testRedisUrl } from '@onair/embedded/test-services';
import { startTwitchDouble } from '../test/helpers/platform-doubles/twitch-double.ts';
import { createTestUser } from '../test/helpers/studio-api.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const PINGS = Number(process.env.BENCH_PINGS ?? 300);
const PING_GAP_MS = Number(process.env.BENCH_PING_GAP_MS ?? 20);
const AUTH_SECRET = 'chatbot-bench-secret-0123456789abcdef0123456789';
const BOT_ID = '4242';

async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const print = (line: string) => process.stdout.write(`${line}\n`);
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const stopServices = await setupServices();
  const [irc, twitch] = await Promise.all([startTwitchChatDouble(), startTwitchDouble()]);
  twitch.moderators.add(BOT_ID);
  // The benchmark measures the bot, not Twitch's 800 calls a minute.
  twitch.rateLimitPerMinute = 10_000_000;
  const database = await createTestDatabase();
  const db = createDb(database.url);
  const login = `bench${randomUUID().slice(0, 6)}`;
  const creator = await createTestUser({ db, authSecret: AUTH_SECRET });
  const accountId = `twitch-${randomUUID()}`;
  await db.account.create({ data: { id: randomUUID(), accountId, providerId: 'twitch', userId: creator.id } });
  await db.platformLogin.create({ data: { providerId: 'twitch', accountId, login } });
  await db.chatbotCommand.create({ data: { channelId: creator.id, name: '!ping', nameKey: '!ping', message: 'pong {args}', globalCooldownSeconds: 0 } });
  const filters = structuredClone(DEFAULT_FILTERS);
  filters.bannedWords = { enabled: true, punishment: 'remove-silent', patterns: ['spamword', '(a+)+$'] };
  filters.caps.enabled = true;
  filters.symbols.enabled = true;
  filters.links.enabled = true;
  await db.chatbotSettings.create({
    data: { channelId: creator.id, enabled: true, enabledAt: new Date(), filters: filters as unknown as Prisma.InputJsonValue },
  });

  const replyAt = new Map<string, number>();
  twitch.onChatMessage = (_b, _s, text) => replyAt.set(text, performance.now());

  const port = await freePort();
  const api = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../src/main.ts', import.meta.url))], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_SECRET,
      LOG_LEVEL: 'warn',
      ...twitch.env(),
      TWITCH_CHAT_URL: irc.wsUrl,
      CHATBOT_TWITCH_USER_ID: BOT_ID,
      CHATBOT_TWITCH_TOKEN: twitch.issueAccessToken(),
      PLATFORM_SUPERVISE_MS: '200',
      CHAT_CONNECTORS: 'false',
      EVENTS_CONNECTORS: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitFor('the bot in the chat', async () => (irc.joined(login).length > 0 ? true : undefined), 120_000, 100);
    const say = (user: string, text: string) => irc.say(login, { login: user, text });
    say('warmup', '!ping warmup');
    await waitFor('the warm-up answer', async () => (replyAt.has('pong warmup') ? true : undefined), 30_000, 10);

    // 1. Filtering throughput.
    const cpuBefore = await cpuTicks(api.pid!);
    const started = performance.now();
    for (let i = 0; i < MESSAGES; i++) {
      const k = i % 10;
      say(
        `viewer${i % 500}`,
        k === 0 ? `buy spamword now ${i}` : k === 5 ? `look at https://example.com/page/${i} please` : `hello everyone, message number ${i} here`,
      );
    }
    say('marker', '!ping end');
    await waitFor('the end marker', async () => (replyAt.has('pong end') ? true : undefined), 600_000, 5);
    const seconds = (replyAt.get('pong end')! - started) / 1000;
    const cpu = ((await cpuTicks(api.pid!)) - cpuBefore) / 100;
    await waitFor('the removals', async () => (twitch.chat.deleted.length >= MESSAGES / 5 ? true : undefined), 120_000, 20).catch(() => undefined);
    print(
      `chatbot filtering: ${MESSAGES} messages in ${seconds.toFixed(2)} s = ${Math.round(MESSAGES / seconds)} messages/s filtered (${twitch.chat.deleted.length} removed through Helix); api CPU ${cpu.toFixed(2)} s = ${(cpu / seconds).toFixed(2)} cores`,
    );

    // 2. Command reply latency.
    const sentAt = new Map<number, number>();
    for (let i = 0; i < PINGS; i++) {
      sentAt.set(i, performance.now());
      say(`pinger${i % 20}`, `!ping ${i}`);
      await new Promise((r) => setTimeout(r, PING_GAP_MS));
    }
    await waitFor('every ping answered', async () => ([...sentAt.keys()].every((i) => replyAt.has(`pong ${i}`)) ? true : undefined), 60_000, 10);
    const latencies = [...sentAt].map(([i, at]) => replyAt.get(`pong ${i}`)! - at).sort((a, b) => a - b);
    print(
      `chatbot command reply (chat double → bot → Helix double), ${PINGS} commands ${PING_GAP_MS} ms apart: p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
  } finally {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    await db.$disconnect();
    await database.drop();
    await irc.close();
    await twitch.close();
    await stopServices();
  }
}

await main();
