import { DEFAULT_STRIPE_CATALOGUE, stripeDoubleEnv } from './stripe-double/catalogue.ts';
import { startStripeDouble, type RunningStripeDouble } from './stripe-double/stripe-double.ts';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyMigrations } from '@onair/db';
import { readinessSchema, type Readiness } from '@onair/protocol';
import { WorkerDeaths } from '@onair/runtime';
import { Redis } from 'ioredis';
import { freePort, waitFor } from './ports.ts';
import { startEmbeddedPostgres, type RunningService } from './postgres.ts';
import { startRedisServer } from './redis.ts';
import { loadOrCreateSecret, newAesKey, newAuthSecret } from './local-secrets.ts';
import { startRtmpServer, type RunningRtmpServer } from './rtmp-server.ts';
import { startPublishGate } from './publish-gate.ts';
import { startIngestServer, type RunningIngestServer } from './ingest-server.ts';
import { SupervisedProcess } from './supervised-process.ts';
import { REAL_CLIENT_ID_VARIABLE, startPlatformTestMode, TEST_MODE_PLATFORMS, type RunningPlatformTestMode } from './platform-test-mode.ts';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface StackOptions {
  /** Where embedded PostgreSQL and Redis keep their files (`.data/` by default). */
  dataDir: string;
  /** Port of the api (and so of the UI); 0 picks a free one. */
  port: number;
  /** Use this PostgreSQL instead of the embedded one. */
  databaseUrl?: string | undefined;
  /** Use this Redis instead of starting redis-server. */
  redisUrl?: string | undefined;
  postgresPort?: number | undefined;
  redisPort?: number | undefined;
  /** Port of the local RTMP destination (nginx-rtmp on loopback); 0 or unset picks a free one. */
  rtmpPort?: number | undefined;
  /** Port of the RTMP ingest for encoders and consoles (1935 from `./onair start`); 0 or unset picks a free one. */
  ingestPort?: number | undefined;
  /** Address the ingest listens on (127.0.0.1 unless told; 0.0.0.0 for consoles on the network). */
  ingestHost?: string | undefined;
  /**
   * Run Twitch, YouTube and Facebook without an OAuth client of theirs on local doubles (test
   * mode, the default); false offers only the platforms whose client is configured.
   */
  platformTestMode?: boolean;
  /**
   * How many media workers run (1 by default; `MEDIA_WORKERS` for `./onair start`). With two, one
   * stands by for the other: a worker that dies hands its sessions to it at once (issue 54).
   */
  mediaWorkers?: number | undefined;
  /** Extra environment for every process (tests set short timeouts here). */
  env?: NodeJS.ProcessEnv;
  log?: (source: string, line: string) => void;
}

export interface RunningStack {
  url: string;
  databaseUrl: string;
  redisUrl: string;
  readiness: Readiness;
  /**
   * The local RTMP server: each project's Local destination publishes to a stream name of its own
   * there (GET …/local-stream), and each test-mode channel under the key its platform double gave it.
   */
  localRtmp: { server: RunningRtmpServer };
  /** The RTMP ingest (encoders: `rtmp://host:port/ingest/<key>`, consoles: `…/app/<Twitch key>`). */
  ingest: RunningIngestServer;
  /** The Stripe double billing runs against in test mode (no Stripe keys given). */
  stripe?: RunningStripeDouble;
  /** The platform doubles of the platforms in test mode (no OAuth client of theirs given); each channel's stream key is theirs (`streamKeys`). */
  platforms?: RunningPlatformTestMode;
  /** `mediaWorker` is the first of `mediaWorkers`. */
  processes: Record<'api' | 'mediaWorker' | 'renderWorker', SupervisedProcess> & { mediaWorkers: SupervisedProcess[] };
  stop(): Promise<void>;
}

/**
 * Starts the whole system on this machine: stores first (embedded unless URLs are given), then the
 * schema, then the api (serving the built UI), one media worker and one render worker, and waits
 * until `/readyz` says every part is up. `stop` stops the three processes together, then the stores.
 */
/** How long Ctrl-C lets a live session of the one local media worker run on before it stops. */
const EMBEDDED_DRAIN_GRACE_MS = 2000;

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = options.log ?? (() => {});
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const services: RunningService[] = [];
  const processes: SupervisedProcess[] = [];

  // The processes stop together (each hands over or closes its own work), then the stores they used.
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    for (const s of services.reverse()) await s.stop();
  };

  try {
    let databaseUrl = options.databaseUrl;
    if (!databaseUrl) {
      const pg = await startEmbeddedPostgres(join(dataDir, 'postgres'), options.postgresPort || (await freePort()), (l) => log('postgres', l));
      services.push(pg);
      databaseUrl = pg.url;
    }
    let redisUrl = options.redisUrl;
    if (!redisUrl) {
      const redis = await startRedisServer(join(dataDir, 'redis'), options.redisPort || (await freePort()), (l) => log('redis', l));
      services.push(redis);
      redisUrl = redis.url;
    }

    const secretsKey = options.env?.SECRETS_KEY ?? process.env.SECRETS_KEY ?? (await loadOrCreateSecret(join(dataDir, 'secrets.key'), newAesKey));
    const authSecret = options.env?.AUTH_SECRET ?? process.env.AUTH_SECRET ?? (await loadOrCreateSecret(join(dataDir, 'auth-secret'), newAuthSecret));
    const renderPageSecret =
      options.env?.RENDER_PAGE_SECRET ?? process.env.RENDER_PAGE_SECRET ?? (await loadOrCreateSecret(join(dataDir, 'render-page-secret'), newAuthSecret));
    const early = { ...process.env, ...options.env };
    // A platform whose OAuth client is not configured runs on its doubles in test mode; each of its
    // channels streams to the local RTMP server under the key the double gave that channel.
    const testModePlatforms = options.platformTestMode === false ? [] : TEST_MODE_PLATFORMS.filter((p) => !early[REAL_CLIENT_ID_VARIABLE[p]]);
    let platforms: RunningStack['platforms'];

    const port = options.port || (await freePort());
    // The local RTMP server asks about every publish: a test-mode channel's key is its double's
    // (in this process), any other name a project's Local stream, which the api decides.
    const localCallbackSecret =
      options.env?.LOCAL_RTMP_CALLBACK_SECRET ?? (await loadOrCreateSecret(join(dataDir, 'local-rtmp-callback.secret'), newAuthSecret));
    const gate = await startPublishGate({
      localStreamCallbackUrl: `http://127.0.0.1:${port}/api/internal/local-stream/${localCallbackSecret}/publish`,
      isTestModeKey: (key) => platforms?.streamKeyOwner(key) !== undefined,
      log: (l) => log('rtmp', l),
    });
    services.push({ url: gate.url, stop: () => gate.close() });
    const rtmp = await startRtmpServer({
      dir: join(dataDir, 'rtmp'),
      port: options.rtmpPort || undefined,
      onPublishUrl: gate.url,
      // The studio's Watch player plays a Local stream as HLS, through the api.
      hls: true,
      log: (l) => log('rtmp', l),
    });
    services.push({ url: rtmp.url(''), stop: () => rtmp.stop() });
    const localRtmpUrl = `rtmp://127.0.0.1:${rtmp.port}/${rtmp.application}`;

    // The ingest asks the api about every publish; the secret in the callback path is its credential.
    const ingestSecret = options.env?.INGEST_CALLBACK_SECRET ?? (await loadOrCreateSecret(join(dataDir, 'ingest-callback.secret'), newAuthSecret));
    const ingest = await startIngestServer({
      dir: join(dataDir, 'ingest'),
      port: options.ingestPort || undefined,
      host: options.ingestHost,
      callbackUrl: `http://127.0.0.1:${port}/api/internal/ingest/${ingestSecret}`,
      ...(options.env?.INGEST_IDLE_PUBLISHER_SECONDS ? { idlePublisherSeconds: Number(options.env.INGEST_IDLE_PUBLISHER_SECONDS) } : {}),
      log: (l) => log('ingest', l),
    });
    services.push({ url: ingest.pullUrl, stop: () => ingest.stop() });

    const migrations = await applyMigrations(databaseUrl);
    log('stack', `migrations: ${migrations.applied.length} applied, ${migrations.alreadyApplied.length} already in place`);

    const common: NodeJS.ProcessEnv = {
      ...process.env,
      ...options.env,
      REDIS_URL: redisUrl,
      SECRETS_KEY: secretsKey,
      // The api writes uploads here and the media worker reads them in place (one machine, one folder).
      UPLOADS_DIR: options.env?.UPLOADS_DIR ?? process.env.UPLOADS_DIR ?? join(dataDir, 'uploads'),
      NODE_ENV: process.env.NODE_ENV ?? 'production',
    };
    // Without Stripe keys, plans are sold through the local Stripe double in test mode (no real
    // payment; the studio says so), so a newcomer can upgrade on this machine. Its state lives in
    // this process: after a restart its old subscriptions are unknown to it.
    let stripe: RunningStripeDouble | undefined;
    if (!common.STRIPE_SECRET_KEY) {
      const double = await startStripeDouble({ catalogue: DEFAULT_STRIPE_CATALOGUE, webhookEndpoints: [`http://127.0.0.1:${port}/api/webhooks/stripe`] });
      stripe = double;
      services.push({ url: double.url, stop: () => double.stop() });
      log('stack', `billing: the Stripe double in test mode at ${double.url} (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET for real Stripe)`);
    }
    if (testModePlatforms.length > 0) {
      const publicUrl = common.PUBLIC_URL ?? `http://localhost:${port}`;
      const running = await startPlatformTestMode({
        platforms: testModePlatforms,
        redirectOrigins: [...new Set([new URL(publicUrl).origin, `http://127.0.0.1:${port}`, `http://localhost:${port}`])],
        ingest: { rtmpUrl: localRtmpUrl },
        // Connected test-mode destinations stay connected (and keep their keys) across a restart.
        stateDir: dataDir,
      });
      platforms = running;
      services.push({ url: '', stop: () => running.close() });
      log(
        'stack',
        `platforms: ${testModePlatforms.join(', ')} in test mode on local doubles (set ${testModePlatforms.map((p) => REAL_CLIENT_ID_VARIABLE[p]).join(', ')} with their secrets for the real services)`,
      );
    }
    const api = new SupervisedProcess(
      {
        name: 'api',
        entry: join(repoRoot, 'api/src/main.ts'),
        cwd: join(repoRoot, 'api'),
        env: {
          ...common,
          PORT: String(port),
          HOST: common.HOST ?? '127.0.0.1',
          DATABASE_URL: databaseUrl,
          UI_DIST_DIR: common.UI_DIST_DIR ?? join(repoRoot, 'control-ui/dist'),
          PUBLIC_URL: common.PUBLIC_URL ?? `http://localhost:${port}`,
          AUTH_SECRET: authSecret,
          RENDER_PAGE_SECRET: renderPageSecret,
          LOCAL_RTMP_URL: localRtmpUrl,
          LOCAL_RTMP_CALLBACK_SECRET: localCallbackSecret,
          ...(rtmp.hlsUrl ? { LOCAL_RTMP_HLS_URL: rtmp.hlsUrl } : {}),
          INGEST_RTMP_URL:
            common.INGEST_RTMP_URL ??
            `rtmp://${new URL(common.PUBLIC_URL ?? `http://localhost:${port}`).hostname}${ingest.port === 1935 ? '' : `:${ingest.port}`}`,
          INGEST_CALLBACK_SECRET: ingestSecret,
          ...(stripe ? stripeDoubleEnv(stripe) : {}),
          ...(platforms ? platforms.env : {}),
        },
      },
      log,
    );
    // The supervisor is the one that knows for certain that a media worker died (it saw the process
    // exit): it tells the fleet at once, and the worker's sessions go to another worker without
    // waiting out their locks (issue 54).
    const deathsRedis = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    const deaths = new WorkerDeaths(deathsRedis);
    services.push({ url: '', stop: async () => deathsRedis.disconnect() });
    const mediaWorkerCount = Math.max(1, options.mediaWorkers ?? (Number(early.MEDIA_WORKERS) || 1));
    const mediaWorkers = Array.from(
      { length: mediaWorkerCount },
      (_, i) =>
        new SupervisedProcess(
          {
            name: mediaWorkerCount === 1 ? 'media-worker' : `media-worker-${i + 1}`,
            entry: join(repoRoot, 'media-worker/src/main.ts'),
            cwd: join(repoRoot, 'media-worker'),
            // One worker on one machine: no other worker would take over a session, so Ctrl-C ends them
            // (a live one after a short grace instead of the fleet's hour) rather than queueing them for
            // the next start.
            env: {
              ...common,
              INGEST_PULL_URL: ingest.pullUrl,
              METRICS_PORT: '0',
              DRAIN_GRACE_MS: common.DRAIN_GRACE_MS ?? String(EMBEDDED_DRAIN_GRACE_MS),
              DRAIN_HAND_OVER: common.DRAIN_HAND_OVER ?? 'false',
            },
            // Each run is a worker of its own: a restarted worker is never taken for the dead one.
            runEnv: () => ({ WORKER_ID: `media-${i + 1}-${randomBytes(4).toString('hex')}` }),
            onDeath: ({ env, signal, code }) => {
              const workerId = env.WORKER_ID;
              if (!workerId) return;
              deaths.workerDied(workerId, `process exited (${signal ? `signal ${signal}` : `code ${code}`})`).then(
                (released) => log('stack', `${workerId} died: ${released.length} session(s) handed over at once`),
                (err: unknown) => log('stack', `${workerId} died; its sessions wait for their locks to lapse (${(err as Error).message})`),
              );
            },
          },
          log,
        ),
    );
    const mediaWorker = mediaWorkers[0]!;
    const renderWorker = new SupervisedProcess(
      {
        name: 'render-worker',
        entry: join(repoRoot, 'render-worker/src/main.ts'),
        cwd: join(repoRoot, 'render-worker'),
        // OnAir's own overlay pages are served by this stack's api, on loopback: the render worker
        // loads them by their signature (RENDER_PAGE_SECRET), and nothing else of that origin.
        env: { ...common, METRICS_PORT: '0', RENDER_OWN_ORIGIN: `http://localhost:${port},http://127.0.0.1:${port}`, RENDER_PAGE_SECRET: renderPageSecret },
      },
      log,
    );
    for (const p of [api, ...mediaWorkers, renderWorker]) {
      processes.push(p);
      p.start();
    }

    const url = `http://127.0.0.1:${port}`;
    const readiness = await waitFor(
      'the api to report ready',
      async () => {
        const res = await fetch(`${url}/readyz`);
        const body = readinessSchema.parse(await res.json());
        return body.ready ? body : undefined;
      },
      60_000,
      200,
    );
    return {
      url,
      databaseUrl,
      redisUrl,
      readiness,
      localRtmp: { server: rtmp },
      ingest,
      ...(stripe ? { stripe } : {}),
      ...(platforms ? { platforms } : {}),
      processes: { api, mediaWorker, mediaWorkers, renderWorker },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
