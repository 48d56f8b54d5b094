/**
 * One web-page source, rendered and sent to its session as RTP.
 *
 * Design (measured on the 2-core dev machine; figures from `npm run bench -w render-worker`,
 * see bench/README.md):
 *
 *   Xvfb (one screen at the layer's size)  ◄── Chromium, headful --kiosk, own profile/HOME
 *        │                                        │ sound → PulseAudio null sink (own server)
 *        ▼                                        ▼
 *   gst-launch: ximagesrc use-damage=false 30 fps → x264 ultrafast/zerolatency → rtph264pay → udpsink ┐
 *               pulsesrc (sink monitor) → opusenc → rtpopuspay → udpsink                              │
 *                                               loopback, to this process                             ▼
 *   RtpRelay (video, sound): the capture while the page is shown, the cover otherwise → the session
 *
 * Why a virtual display and not CDP screencast (bench/README.md, one page, same x264 encode at the
 * end of both, 2 vCPU shared with other work):
 *
 *                 852×480                          1280×720
 *   screencast    ~60 fps, 0.63 cores (1.00)       36–55 fps, 0.72–0.86 cores
 *   xvfb          30 fps,  0.28 cores (0.44)       30 fps,    0.33–0.36 cores (0.39–0.49 of screencast)
 *
 * Screencast frames are JPEGs Chromium encodes on every repaint (most of its cost), arrive over
 * the DevTools pipe only when the page changes and unevenly under load; the virtual display gives
 * a steady 30 fps at under half the CPU. It is also what livekit/egress does, and page sound needs
 * PulseAudio either way (the screencast carries none).
 *
 * Transparent pages: neither X11 capture nor H.264 carries alpha, so a transparent page is drawn
 * over RENDER_CHROMA_KEY (`Emulation.setDefaultBackgroundColorOverride`: only where the page has
 * no background of its own) and the session's pipeline keys that colour out with
 * `alpha method=green` before the compositor; tested through H.264 (test/page-renderer.test.ts:
 * the scene below shows to the last pixel, the page's own colours stay). The price: pure #00ff00
 * in a page turns transparent, and anti-aliased edges keep a faint green fringe. CDP screencast
 * PNG would carry real alpha, but at the screencast's cost and still needs an alpha-capable codec
 * to the session.
 *
 * Shown only once painted (issue 35): the display shows black before Chromium's window, white in
 * the window at start and while a document loads (a transparent page's key is in effect only once
 * it has painted), and Chromium's error page after a renderer crash; any of it would cover the
 * whole layer and every layer under it, for as long as the page takes to load (23-46 s seen in the
 * e2e flow on a loaded machine). So the capture runs only while what Chromium shows may be seen:
 * it starts once the page (or the placeholder card) has loaded and rendered a frame, and stops the
 * moment a load begins, Chromium goes or the page crashes. The session's tracks come from
 * RtpRelay, one RTP stream each for the page's whole life: the capture's packets from its first
 * keyframe while shown, and the *cover* otherwise, a picture of the chroma key the session keys
 * out, so the layer is transparent meanwhile, the scene under it shows, and the session's feed
 * keeps flowing (it does not put up the layer's offline picture).
 *
 * Each page is its own processes (Xvfb, PulseAudio, gst-launch, Chromium with its own profile)
 * and its own egress proxy: nothing is shared between two creators' pages but this Node process.
 * A crash, hang, memory overrun or scheduled recycle restarts only Chromium; the display and the
 * relays keep running, so the RTP stream never stops (the layer shows the scene under it until
 * the page is back). Load failures are retried with backoff behind a 'Preview unavailable'
 * placeholder; refused addresses wait for a new url.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import {
  RENDER_CHROMA_KEY,
  renderProblems,
  renderProblemText,
  renderTransitions,
  type RenderPage,
  type RenderProblemCode,
  type RenderRtpTarget,
  type RenderState,
  type RenderStatus,
} from '@onair/protocol';
import type { RenderConfig } from '../config.ts';
import {
  EgressPolicy,
  EgressProxy,
  egressResolver,
  OwnPagesGate,
  REFUSED_HEADER,
  systemResolver,
  type EgressDecision,
  type EgressRefusal,
  type Logger,
  type TetheredProcess,
} from '@onair/runtime';
import { treeRssBytes } from '../proc/process-tree.ts';
import { launchChromium } from './chromium.ts';
import { PageAudio, PAGE_SINK } from './page-audio.ts';
import { encodeCover, startCapture } from './page-capture.ts';
import { placeholderHtml } from './placeholder.ts';
import { RtpRelay } from './rtp-relay.ts';
import { VirtualDisplay } from './virtual-display.ts';
import { WakeQueue } from './wake-queue.ts';

/** A page's folder (profile, sockets, temp files) is `<tmp>/onair-page-<worker pid>-<random>`. */
const PAGE_DIR_PREFIX = 'onair-page-';

/**
 * Removes the page folders of render workers that are no longer running (killed before they could
 * clean up), so a node's temp space does not fill up over crashes. Folders of live processes stay.
 * Returns how many were removed.
 */
export async function sweepStalePageDirs(dir = tmpdir()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = new RegExp(`^${PAGE_DIR_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (!pid || Number(pid) === process.pid || processAlive(Number(pid))) continue;
    await rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined);
    removed += 1;
  }
  return removed;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface PageStatus {
  state: RenderState;
  problem: RenderStatus['problem'];
  attempt: number;
  retryAt: Date | null;
}

export interface PageRendererOptions {
  renderId: string;
  page: RenderPage;
  video: RenderRtpTarget;
  audio: RenderRtpTarget | null;
  config: RenderConfig;
  logger: Logger;
  onStatus?: (status: PageStatus) => void;
}

type Wake =
  | { type: 'stop' }
  | { type: 'change' }
  /** Chromium crashed, hung or must be recycled: restart it (the generation tells a stale event from a live one). */
  | { type: 'browser'; code: RenderProblemCode; detail: string; generation: number }
  /** The main frame went somewhere it may not (a navigation or redirect refused by the proxy, a file: URL…). */
  | { type: 'navigation'; code: RenderProblemCode; detail: string; generation: number }
  /** Xvfb or PulseAudio died: rebuild everything. */
  | { type: 'infra'; detail: string };

type Navigation = { ok: true } | { ok: false; code: RenderProblemCode; detail: string; final: boolean };

const NAVIGATION_TIMEOUT_MS = 20_000;
const WATCHDOG_INTERVAL_MS = 2_000;
const WATCHDOG_TIMEOUT_MS = 4_000;
const RESOURCE_CHECK_INTERVAL_MS = 10_000;
/** A page live this long counts as healthy again: the next failure starts the backoff over. */
const STABLE_AFTER_MS = 30_000;
const CAPTURE_RESTART_MS = 1_000;
const LOAD_FAILURES_BEFORE_RELAUNCH = 3;
const FIRST_PAINT_TIMEOUT_MS = 2_000;

/** 0.5 s, 1, 2, 4 … 30 s. */
export function backoffMs(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, attempt - 1));
}

export class PageRenderer {
  private page: RenderPage;
  private readonly wake = new WakeQueue<Wake>();
  private stopping = false;
  private running: Promise<void> | undefined;
  private dir = '';
  private proxy: EgressProxy | undefined;
  private display: VirtualDisplay | undefined;
  private audio: PageAudio | undefined;
  private capture: TetheredProcess | undefined;
  private captureRestart: NodeJS.Timeout | undefined;
  /** The last capture's stop, awaited before another capture starts (both would send to the same relay ports). */
  private captureStopped: Promise<unknown> = Promise.resolve();
  /** The page's video and sound to the session, for the page's whole life (see RtpRelay). */
  private videoRelay: RtpRelay | undefined;
  private audioRelay: RtpRelay | undefined;
  /** Whether what Chromium shows may reach the session: painted since the last load (or placeholder) began. */
  private shown = false;
  private browser: Browser | undefined;
  /** Chromium being closed, if any: stopping waits for it before the page folder goes. */
  private closing: Promise<void> = Promise.resolve();
  private generation = 0;
  private attempt = 0;
  private liveSince = 0;
  private lastStatus: PageStatus | undefined;
  private readonly policy: EgressPolicy;
  private readonly ownPages: OwnPagesGate | undefined;
  private readonly log: Logger;

  constructor(private readonly options: PageRendererOptions) {
    this.page = evenSized(options.page);
    this.policy = new EgressPolicy(options.config.allowedHosts, egressResolver());
    // OnAir's own overlays: the api's origin, for signed addresses only (see OwnPagesGate).
    this.ownPages = options.config.ownPages ? new OwnPagesGate(options.config.ownPages.origin, options.config.ownPages.secret, systemResolver) : undefined;
    // Page URLs can carry tokens (alert-box links): only the origin is ever logged.
    this.log = options.logger.child({ renderId: options.renderId });
  }

  get status(): PageStatus | undefined {
    return this.lastStatus;
  }

  /** The pid of the current Chromium, for tests and diagnostics. */
  get chromiumPid(): number | undefined {
    return this.browser?.process()?.pid;
  }

  /** Starts the page; failures of the page itself are reported through onStatus, never thrown. */
  start(): void {
    this.running ??= this.run().catch((err: unknown) => {
      this.log.error({ err: errText(err) }, 'page renderer failed');
    });
  }

  /** A new url reloads the page; a new size rebuilds the display and capture at that size. */
  update(requested: RenderPage): void {
    const page = evenSized(requested);
    const resized = page.width !== this.page.width || page.height !== this.page.height;
    this.page = page;
    this.wake.push(resized ? { type: 'infra', detail: 'resized' } : { type: 'change' });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.push({ type: 'stop' });
    // Closing Chromium now ends a navigation in flight instead of waiting out its timeout.
    void this.closeBrowser();
    await this.running;
    this.report({ state: 'stopped', problem: null, attempt: 0, retryAt: null });
  }

  private async run(): Promise<void> {
    this.dir = await mkdtemp(join(tmpdir(), `${PAGE_DIR_PREFIX}${process.pid}-`));
    try {
      this.videoRelay = await RtpRelay.open({ target: this.options.video, clockRate: 90_000, keyframes: true });
      if (this.options.audio) this.audioRelay = await RtpRelay.open({ target: this.options.audio, clockRate: 48_000, keyframes: false });
      while (!this.stopping) {
        try {
          await this.startInfra();
        } catch (err) {
          this.log.warn({ err: errText(err), attempt: this.attempt + 1 }, 'page infrastructure failed to start');
          await this.stopInfra();
          const wake = await this.unavailable('CAPTURE_FAILED', '');
          if (wake?.type === 'stop') break;
          continue;
        }
        const after = await this.runBrowsers();
        await this.stopInfra();
        if (after === 'stop') break;
      }
    } finally {
      await this.stopInfra();
      this.videoRelay?.close();
      this.audioRelay?.close();
      await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  // ─── Display, sound and capture: live for as long as the page's size stays the same ───

  private async startInfra(): Promise<void> {
    const { width, height } = this.page;
    this.prepareCover(width, height);
    this.proxy = new EgressProxy(this.policy, this.ownPages ? { ownPages: this.ownPages } : {});
    // Chromium's own background requests (update checks) fail to resolve all the time: debug only.
    this.proxy.on('refused', (r) =>
      this.log[r.code === 'unresolvable' ? 'debug' : 'info']({ host: r.host, port: r.port, path: refusedPath(r.target), code: r.code }, 'page request refused'),
    );
    await this.proxy.listen();
    // One pixel wider and taller than the page: Chromium keeps its window a pixel smaller than the
    // screen (measured: a 852×480 screen gives an 851×479 window and a black edge in the picture);
    // the capture crops to the page.
    const display = await VirtualDisplay.start(width + 1, height + 1);
    this.display = display;
    // Only an unexpected exit of the current display or sound server rebuilds; stopInfra detaches them first.
    void display.process.exited.then(() => {
      if (!this.stopping && this.display === display) this.wake.push({ type: 'infra', detail: 'virtual display exited' });
    });
    if (this.options.audio) {
      const audio = await PageAudio.start(this.dir);
      this.audio = audio;
      void audio.process.exited.then(() => {
        if (!this.stopping && this.audio === audio) this.wake.push({ type: 'infra', detail: 'audio server exited' });
      });
    }
  }

  /** The cover at the page's size (see RtpRelay), encoded in the background: until it is there, a hidden page sends nothing. */
  private prepareCover(width: number, height: number): void {
    const relay = this.videoRelay;
    if (!relay) return;
    encodeCover(width, height, this.options.video.payloadType).then(
      (packets) => {
        if (this.page.width === width && this.page.height === height) relay.setCover(packets);
      },
      (err: unknown) =>
        this.log.warn({ err: errText(err) }, 'cover picture not encoded: while hidden the page sends nothing (the session shows its placeholder)'),
    );
  }

  // ─── What reaches the session: the display only once the page has painted ───

  /**
   * The page's content is painted on the display: a capture starts (its first frame is taken after
   * the paint) and the relays forward it from its first keyframe. Until then the session gets the
   * cover: Chromium's window at start, a document still loading and a crashed page are white or
   * black, and would cover the whole layer and every layer under it (issue 35).
   */
  private async reveal(): Promise<void> {
    if (this.stopping || this.shown) return;
    this.shown = true;
    await this.captureStopped;
    if (!this.shown || this.stopping) return;
    this.startCaptureProcess();
    this.videoRelay?.show();
    this.audioRelay?.show();
  }

  /** From now on nothing of the display reaches the session (the cover does) and the capture stops, until the next reveal. */
  private conceal(): Promise<unknown> {
    this.shown = false;
    this.videoRelay?.hide();
    this.audioRelay?.hide();
    if (this.captureRestart) clearTimeout(this.captureRestart);
    const capture = this.capture;
    this.capture = undefined;
    if (capture) this.captureStopped = Promise.all([this.captureStopped, capture.stop()]);
    return this.captureStopped;
  }

  private startCaptureProcess(): void {
    const { display, videoRelay } = this;
    if (!display || !videoRelay) return;
    const audio = this.options.audio;
    const capture = startCapture({
      display: display.display,
      width: this.page.width,
      height: this.page.height,
      video: { host: '127.0.0.1', port: videoRelay.port, payloadType: this.options.video.payloadType },
      audio:
        audio && this.audio && this.audioRelay
          ? { server: this.audio.server, target: { host: '127.0.0.1', port: this.audioRelay.port, payloadType: audio.payloadType } }
          : null,
    });
    this.capture = capture;
    void capture.exited.then((exit) => {
      if (this.stopping || this.capture !== capture) return;
      // The capture restarts on its own; the page keeps running, and the cover stands in meanwhile.
      this.log.warn({ code: exit.code, signal: exit.signal, stderr: capture.stderrTail.slice(-500) }, 'capture exited; restarting it');
      this.videoRelay?.hide();
      this.audioRelay?.hide();
      this.captureRestart = setTimeout(() => {
        if (this.stopping || this.capture !== capture || !this.shown) return;
        this.startCaptureProcess();
        this.videoRelay?.show();
        this.audioRelay?.show();
      }, CAPTURE_RESTART_MS);
    });
  }

  private async stopInfra(): Promise<void> {
    await Promise.all([this.conceal(), this.closeBrowser()]);
    const { audio, display, proxy } = this;
    this.audio = undefined;
    this.display = undefined;
    this.proxy = undefined;
    await audio?.stop();
    await display?.stop();
    await proxy?.close();
  }

  // ─── Chromium: restarted on crash, hang, memory overrun and recycling ───

  /** Runs Chromium sessions until the infrastructure must be rebuilt ('infra') or the page stops. */
  private async runBrowsers(): Promise<'infra' | 'stop'> {
    while (!this.stopping) {
      const outcome = await this.browserSession();
      if (outcome.type === 'stop' || outcome.type === 'infra') {
        if (outcome.type === 'infra' && outcome.detail !== 'resized') this.log.warn({ detail: outcome.detail }, 'rebuilding page display');
        return outcome.type;
      }
      // A browser problem: report, back off, relaunch. Recycling is planned, not a failure.
      if (outcome.code === 'RECYCLED') continue;
      const wake = await this.unavailable(outcome.code, outcome.detail);
      if (wake?.type === 'stop') return 'stop';
      if (wake?.type === 'infra') return 'infra';
    }
    return 'stop';
  }

  private async browserSession(): Promise<Exclude<Wake, { type: 'change' } | { type: 'navigation' }>> {
    const generation = ++this.generation;
    this.wake.filter((w) => !('generation' in w) || w.generation === generation);
    const proxy = this.proxy;
    const display = this.display;
    if (!proxy || !display) return { type: 'infra', detail: 'not started' };
    this.report({ state: 'starting', problem: null, attempt: this.attempt, retryAt: null });

    let browser: Browser;
    try {
      browser = await launchChromium({
        executablePath: this.options.config.chromiumPath,
        dir: this.dir,
        display: display.display,
        width: this.page.width,
        height: this.page.height,
        proxyPort: proxy.port,
        heapMb: this.options.config.pageHeapMb,
        pulseServer: this.audio?.server ?? null,
        pulseSink: PAGE_SINK,
      });
    } catch (err) {
      return { type: 'browser', code: 'PAGE_CRASHED', detail: `Chromium did not start: ${errText(err)}`, generation };
    }
    this.browser = browser;
    const launchedAt = Date.now();
    browser.on('disconnected', () => {
      // A window that is gone shows the bare display: hidden at once, not after the wake is handled.
      if (generation === this.generation) void this.conceal();
      this.wake.push({ type: 'browser', code: 'PAGE_CRASHED', detail: 'Chromium exited', generation });
    });
    const timers: NodeJS.Timeout[] = [];
    try {
      const page = (await browser.pages())[0] ?? (await browser.newPage());
      page.on('error', (err) => {
        // A crashed renderer shows Chromium's error page.
        if (generation === this.generation) void this.conceal();
        this.wake.push({ type: 'browser', code: 'PAGE_CRASHED', detail: errText(err), generation });
      });
      if (this.page.transparent) {
        const cdp = await page.createCDPSession();
        await cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: { ...RENDER_CHROMA_KEY, a: 1 } });
      }
      this.watchMainFrame(page, proxy, generation);
      timers.push(setInterval(() => void this.checkResponsive(page, generation), WATCHDOG_INTERVAL_MS));
      const { recycleAfterMs } = this.options.config;
      const resourceCheckMs = recycleAfterMs > 0 ? Math.min(RESOURCE_CHECK_INTERVAL_MS, Math.max(500, recycleAfterMs / 2)) : RESOURCE_CHECK_INTERVAL_MS;
      timers.push(setInterval(() => void this.checkResources(browser, launchedAt, generation), resourceCheckMs));

      let loadFailures = 0;
      for (;;) {
        const nav = await this.navigate(page, proxy);
        // A crash or stop that arrived during the navigation wins over its result.
        const pending = this.wake.poll();
        if (pending) {
          const handled = this.handleWake(pending);
          if (handled) return handled;
          // A url change during the navigation: load the new one. A navigation problem reported
          // by the listeners for this same navigation is already in `nav`.
          if (pending.type === 'change') continue;
        }
        let wake: Wake | null;
        if (nav.ok) {
          loadFailures = 0;
          await this.reveal();
          this.liveSince = Date.now();
          this.report({ state: 'live', problem: null, attempt: 0, retryAt: null });
          wake = await this.wake.next();
          if (wake?.type === 'change' || Date.now() - this.liveSince >= STABLE_AFTER_MS) this.attempt = 0;
        } else {
          this.liveSince = 0;
          await this.showPlaceholder(page, renderProblemText(nav.code, nav.detail));
          if (nav.final) {
            this.attempt = 0;
            this.report({ state: 'refused', problem: problemOf(nav.code, nav.detail), attempt: 0, retryAt: null });
            wake = await this.wake.next();
          } else {
            wake = await this.unavailable(nav.code, nav.detail);
            // A renderer stuck in a bad state would fail every navigation: after a few, start afresh
            // (the backoff was already waited and reported).
            loadFailures += 1;
            if (wake === null && loadFailures >= LOAD_FAILURES_BEFORE_RELAUNCH) {
              return { type: 'browser', code: 'RECYCLED', detail: `${loadFailures} load failures in a row`, generation };
            }
          }
        }
        if (wake === null || wake.type === 'change') continue;
        if (wake.type === 'navigation') {
          // The live page navigated somewhere refused or broken: show why, then as above.
          this.liveSince = 0;
          await this.showPlaceholder(page, renderProblemText(wake.code, wake.detail));
          if (renderProblems[wake.code].fault === 'user' && wake.code !== 'LOAD_FAILED' && wake.code !== 'HTTP_ERROR') {
            this.report({ state: 'refused', problem: problemOf(wake.code, wake.detail), attempt: 0, retryAt: null });
            const next = await this.wake.next();
            if (next && next.type !== 'change') {
              const handled = this.handleWake(next);
              if (handled) return handled;
            }
          } else {
            const next = await this.unavailable(wake.code, wake.detail);
            if (next && next.type !== 'change') {
              const handled = this.handleWake(next);
              if (handled) return handled;
            }
          }
          continue;
        }
        const handled = this.handleWake(wake);
        if (handled) return handled;
      }
    } catch (err) {
      // Puppeteer calls fail when Chromium dies under them; the queued wake says why.
      const pending = this.wake.poll();
      const handled = pending ? this.handleWake(pending) : undefined;
      return handled ?? { type: 'browser', code: 'PAGE_CRASHED', detail: errText(err), generation };
    } finally {
      for (const t of timers) clearInterval(t);
      await Promise.all([this.conceal(), this.closeBrowser()]);
    }
  }

  /** What a wake means for the browser session: end it (and how), or carry on (undefined). */
  private handleWake(wake: Wake): Exclude<Wake, { type: 'change' } | { type: 'navigation' }> | undefined {
    switch (wake.type) {
      case 'stop':
      case 'infra':
        return wake;
      case 'browser':
        if (wake.generation !== this.generation) return undefined;
        this.log.warn({ code: wake.code, detail: wake.detail }, 'restarting Chromium');
        return wake;
      case 'change':
      case 'navigation':
        return undefined;
    }
  }

  private async navigate(page: Page, proxy: EgressProxy): Promise<Navigation> {
    const url = this.page.url;
    // A document being loaded shows white (or what Chromium had before) until it paints.
    await this.conceal();
    this.report({ state: 'starting', problem: null, attempt: this.attempt, retryAt: null });
    const check = (await this.ownPages?.check(url)) ?? (await this.policy.checkUrl(url));
    if (!check.allowed) return refusedNavigation(check);
    const since = Date.now();
    let response: HTTPResponse | null;
    try {
      response = await page.goto(url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
    } catch (err) {
      const refusal = lastRefusal(proxy, since);
      if (refusal) return refusedNavigation({ allowed: false, ...refusal });
      return { ok: false, code: 'LOAD_FAILED', detail: navigationErrorText(err), final: false };
    }
    if (response && response.headers()[REFUSED_HEADER]) {
      const refusal = lastRefusal(proxy, since);
      return refusedNavigation(
        refusal ? { allowed: false, ...refusal } : { allowed: false, host: '', port: 0, code: 'private', reason: 'the address is not allowed' },
      );
    }
    if (response && response.status() >= 400) return { ok: false, code: 'HTTP_ERROR', detail: `HTTP ${response.status()}`, final: false };
    // 'load' can come before the first paint reaches the display: live means painted.
    await painted(page);
    this.log.info({ origin: new URL(url).origin }, 'page loaded');
    return { ok: true };
  }

  /** Navigations of the live page that it started itself (location = …, meta refresh, redirects later). */
  private watchMainFrame(page: Page, proxy: EgressProxy, generation: number): void {
    const isMainNavigation = (req: HTTPRequest) => req.isNavigationRequest() && req.frame() === page.mainFrame();
    page.on('response', (res) => {
      if (this.lastStatus?.state !== 'live' || !isMainNavigation(res.request()) || !res.headers()[REFUSED_HEADER]) return;
      const refusal = lastRefusal(proxy, 0);
      this.wake.push({ type: 'navigation', code: 'ADDRESS_REFUSED', detail: refusal?.reason ?? 'the address is not allowed', generation });
    });
    page.on('requestfailed', (req) => {
      if (this.lastStatus?.state !== 'live' || !isMainNavigation(req)) return;
      const refusal = lastRefusal(proxy, Date.now() - 5_000);
      if (refusal && refusal.code !== 'unresolvable')
        this.wake.push({
          type: 'navigation',
          code: refusal.code === 'scheme-not-allowed' ? 'SCHEME_REFUSED' : 'ADDRESS_REFUSED',
          detail: refusal.reason,
          generation,
        });
      else this.wake.push({ type: 'navigation', code: 'LOAD_FAILED', detail: req.failure()?.errorText ?? 'network error', generation });
    });
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      const protocol = safeProtocol(frame.url());
      if (protocol === 'http:' || protocol === 'https:' || frame.url() === 'about:blank' || protocol === 'chrome-error:') return;
      this.wake.push({
        type: 'navigation',
        code: 'SCHEME_REFUSED',
        detail: `only http and https addresses can be loaded, not ${protocol.replace(':', '')}`,
        generation,
      });
    });
  }

  private async checkResponsive(page: Page, generation: number): Promise<void> {
    if (this.lastStatus?.state !== 'live' || generation !== this.generation) return;
    const alive = await Promise.race([
      page
        .evaluate(() => 1)
        .then(
          () => true,
          () => true, // a navigation in flight destroys the context: not a hang
        ),
      new Promise<boolean>((r) => setTimeout(() => r(false), WATCHDOG_TIMEOUT_MS)),
    ]);
    if (!alive && generation === this.generation && this.lastStatus.state === 'live') {
      this.wake.push({ type: 'browser', code: 'PAGE_HUNG', detail: `no answer within ${WATCHDOG_TIMEOUT_MS} ms`, generation });
    }
  }

  private async checkResources(browser: Browser, launchedAt: number, generation: number): Promise<void> {
    const { recycleAfterMs, pageRssLimitMb } = this.options.config;
    if (recycleAfterMs > 0 && Date.now() - launchedAt > recycleAfterMs) {
      this.wake.push({ type: 'browser', code: 'RECYCLED', detail: 'scheduled', generation });
      return;
    }
    const pid = browser.process()?.pid;
    if (pid === undefined) return;
    const rss = treeRssBytes(pid);
    if (rss > pageRssLimitMb * 1024 * 1024) {
      this.wake.push({ type: 'browser', code: 'RECYCLED', detail: `memory ${Math.round(rss / 1048576)} MB over ${pageRssLimitMb} MB`, generation });
    }
  }

  /**
   * Closes Chromium and resolves once it has exited. A second call while one is in flight waits for
   * the same close: the page folder is removed only after Chromium has written its last files there.
   */
  private closeBrowser(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    if (browser) {
      const closing = this.closeChromium(browser);
      const previous = this.closing;
      this.closing = Promise.all([previous, closing]).then(() => undefined);
    }
    return this.closing;
  }

  private async closeChromium(browser: Browser): Promise<void> {
    const proc = browser.process();
    await Promise.race([browser.close().catch(() => undefined), new Promise((r) => setTimeout(r, 3000))]);
    // Chromium's helpers share its process group (puppeteer starts it detached): take them all.
    if (proc?.pid !== undefined && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    }
  }

  /** Reports the page unavailable and waits out the backoff (or whatever wakes the page first). */
  private async unavailable(code: RenderProblemCode, detail: string): Promise<Wake | null> {
    this.attempt += 1;
    const delay = backoffMs(this.attempt);
    this.report({ state: 'unavailable', problem: problemOf(code, detail), attempt: this.attempt, retryAt: new Date(Date.now() + delay) });
    const wake = await this.wake.next(delay);
    if (wake?.type === 'change') this.attempt = 0;
    return wake;
  }

  /** The 'Preview unavailable' card in place of the page, shown once painted. */
  private async showPlaceholder(page: Page, reason: string): Promise<void> {
    await this.conceal();
    const set = await page.setContent(placeholderHtml(reason), { waitUntil: 'domcontentloaded', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (!set) return;
    await painted(page);
    await this.reveal();
  }

  private report(status: PageStatus): void {
    const last = this.lastStatus;
    if (last && last.state !== status.state && !renderTransitions[last.state].includes(status.state)) {
      // A bug of this supervisor, not of the page: say so loudly, and still tell the truth.
      this.log.error({ from: last.state, to: status.state }, 'page state transition not in renderTransitions');
    }
    this.lastStatus = status;
    if (last && last.state === status.state && last.problem?.code === status.problem?.code && last.attempt === status.attempt) return;
    this.log.info({ state: status.state, code: status.problem?.code, attempt: status.attempt }, 'page status');
    this.options.onStatus?.(status);
  }
}

/** H.264 in 4:2:0 needs even dimensions: an odd layer size gets one more pixel (the compositor scales it to the box anyway). */
function evenSized(page: RenderPage): RenderPage {
  return { ...page, width: page.width + (page.width % 2), height: page.height + (page.height % 2) };
}

function problemOf(code: RenderProblemCode, detail: string): NonNullable<RenderStatus['problem']> {
  return { code, reason: renderProblemText(code, detail), fault: renderProblems[code].fault };
}

function refusedNavigation(d: Extract<EgressDecision, { allowed: false }>): Navigation {
  if (d.code === 'unresolvable') return { ok: false, code: 'LOAD_FAILED', detail: d.reason, final: false };
  if (d.code === 'scheme-not-allowed' || d.code === 'invalid-url') return { ok: false, code: 'SCHEME_REFUSED', detail: d.reason, final: true };
  return { ok: false, code: 'ADDRESS_REFUSED', detail: d.reason, final: true };
}

function lastRefusal(proxy: EgressProxy, since: number): Omit<EgressRefusal, 'target' | 'at'> | undefined {
  return proxy.refusalsSince(since).at(-1);
}

/** Resolves once the page has rendered a frame since the call (two animation frames), or after FIRST_PAINT_TIMEOUT_MS. */
async function painted(page: Page): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    // A string: this package compiles without the DOM library.
    page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))').catch(() => undefined),
    new Promise((r) => (timer = setTimeout(r, FIRST_PAINT_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
}

function navigationErrorText(err: unknown): string {
  const text = errText(err);
  const net = /net::(ERR_[A-Z_]+)/.exec(text);
  if (net?.[1]) return net[1].toLowerCase().replace(/^err_/, '').replaceAll('_', ' ');
  if (/timeout/i.test(text)) return 'it took too long to load';
  return 'network error';
}

function safeProtocol(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The path a refused request asked for, never its query (an overlay's key travels there). */
function refusedPath(target: string): string | undefined {
  if (!target.includes('/')) return undefined; // a tunnel's host:port
  try {
    return new URL(target).pathname;
  } catch {
    return undefined;
  }
}
