/**
 * Platform chat under load (issue 16), run by hand: `npm run bench:chat -w api`. Prints figures,
 * gates nothing. One api process (the real main.ts) with embedded PostgreSQL and Redis, live to the
 * three chat doubles; the doubles send a burst (BENCH_RATE messages a second for BENCH_SECONDS,
 * spread over Twitch, YouTube and Facebook) and a studio socket counts what arrives: messages a
 * second delivered, lost or doubled, platform → socket latency (p50/p95/max, overall and by
 * platform), and the cores the api process used meanwhile. YouTube is polled every
 * BENCH_YOUTUBE_POLL_MS (the double's pollingIntervalMillis), which bounds its latency.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createDb } from '@onair/db';
import { chatDoublesEnv, freePort, startChatDoubles, waitFor } from '@onair/embedded';
import setupServices, { createTestDatabase, testRedisUrl } from '@onair/embedded/test-services';
import { createLiveChatProject, FAST_CHAT_ENV, StudioChatSocket } from '../test/helpers/chat.ts';
import { createTestUser } from '../test/helpers/studio-api.ts';

const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const YOUTUBE_POLL_MS = Number(process.env.BENCH_YOUTUBE_POLL_MS ?? 200);
const AUTH_SECRET = 'chat-bench-secret-0123456789abcdef0123456789';

async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const stopServices = await setupServices();
  const doubles = await startChatDoubles();
  const database = await createTestDatabase();
  const db = createDb(database.url);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const api = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../src/main.ts', import.meta.url))], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
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
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitFor('the api', async () => ((await fetch(`${url}/healthz`)).ok ? true : undefined), 30_000, 200);
    const host = await createTestUser({ db, authSecret: AUTH_SECRET }, { plan: 'Premium' });
    doubles.youtube.goLive();
    doubles.facebook.goLive();
    doubles.youtube.pollingIntervalMillis = YOUTUBE_POLL_MS;
    const channel = 'benchchannel';
    const project = await createLiveChatProject(db, doubles, host.id, channel);
    const studio = await StudioChatSocket.open(`ws://127.0.0.1:${port}/ws`, host.cookie, project.projectId);
    for (const id of [project.twitch, project.youtube, project.facebook]) await studio.waitForState(id, 'live', 30_000);

    const sentAt = new Map<string, { at: number; platform: string }>();
    const arrivals = new Map<string, number>();
    const latencies: Record<string, number[]> = { twitch: [], youtube: [], facebook: [] };
    let doubled = 0;
    studio.ws.on('message', (data) => {
      const now = performance.now();
      const m = JSON.parse(data.toString()) as { type: string; messages?: { content: string }[] };
      if (m.type !== 'chat.messages') return;
      for (const c of m.messages ?? []) {
        const sent = sentAt.get(c.content);
        if (!sent) continue;
        if (arrivals.has(c.content)) doubled += 1;
        else {
          arrivals.set(c.content, now);
          latencies[sent.platform]!.push(now - sent.at);
        }
      }
    });

    const total = RATE * SECONDS;
    const platforms = ['twitch', 'youtube', 'facebook'] as const;
    const startTicks = await cpuTicks(api.pid!);
    const start = performance.now();
    let n = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * RATE));
        for (; n < due; n++) {
          const platform = platforms[n % 3]!;
          const text = `bench ${n} Kappa`;
          sentAt.set(text, { at: performance.now(), platform });
          if (platform === 'twitch')
            doubles.twitch.say(channel, { login: `viewer${n % 50}`, text, emotes: '25:' + (text.length - 5) + '-' + (text.length - 1) });
          else if (platform === 'youtube') doubles.youtube.post(`Viewer ${n % 50}`, text);
          else doubles.facebook.comment(`Friend ${n % 50}`, text);
        }
        if (n >= total) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
    });
    const sendMs = performance.now() - start;
    await waitFor('every message at the socket', async () => (arrivals.size >= total ? true : undefined), 30_000, 100).catch(() => undefined);
    const drainMs = performance.now() - start;
    const endTicks = await cpuTicks(api.pid!);
    const all = Object.values(latencies)
      .flat()
      .sort((a, b) => a - b);
    const line = (name: string, xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return `${name.padEnd(9)} ${String(s.length).padStart(6)} delivered  p50 ${percentile(s, 50).toFixed(0).padStart(5)} ms  p95 ${percentile(s, 95).toFixed(0).padStart(5)} ms  max ${(s.at(-1) ?? NaN).toFixed(0).padStart(5)} ms`;
    };
    print(`\nchat bench: ${total} messages at ${RATE}/s for ${SECONDS} s over Twitch, YouTube, Facebook (YouTube polled every ${YOUTUBE_POLL_MS} ms)`);
    print(`sent in ${(sendMs / 1000).toFixed(1)} s; all delivered after ${(drainMs / 1000).toFixed(1)} s`);
    print(
      `delivered ${arrivals.size}/${total} (${(arrivals.size / (drainMs / 1000)).toFixed(0)} msg/s over the run), lost ${total - arrivals.size}, doubled ${doubled}`,
    );
    print(line('all', all));
    for (const p of platforms) print(line(p, latencies[p]!));
    print(`api process: ${((endTicks - startTicks) / 100 / (drainMs / 1000)).toFixed(2)} cores on average over the run\n`);
    studio.close();
  } finally {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    await db.$disconnect();
    await database.drop();
    await doubles.close();
    await stopServices();
  }
}

await main();
