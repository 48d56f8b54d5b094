import type { Redis } from 'ioredis';

/** Redis unreachable this long during a shutdown counts as gone (a reconnect after a blip takes well under it). */
export const REDIS_GONE_MS = 3000;

/**
 * Runs a process's shutdown steps unless Redis is gone for good, whichever comes first.
 *
 * Every OnAir process's shutdown talks to Redis (a worker hands its sessions over, the api closes
 * its BullMQ workers and quits its clients), and an ioredis client waits for its server to come
 * back for ever. When the server is gone for good (the one-machine stack killed with -9 takes its
 * Redis along with every process it started, in no set order) nothing can be handed over any more:
 * the process then stops within seconds instead of waiting out its shutdown deadline (30 s), and
 * what it started ends with it (tethered-process.ts). Redis not ready for `goneMs` in a row counts
 * as gone: `redis` is then disconnected (it stops reconnecting; a command it still holds stays
 * unanswered, which is why the caller must exit next) and the steps' own rejection is not a crash.
 */
export async function unlessRedisGone(redis: Redis, steps: () => Promise<void>, goneMs = REDIS_GONE_MS): Promise<'done' | 'redis gone'> {
  const gone = goneFor(redis, goneMs);
  const finished = steps();
  const outcome = await Promise.race([finished.then(() => 'done' as const), gone.promise.then(() => 'redis gone' as const)]);
  gone.cancel();
  if (outcome === 'redis gone') {
    finished.catch(() => undefined);
    redis.disconnect();
  }
  return outcome;
}

/** Resolves once `redis` has not been ready for `ms` in a row (looked at four times a second). */
function goneFor(redis: Redis, ms: number): { promise: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    let downSince: number | undefined;
    timer = setInterval(() => {
      if (redis.status === 'ready') {
        downSince = undefined;
        return;
      }
      downSince ??= Date.now();
      if (Date.now() - downSince >= ms) resolve();
    }, 250);
    timer.unref();
  });
  return { promise, cancel: () => clearInterval(timer) };
}
