import { cpus } from 'node:os';
import { parseHostPortList } from '@onair/protocol';

// Parsed by hand rather than with zod: inside this workspace `zod` resolves to the zod 3 that
// puppeteer's chromium-bidi needs, not the zod 4 of @onair/protocol. Wire shapes still come from
// protocol's schemas.

export interface RenderConfig {
  chromiumPath: string;
  /** Pages this worker renders at once. A page costs about 0.3 core at 480p and 0.35–0.5 at 720p (bench/): budget 0.5. */
  maxPages: number;
  /** host:port entries a page may reach even though they are private (a local test server, an in-cluster overlay service). */
  allowedHosts: ReadonlySet<string>;
  /**
   * The api's own origin and the secret it signs its overlay addresses with (RENDER_OWN_ORIGIN,
   * RENDER_PAGE_SECRET): signed overlay pages there load even on a private address, nothing else
   * of that origin does. Null when either is unset.
   */
  ownPages: { origin: string; secret: string } | null;
  /** V8 heap cap of each page's renderer. */
  pageHeapMb: number;
  /** A page whose Chromium uses more resident memory than this (all its processes) is recycled. */
  pageRssLimitMb: number;
  /** Every page's Chromium is restarted after this long, so leaks of long-lived overlays stay bounded. 0 = never. */
  recycleAfterMs: number;
  /** How long a render job stays locked without renewal before another worker may take it over. */
  jobLockMs: number;
  /** BullMQ key prefix of the render queue ('bull'); tests use their own. */
  queuePrefix: string;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`Invalid render worker configuration: ${name} must be a number from ${min} to ${max}`);
  return n;
}

export function readRenderConfig(env: NodeJS.ProcessEnv = process.env): RenderConfig {
  return {
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    // 0.5 core per page up to 80 % of the machine, like the media worker's admission.
    maxPages: Math.floor(int(env, 'RENDER_MAX_PAGES', Math.max(1, Math.floor(cpus().length * 0.8 * 2)), 1, 64)),
    allowedHosts: parseHostPortList(env.RENDER_ALLOWED_HOSTS),
    ownPages: env.RENDER_OWN_ORIGIN && env.RENDER_PAGE_SECRET ? { origin: env.RENDER_OWN_ORIGIN, secret: env.RENDER_PAGE_SECRET } : null,
    pageHeapMb: int(env, 'RENDER_PAGE_HEAP_MB', 512, 64, 4096),
    pageRssLimitMb: int(env, 'RENDER_PAGE_RSS_LIMIT_MB', 1536, 128, 16384),
    recycleAfterMs: int(env, 'RENDER_RECYCLE_MINUTES', 240, 0, 100_000) * 60_000,
    jobLockMs: int(env, 'RENDER_JOB_LOCK_MS', 6000, 1000, 600_000),
    queuePrefix: env.RENDER_QUEUE_PREFIX || 'bull',
  };
}
