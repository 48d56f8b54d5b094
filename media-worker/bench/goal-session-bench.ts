/**
 * The whole goal session of issue 13, on the one-machine stack: `npx tsx bench/goal-session-bench.ts`
 * from media-worker/. `startStack` runs the api, one media worker and one render worker as
 * `./onair start` does; two Chromium pages (the host, and a co-host given the role through the
 * members API) publish their fake cameras over WebRTC; the scene holds both cameras, the logo and a
 * moving web page that the render worker renders; the broadcast goes to three destinations (the
 * local one and two on a second nginx-rtmp) at 720p30. Over a window after a warm-up it prints the
 * cores of the media worker's process tree (worker, pipeline process) and of the render worker's
 * (worker, Chromium, Xvfb) separately, the browsers' own cores (they share this machine), the
 * program's frame rate, and the frame rate each destination receives.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type BrowserContext } from 'playwright-core';
import { startRtmpServer, startStack, waitFor } from '@onair/embedded';
import { sessionStatusKeys, type DestinationView, type LocalStream, type SceneDocument, type SessionStats } from '@onair/protocol';
import { ProcessTreeUsage } from '@onair/runtime';
import { startDnsDouble } from '@onair/runtime/dns-double';
import { Redis } from 'ioredis';
import { grantPremium, inviteAndAccept, openNewStudio, signIn } from '../../control-ui/e2e/support/studio.ts';
import { probeStream, readPackets } from '../test/helpers/stream-probe.ts';
import { loadAverage } from './proc-cpu.ts';

const execFileAsync = promisify(execFile);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 10_000);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const print = (line: string): void => void process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A page that moves every frame, as an alerts overlay does while it animates. */
const PAGE = `<!doctype html><html><body style="margin:0;background:transparent;overflow:hidden">
<div id="b" style="position:absolute;width:160px;height:160px;border-radius:50%;background:#f0a020"></div>
<div id="t" style="position:absolute;left:40px;bottom:40px;font:bold 64px sans-serif;color:#fff"></div>
<script>let n=0;(function f(){n++;b.style.left=(n*6%1100)+'px';b.style.top=(200+Math.sin(n/15)*150)+'px';t.textContent='Alert '+n;requestAnimationFrame(f);})();</script></body></html>`;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-goal-bench-'));
  const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const sitePort = (site.address() as AddressInfo).port;
  // The api refuses browser sources at private addresses, as it should: the page gets a public
  // name, which the stack's egress resolves through a DNS double to this machine, where the render
  // worker's allowlist (matched on the name) lets it through.
  const dns = await startDnsDouble();
  const pageHost = 'alerts.onair-bench.example';
  dns.set(pageHost, ['127.0.0.1']);
  const extra = await startRtmpServer({ dir: join(dir, 'extra-rtmp'), acceptKeys: ['goal-two', 'goal-three'] });
  // A folder of its own: startStack lets PostgreSQL (a user of its own when run as root) into it.
  const stackDir = await mkdtemp(join(tmpdir(), 'onair-goal-stack-'));
  const stack = await startStack({
    dataDir: stackDir,
    port: 0,
    env: { LOG_LEVEL: 'warn', RENDER_ALLOWED_HOSTS: `${pageHost}:${sitePort}`, EGRESS_DNS_SERVERS: dns.server, ALLOW_PRIVATE_RTMP: 'true' },
  });
  process.env.ONAIR_E2E_DATABASE_URL = stack.databaseUrl;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    env: { ...process.env, HOME: dir },
    args: [
      '--no-sandbox',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--allow-loopback-in-peer-connection',
      '--disable-features=WebRtcHideLocalIpsWithMdns',
    ],
  });
  const redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: null });
  try {
    const context = (): Promise<BrowserContext> =>
      browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: stack.url, permissions: ['camera', 'microphone'] });
    const [host, cohost] = [await context(), await context()];
    const hostEmail = `goal-host-${randomUUID()}@example.test`;
    const cohostEmail = `goal-cohost-${randomUUID()}@example.test`;
    await signIn(host.request, hostEmail);
    await signIn(cohost.request, cohostEmail);
    await grantPremium(host.request);
    const hostPage = await host.newPage();
    const projectId = await openNewStudio(hostPage, 'Goal session');
    const base = `/api/v1/projects/${projectId}`;
    const must = async <T>(res: Promise<{ ok(): boolean; status(): number; text(): Promise<string> }>): Promise<T> => {
      const r = await res;
      const text = await r.text();
      if (!r.ok()) throw new Error(`${r.status()} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    };
    const member = { userId: await inviteAndAccept(host.request, cohost.request, projectId, cohostEmail, 'cohost') };

    // The co-host's camera beside the host's, and the web page over the whole picture (transparent but for what it animates), at 720p30.
    const doc = await must<SceneDocument>(host.request.get(`${base}/scene`));
    const sceneId = doc.activeSceneId!;
    const [cameraTwo, page] = [randomUUID(), randomUUID()];
    await must(
      host.request.patch(`${base}/scene`, {
        data: {
          baseVersion: doc.version,
          ops: [
            { op: 'setResolution', resolution: '720p' },
            { op: 'addSource', source: { id: cameraTwo, kind: 'webcam', name: 'Co-host', settings: { userId: member.userId } } },
            { op: 'addLayer', sceneId, layer: { id: randomUUID(), sourceId: cameraTwo, x: 680, y: 40, width: 560, height: 315 } },
            {
              op: 'addSource',
              source: {
                id: page,
                kind: 'webpage',
                name: 'Alerts',
                settings: { config: { url: `http://${pageHost}:${sitePort}/`, title: 'Alerts', mode: 'keep-loaded' } },
              },
            },
            { op: 'addLayer', sceneId, layer: { id: randomUUID(), sourceId: page, x: 0, y: 0, width: 1280, height: 720 } },
          ],
        },
      }),
    );
    const cohostPage = await cohost.newPage();
    await cohostPage.goto(`/studio/${projectId}`);

    const localDestination = await must<DestinationView>(host.request.post(`${base}/destinations`, { data: { type: 'Local' } }));
    // The project's own Local stream.
    const { playUrl: localUrl } = await must<LocalStream>(host.request.get(`${base}/destinations/${localDestination.id}/local-stream`));
    for (const key of ['goal-two', 'goal-three']) {
      await must(
        host.request.post(`${base}/destinations`, {
          data: { type: 'CustomRTMP', name: key, rtmpUrl: `rtmp://127.0.0.1:${extra.port}/${extra.application}`, streamKey: key },
        }),
      );
    }
    await must(host.request.post(`${base}/broadcast`));
    const stats = async () => {
      const raw = await redis.get(sessionStatusKeys.stats(projectId));
      return raw ? (JSON.parse(raw) as SessionStats) : undefined;
    };
    await waitFor(
      'three destinations live',
      async () => ((await stats())?.outputs.filter((o) => o.state === 'live').length === 3 ? true : undefined),
      60_000,
      500,
    );
    await sleep(WARMUP_MS);

    const mediaPid = stack.processes.mediaWorker.pid!;
    const renderPid = stack.processes.renderWorker.pid!;
    const media = new ProcessTreeUsage(mediaPid);
    const render = new ProcessTreeUsage(renderPid);
    const browsers = new ProcessTreeUsage(process.pid);
    const frames0 = (await stats())?.framesOut ?? 0;
    const t0 = Date.now();
    const reading = [localUrl, extra.url('goal-two'), extra.url('goal-three')].map((url) => readPackets(url, WINDOW_MS / 1000));
    await sleep(WINDOW_MS);
    const [m, r, b] = [media.sample().cpuCores, render.sample().cpuCores, browsers.sample().cpuCores];
    const fps = (((await stats())?.framesOut ?? 0) - frames0) / ((Date.now() - t0) / 1000);
    const received = (await Promise.all(reading)).map((packets) => {
      const video = packets.filter((p) => p.stream === 'video');
      const span = video.length > 1 ? video.at(-1)!.pts - video[0]!.pts : 0;
      return span > 0 ? (video.length - 1) / span : 0;
    });
    const format = await probeStream(localUrl);
    // BENCH_SNAPSHOT=file.png keeps a frame of the program, to see that both cameras and the page are in it.
    if (process.env.BENCH_SNAPSHOT)
      await execFileAsync('ffmpeg', ['-v', 'error', '-y', '-i', localUrl, '-frames:v', '1', process.env.BENCH_SNAPSHOT], { timeout: 20_000 });
    const starved = fps < 29 ? `  STARVED (machine load ${await loadAverage()}): the browsers share these cores` : '';
    print(
      `goal session: 2 WebRTC cameras + 1 web page + logo, 3 destinations, ${format.video.width}x${format.video.height}; window ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s`,
    );
    print(
      `media worker process tree ${m.toFixed(2)} cores, render worker process tree ${r.toFixed(2)} cores (everything this bench started, the two browsers, api, PostgreSQL and Redis included: ${b.toFixed(2)} cores)`,
    );
    print(`program ${fps.toFixed(1)} fps; destinations receive ${received.map((f) => f.toFixed(1)).join(', ')} fps${starved}`);
  } finally {
    await browser.close();
    redis.disconnect();
    await stack.stop();
    await extra.stop();
    site.close();
    await dns.close();
    await rm(dir, { recursive: true, force: true });
    await rm(stackDir, { recursive: true, force: true });
  }
}

await main();
