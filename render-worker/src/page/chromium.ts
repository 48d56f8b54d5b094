import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { writeTetheredLauncher } from '@onair/runtime';
import { privateEnv } from './page-audio.ts';

export interface ChromiumLaunch {
  executablePath: string;
  /** The page's private folder: profile, HOME and runtime dirs live under it. */
  dir: string;
  display: string;
  width: number;
  height: number;
  proxyPort: number;
  heapMb: number;
  pulseServer: string | null;
  pulseSink: string;
}

/**
 * The flags every page's Chromium runs with, and why:
 * - mandatory here (ENVIRONMENT.md): no sandbox as root, no GPU, no QUIC, no first-run, no
 *   background networking, component updates or sync (they hammer the closed network);
 * - headful in kiosk mode on the page's own virtual display, full-screen at the layer's size;
 * - every request goes through the page's egress proxy, loopback included (`<-loopback>` removes
 *   Chromium's implicit bypass); no DNS prefetch (the proxy resolves); WebRTC's UDP is closed by
 *   the profile preferences below (the --force-webrtc-ip-handling-policy switch did not stop STUN
 *   packets in this Chromium);
 * - sound plays without a user gesture (into the page's PulseAudio sink);
 * - the renderer's V8 heap is capped, and background throttling is off (the window is never
 *   focused, and overlays must keep their timers).
 */
export function chromiumArgs(l: ChromiumLaunch): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--kiosk',
    '--noerrdialogs',
    '--disable-infobars',
    '--hide-scrollbars',
    '--disable-translate',
    '--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,InterestFeedContentSuggestions',
    '--window-position=0,0',
    `--window-size=${l.width},${l.height}`,
    `--proxy-server=http://127.0.0.1:${l.proxyPort}`,
    '--proxy-bypass-list=<-loopback>',
    '--dns-prefetch-disable',
    '--autoplay-policy=no-user-gesture-required',
    `--js-flags=--max-old-space-size=${l.heapMb}`,
    '--disable-renderer-backgrounding',
    '--disable-background-timer-throttling',
    '--disable-backgrounding-occluded-windows',
    '--password-store=basic',
    '--use-mock-keychain',
    // A page whose sound nobody takes plays none.
    ...(l.pulseServer ? [] : ['--mute-audio']),
  ];
}

/**
 * Profile preferences written before each launch. WebRTC may not send UDP around the egress proxy
 * (STUN to 127.0.0.1 or 10.x would be an SSRF path the proxy never sees); measured: the
 * --force-webrtc-ip-handling-policy switch alone still let STUN packets out.
 */
const PROFILE_PREFERENCES = {
  webrtc: { ip_handling_policy: 'disable_non_proxied_udp', multiple_routes_enabled: false, nonproxied_udp_enabled: false },
};

export async function launchChromium(l: ChromiumLaunch): Promise<Browser> {
  const profile = join(l.dir, 'profile');
  await mkdir(join(profile, 'Default'), { recursive: true });
  await writeFile(join(profile, 'Default', 'Preferences'), JSON.stringify(PROFILE_PREFERENCES));
  await mkdir(join(l.dir, 'home'), { recursive: true });
  await mkdir(join(l.dir, 'run'), { recursive: true, mode: 0o700 });
  await mkdir(join(l.dir, 'tmp'), { recursive: true });
  return puppeteer.launch({
    // Over the pipe alone, Chromium exits by itself when this process dies, but through its clean
    // shutdown, which a busy or hung browser may not finish: after a kill -9 of the worker its last
    // process went 345-474 ms later on a quiet machine, 548-1082 ms on a loaded one (placement.test).
    // Tethered, the browser is killed the moment this process dies and its zygotes, renderers and
    // utility processes follow within 90-152 ms (same test, same load as the 548-709 ms runs).
    executablePath: await writeTetheredLauncher(join(l.dir, 'chromium-tethered'), l.executablePath),
    headless: false,
    pipe: true,
    userDataDir: profile,
    defaultViewport: null,
    // The automation infobar would be captured into the picture.
    ignoreDefaultArgs: ['--enable-automation'],
    args: chromiumArgs(l),
    env: privateEnv(l.dir, {
      DISPLAY: l.display,
      ...(l.pulseServer ? { PULSE_SERVER: l.pulseServer, PULSE_SINK: l.pulseSink } : {}),
    }),
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    protocolTimeout: 15_000,
    timeout: 20_000,
  });
}
