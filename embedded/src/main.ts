// `./onair start` ends here: the whole system on this machine, stopped cleanly by Ctrl-C.
import { resolve } from 'node:path';
import { repoRoot, startStack } from './stack.ts';

const env = process.env;
const verbose = env.ONAIR_VERBOSE === '1';
const port = Number(env.PORT ?? 8080);
const publicUrl = env.PUBLIC_URL ?? `http://localhost:${port}`;

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

// Service logs are JSON lines; show warnings and errors (or everything with ONAIR_VERBOSE=1)
// so the terminal stays readable for a newcomer.
function log(source: string, line: string): void {
  if (verbose || source === 'stack' || /"level":(40|50|60)/.test(line)) print(`[${source}] ${line}`);
}

const started = Date.now();
print('OnAir: starting PostgreSQL, Redis, the api, a media worker and a render worker…');
const stack = await startStack({
  dataDir: env.ONAIR_DATA_DIR ?? resolve(repoRoot, '.data'),
  port,
  databaseUrl: env.DATABASE_URL,
  redisUrl: env.REDIS_URL,
  postgresPort: env.EMBEDDED_POSTGRES_PORT ? Number(env.EMBEDDED_POSTGRES_PORT) : 54329,
  redisPort: env.EMBEDDED_REDIS_PORT ? Number(env.EMBEDDED_REDIS_PORT) : 63799,
  rtmpPort: env.EMBEDDED_RTMP_PORT ? Number(env.EMBEDDED_RTMP_PORT) : 19350,
  ingestPort: env.EMBEDDED_INGEST_PORT ? Number(env.EMBEDDED_INGEST_PORT) : 1935,
  ingestHost: env.EMBEDDED_INGEST_HOST ?? '0.0.0.0',
  env: { PUBLIC_URL: publicUrl, HOST: env.HOST ?? '0.0.0.0' },
  log,
});
print(`OnAir is ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
print(`  Open ${publicUrl}`);
print("  Local destination: open a project's Local destination in the studio to watch its stream there (Watch) or copy its address.");
print(`  Ingest for encoders and consoles: rtmp://<this machine>:${stack.ingest.port}/ingest/<the key shown in the studio's Auto Live block>`);
if (stack.platforms) {
  print(`  Test mode: ${stack.platforms.platforms.join(', ')} run on local doubles (no real accounts; streams go to the local RTMP server).`);
  print('  Set TWITCH_CLIENT_ID, GOOGLE_CLIENT_ID or FACEBOOK_CLIENT_ID (with its secret) for the real platform: see README, "Platforms in test mode".');
}
print(`  Workers: ${stack.readiness.checks.mediaWorkers.count} media, ${stack.readiness.checks.renderWorkers.count} render. Press Ctrl-C to stop.`);

let stopping = false;
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  print(`\nOnAir: ${signal} received, stopping…`);
  stack.stop().then(
    () => {
      print('OnAir: stopped. Your data stays in .data/ for the next start.');
      process.exit(0);
    },
    (err: unknown) => {
      console.error('OnAir: stop failed', err);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
