// A render worker killed with -9 takes its page's processes with it: Chromium (the browser and
// every process it forked: zygotes, renderer, utility processes), Xvfb, PulseAudio and gst-launch
// are gone within 2 s, although the worker ran no clean-up code.
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '@onair/embedded/test-services';
import { renderKeys, renderStatusSchema, type RenderStatus } from '@onair/protocol';
import { RenderRequests } from '@onair/runtime';
import {
  descendantsOf,
  describeProcesses,
  killProcesses,
  leftoverProcesses,
  readProcessTable,
  startWorkerProcess,
  stillRunning,
  waitForNoProcesses,
  type ProcessEntry,
  type WorkerUnderTest,
} from '@onair/runtime/testkit';
import { freeUdpPort } from './support/rtp-receiver.ts';
import { startTestSite, type TestSite } from './support/test-site.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const prefix = `rkill${process.pid}${Math.random().toString(36).slice(2, 6)}`;
let site: TestSite;
let redis: Redis;
let bull: Redis;
let sub: Redis;
let requests: RenderRequests;
const statuses: RenderStatus[] = [];

beforeAll(async () => {
  site = await startTestSite();
  redis = new Redis(testRedisUrl());
  bull = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
  sub = new Redis(testRedisUrl());
  requests = new RenderRequests(bull, redis, prefix);
  sub.on('message', (_c: string, m: string) => statuses.push(renderStatusSchema.parse(JSON.parse(m))));
});

afterAll(async () => {
  await requests.obliterate().catch(() => undefined);
  await requests.close();
  for (const c of [redis, bull, sub]) c.disconnect();
  await site.close();
});

async function waitFor<T>(what: string, fn: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const named = (entries: ProcessEntry[], pattern: RegExp) => entries.filter((e) => pattern.test(e.argv[0] ?? ''));

describe('a render worker killed with -9', () => {
  it('leaves no Chromium, Xvfb, PulseAudio or capture process of its page behind (within 2 s)', async () => {
    const sessionId = `session-${prefix}`;
    await sub.subscribe(renderKeys.status(sessionId));
    process.env.RENDER_ALLOWED_HOSTS = `localhost:${site.port}`;
    process.env.RENDER_QUEUE_PREFIX = prefix;
    const worker: WorkerUnderTest = startWorkerProcess('render', 'src/main.ts', root, testRedisUrl());
    let page: ProcessEntry[] = [];
    let pageDir = '';
    try {
      await worker.waitForRegistration();
      await requests.request({
        renderId: `${sessionId}.page`,
        sessionId,
        sourceId: 'page',
        page: { url: `${site.base}/animated`, width: 852, height: 480, transparent: false },
        // Sound too, so the page has its PulseAudio server.
        video: { host: '127.0.0.1', port: await freeUdpPort(), payloadType: 96 },
        audio: { host: '127.0.0.1', port: await freeUdpPort(), payloadType: 111 },
      });
      await waitFor('the page to be live', () => statuses.find((s) => s.state === 'live'), 30_000);

      // Everything the worker runs for its page, read from /proc while it lives.
      page = descendantsOf(readProcessTable(), [worker.child.pid!]).filter((e) => e.pid !== worker.child.pid);
      const chromium = named(page, /chrom/);
      // The browser, its zygotes and at least one renderer.
      expect(chromium.length, describeProcesses(page)).toBeGreaterThanOrEqual(3);
      for (const program of [/Xvfb$/, /pulseaudio$/, /gst-launch-1\.0$/]) expect(named(page, program), describeProcesses(page)).toHaveLength(1);
      const profile = chromium.flatMap((e) => e.argv).find((a) => a.startsWith('--user-data-dir='));
      pageDir = dirname(profile!.slice('--user-data-dir='.length));
      expect(pageDir).toContain(`onair-page-${worker.child.pid}-`);

      worker.child.kill('SIGKILL');
      // What was there before the kill, and anything that names the page's folder (a process
      // Chromium might have forked since the snapshot).
      const left = () => [...stillRunning(page), ...leftoverProcesses({ mentioning: [pageDir] })];
      const { ms, left: remaining } = await waitForNoProcesses(left, 2000);
      console.warn(`render worker kill -9: its ${page.length} page processes gone ${ms} ms after the kill`);
      expect(describeProcesses(remaining)).toBe('');
    } finally {
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
      killProcesses(page);
      if (pageDir) killProcesses(leftoverProcesses({ mentioning: [pageDir] }));
      // The next worker would sweep the folder of a dead one; this test leaves none behind either.
      if (pageDir) await rm(pageDir, { recursive: true, force: true });
    }
  });
});
