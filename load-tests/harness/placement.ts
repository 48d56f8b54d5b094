// Placement latency and failover time at scale, on this machine, against a real Redis:
//   npm run placement -w load-tests -- [workers=50] [sessions=1000] [coresPerWorker=48] [rate=200] [kill=5] [timeoutSeconds=180]
// POD_WATCH=1: killed workers' pods are reported gone through a Kubernetes watch (an API double),
// whose death notice releases their sessions at once (issue 54); without it they wait for their locks.
// Uses REDIS_URL when it is a loopback address, else starts a private redis-server for the run.
// Every run is bounded (see LIMITS) and uses its own BullMQ prefix, removed at the end.
// The workers are simulated on BullMQ directly (see placement/simulated-fleet.ts): point its
// admission at the media worker's own when that is final.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startRedisServer } from '@onair/embedded';
import { formatReport, runPlacement, type PlacementRunOptions } from './placement/placement-run.ts';

const [workers = '50', sessions = '1000', cores = '48', rate = '200', kill = '5', timeoutSeconds = '180'] = process.argv.slice(2);

let redisUrl = process.env.REDIS_URL;
let stopRedis = async (): Promise<void> => {};
if (!redisUrl) {
  const dir = await mkdtemp(join(tmpdir(), 'onair-placement-'));
  const redis = await startRedisServer(dir, await freePort());
  redisUrl = redis.url;
  stopRedis = async () => {
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

const options: PlacementRunOptions = {
  redisUrl,
  workers: Number(workers),
  sessions: Number(sessions),
  coresPerWorker: Number(cores),
  rate: Number(rate),
  kill: Number(kill),
  timeoutMs: Number(timeoutSeconds) * 1000,
  podWatch: process.env.POD_WATCH === '1',
};
try {
  const report = await runPlacement(options);
  process.stdout.write(formatReport(options, report));
} catch (err) {
  console.error(`placement run failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await stopRedis();
}
