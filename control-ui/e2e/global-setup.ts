import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStack, type RunningStack } from '../../embedded/src/stack.ts';

const distIndex = fileURLToPath(new URL('../dist/index.html', import.meta.url));

/**
 * Starts the real stack on a throw-away data folder and returns the teardown that stops it and
 * removes the folder. It builds nothing: the api serves whatever control-ui/dist holds.
 * With ONAIR_E2E_URL already set, the tests run against that server instead and nothing starts.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.ONAIR_E2E_URL) return async () => {};
  if (!existsSync(distIndex)) {
    throw new Error(`${distIndex} is missing: run \`npm run build -w control-ui\` before the e2e tests`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'onair-e2e-'));
  const lines: string[] = [];
  let stack: RunningStack;
  // No platform OAuth client is set: the stack runs Twitch, YouTube and Facebook in test mode on its
  // doubles (chat over IRC, live chat polling and comment streams; EventSub; OAuth consent pages),
  // as `./onair start` does for a newcomer. A spec drives them through their control endpoints; a
  // known secrets key lets a spec seal the tokens of destinations it writes into the database.
  const secretsKey = randomBytes(32).toString('base64');
  try {
    stack = await startStack({
      dataDir,
      port: 0,
      // The go-live flow pushes to RTMP receivers the test starts on loopback.
      // Studios closed by earlier specs give the stack's one media worker back within seconds.
      // Every flow signs in from 127.0.0.1: the per-IP sign-in limit (30 a minute, tested in the api's
      // own suite) would refuse the suite's sign-ins as one client's.
      env: {
        ALLOW_PRIVATE_RTMP: 'true',
        SESSION_IDLE_MS: '5000',
        AUTH_RATE_LIMIT_PER_IP: '1000',
        SECRETS_KEY: secretsKey,
        TWITCH_EVENTSUB_CLIENT_ID: 'e2e-eventsub-client',
        // Spec §9's retries (5, 25, 30 s) shortened so a spec need not wait for them.
        CHAT_NOT_LIVE_RETRY_MS: '500',
        CHAT_ERROR_RETRY_MS: '1000',
        CHAT_TWITCH_RECONNECT_MS: '1000',
        // The account erasure job sweeps every second, so a flow can see an account erased once its window has passed.
        ACCOUNT_ERASURE_INTERVAL_SECONDS: '1',
      },
      // Kept quiet unless something fails: then the last lines explain why. ONAIR_E2E_LOG=<file>
      // keeps every line of the stack (api, workers, pipelines) there, for a flow that fails now and then.
      log: (source, line) => {
        lines.push(`[${source}] ${line}`);
        if (lines.length > 200) lines.shift();
        if (process.env.ONAIR_E2E_LOG) appendFileSync(process.env.ONAIR_E2E_LOG, `${new Date().toISOString()} [${source}] ${line}\n`);
      },
    });
  } catch (err) {
    console.error(lines.join('\n'));
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  process.env.ONAIR_E2E_SECRETS_KEY = secretsKey;
  const platforms = stack.platforms;
  if (!platforms?.twitch || !platforms.youtube || !platforms.facebook)
    throw new Error('the e2e stack runs every platform in test mode (no OAuth client is set)');
  process.env.ONAIR_E2E_CHAT_TWITCH = platforms.twitch.chat.url;
  process.env.ONAIR_E2E_CHAT_YOUTUBE = platforms.youtube.chat.url;
  process.env.ONAIR_E2E_CHAT_FACEBOOK = platforms.facebook.chat.url;
  process.env.ONAIR_E2E_EVENTSUB = platforms.twitch.events.url;
  process.env.ONAIR_E2E_URL = stack.url;
  // The studios the flows opened, with their owners' cookies (support/fixtures.ts frees those of
  // earlier files); removed with the data folder.
  process.env.ONAIR_E2E_OPENED = join(dataDir, 'opened-studios.jsonl');
  // The Stripe double's test-mode dashboard (Connect payouts are moved on there).
  if (stack.stripe) process.env.ONAIR_E2E_STRIPE = stack.stripe.url;
  // For flows that stand in for a service the UI cannot drive yet (billing writing a subscription).
  process.env.ONAIR_E2E_DATABASE_URL = stack.databaseUrl;
  // A project's Local stream and a test-mode channel's stream are read at their own addresses: support/local-stream.ts.
  // Where an encoder publishes to the stack's RTMP ingest (rtmp://127.0.0.1:<port>).
  process.env.ONAIR_E2E_INGEST = stack.ingest.pullUrl;
  // A known camera picture (orange) and a steady tone for Chromium's fake devices (see support/fake-media.ts),
  // so outputs can be checked pixel by pixel and by level; removed with the data folder.
  const camera = join(dataDir, 'fake-camera.y4m');
  const tone = join(dataDir, 'fake-tone.wav');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xFF8000:s=1280x720:r=30:d=2', '-pix_fmt', 'yuv420p', camera]);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=5', '-ac', '1', tone]);
  process.env.ONAIR_E2E_FAKE_CAMERA = camera;
  process.env.ONAIR_E2E_FAKE_TONE = tone;
  // The browsers' audio client (libpulse) keeps its runtime files here rather than in pulse-* folders
  // of the system temp folder; they go with the data folder.
  if (!process.env.XDG_RUNTIME_DIR) {
    const runtime = join(dataDir, 'run');
    await mkdir(runtime, { mode: 0o700 });
    process.env.XDG_RUNTIME_DIR = runtime;
  }

  return async () => {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
