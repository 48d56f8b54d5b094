// Measures the two ways of getting a web page's frames into a GStreamer pipeline, per page, at
// 852×480 and 1280×720, in one run so the ratios compare like with like on this machine:
//   screencast: headless Chromium, CDP Page.startScreencast (JPEG) → Node → gst (jpegdec → videorate 30 → x264)
//   xvfb:       headful Chromium on its own Xvfb → gst (ximagesrc 30 fps → x264)   ← what the render worker uses
// Both end in the same x264 ultrafast/zerolatency encode, because the session needs H.264 RTP
// either way. Reports delivered fps and CPU (cores) of Chromium + Xvfb + gst + this Node process.
//
//   npm run bench -w render-worker            (about 90 s; BENCH_SECONDS=n to change the window)
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { launchChromium } from '../src/page/chromium.ts';
import { videoBitrateKbps } from '../src/page/page-capture.ts';
import { VirtualDisplay } from '../src/page/virtual-display.ts';
import { EgressPolicy, EgressProxy, TetheredProcess } from '@onair/runtime';
import { treeCpuSeconds } from '../src/proc/process-tree.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_MS = 3000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// A typical overlay: a moving element, a ticking counter, some text.
const PAGE = `<!doctype html><html><body style="margin:0;background:#1b1b2f;color:#fff;font:28px sans-serif;overflow:hidden">
<div style="position:absolute;top:30%;width:160px;height:160px;border-radius:20px;background:linear-gradient(#ff5e5e,#ffb35e);animation:s 2s ease-in-out infinite alternate"></div>
<div id="t" style="position:absolute;bottom:20px;left:20px">0</div>
<style>@keyframes s{from{left:5%}to{left:75%}}</style>
<script>let n=0;setInterval(()=>{document.getElementById('t').textContent='Followers: '+(n++)},100)</script></body></html>`;

interface Result {
  transport: 'screencast' | 'xvfb';
  width: number;
  height: number;
  fps: number;
  cpuCores: number;
  /** Where the CPU went: Chromium (all its processes), Xvfb, capture (gst + this Node process). */
  parts: { chromium: number; xvfb: number; capture: number };
}

function encodeTail(width: number, height: number): string[] {
  return [
    '!',
    'videoconvert',
    '!',
    'video/x-raw,format=I420',
    '!',
    'x264enc',
    'tune=zerolatency',
    'speed-preset=ultrafast',
    'key-int-max=60',
    `bitrate=${videoBitrateKbps(width, height)}`,
    '!',
    'fpsdisplaysink',
    'video-sink=fakesink',
    'text-overlay=false',
    'sync=false',
    'fps-update-interval=1000',
  ];
}

/** fpsdisplaysink's "rendered: n" counts, read from gst-launch -v output. */
function frameCounter(proc: TetheredProcess): () => number {
  let rendered = 0;
  proc.child.stdout?.removeAllListeners('data');
  proc.child.stdout?.on('data', (d: Buffer) => {
    for (const m of d.toString().matchAll(/rendered: (\d+)/g)) rendered = Number(m[1]);
  });
  return () => rendered;
}

async function measure(
  pids: { chromium: number; xvfb: number | null; capture: number },
  frames: () => number,
): Promise<Pick<Result, 'fps' | 'cpuCores' | 'parts'>> {
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  const cpu = (pid: number | null) => (pid === null ? 0 : treeCpuSeconds(pid));
  const before = { chromium: cpu(pids.chromium), xvfb: cpu(pids.xvfb), capture: cpu(pids.capture) };
  const node0 = process.cpuUsage();
  const f0 = frames();
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const elapsed = (Date.now() - t0) / 1000;
  const node = process.cpuUsage(node0);
  const parts = {
    chromium: (cpu(pids.chromium) - before.chromium) / elapsed,
    xvfb: (cpu(pids.xvfb) - before.xvfb) / elapsed,
    capture: (cpu(pids.capture) - before.capture + (node.user + node.system) / 1e6) / elapsed,
  };
  return { fps: (frames() - f0) / elapsed, cpuCores: parts.chromium + parts.xvfb + parts.capture, parts };
}

async function screencast(url: string, width: number, height: number): Promise<Result> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-bench-'));
  const browser: Browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    pipe: true,
    userDataDir: join(dir, 'profile'),
    defaultViewport: { width, height },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    env: { PATH: process.env.PATH ?? '', HOME: dir },
  });
  // Fed on stdin, so a plain child (the lifeline keeps stdin for itself); killed below.
  const feeder = spawn(
    'gst-launch-1.0',
    [
      '-v',
      'fdsrc',
      'fd=0',
      'do-timestamp=true',
      '!',
      'jpegparse',
      '!',
      'jpegdec',
      '!',
      'videorate',
      '!',
      'video/x-raw,framerate=30/1',
      ...encodeTail(width, height),
    ],
    {
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  feeder.stdout.resume();
  feeder.stdin.on('error', () => undefined);
  let received = 0;
  try {
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    await page.goto(url);
    const cdp = await page.createCDPSession();
    cdp.on('Page.screencastFrame', (f: { data: string; sessionId: number }) => {
      received += 1;
      feeder.stdin.write(Buffer.from(f.data, 'base64'));
      void cdp.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => undefined);
    });
    await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 80, maxWidth: width, maxHeight: height, everyNthFrame: 1 });
    const browserPid = browser.process()?.pid ?? 0;
    const m = await measure({ chromium: browserPid, xvfb: null, capture: feeder.pid ?? 0 }, () => received);
    return { transport: 'screencast', width, height, ...m };
  } finally {
    feeder.kill('SIGKILL');
    await browser.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

async function xvfb(url: string, width: number, height: number): Promise<Result> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-bench-'));
  const proxy = new EgressProxy(new EgressPolicy(new Set([`localhost:${new URL(url).port}`])));
  await proxy.listen();
  const display = await VirtualDisplay.start(width, height);
  const browser = await launchChromium({
    executablePath: CHROMIUM,
    dir,
    display: display.display,
    width,
    height,
    proxyPort: proxy.port,
    heapMb: 512,
    pulseServer: null,
    pulseSink: 'page',
  });
  const gst = new TetheredProcess('gst-launch-1.0', [
    '-v',
    'ximagesrc',
    `display-name=${display.display}`,
    'use-damage=false',
    'show-pointer=false',
    '!',
    'video/x-raw,framerate=30/1',
    '!',
    'queue',
    'max-size-buffers=2',
    'leaky=downstream',
    ...encodeTail(width, height),
  ]);
  const frames = frameCounter(gst);
  try {
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    await page.goto(url);
    const browserPid = browser.process()?.pid ?? 0;
    const m = await measure({ chromium: browserPid, xvfb: display.process.pid ?? 0, capture: gst.pid ?? 0 }, frames);
    return { transport: 'xvfb', width, height, ...m };
  } finally {
    await browser.close().catch(() => undefined);
    await gst.stop();
    await display.stop();
    await proxy.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(PAGE);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const url = `http://localhost:${(server.address() as AddressInfo).port}/`;

const results: Result[] = [];
try {
  for (const [w, h] of [
    [852, 480],
    [1280, 720],
  ] as const) {
    results.push(await screencast(url, w, h));
    results.push(await xvfb(url, w, h));
  }
} finally {
  server.close();
}

const baseline = results.find((r) => r.transport === 'screencast' && r.width === 852);
const lines = [
  `per page, ${SECONDS} s window, ${new Date().toISOString()}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${cpus().length} cores`,
  'transport   size       fps   cores (chromium + xvfb + capture)   vs screencast@480p  vs screencast same size',
];
for (const r of results) {
  const same = results.find((o) => o.transport === 'screencast' && o.width === r.width);
  lines.push(
    `${r.transport.padEnd(11)} ${`${r.width}x${r.height}`.padEnd(10)} ${r.fps.toFixed(1).padStart(5)}  ${`${r.cpuCores.toFixed(2)} (${r.parts.chromium.toFixed(2)} + ${r.parts.xvfb.toFixed(2)} + ${r.parts.capture.toFixed(2)})`.padEnd(34)} ${(r.cpuCores / (baseline?.cpuCores ?? 1)).toFixed(2).padStart(18)}  ${(r.cpuCores / (same?.cpuCores ?? 1)).toFixed(2).padStart(23)}`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
