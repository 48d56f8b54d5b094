import type { Redis } from 'ioredis';
import type { Logger } from '@onair/runtime';
import type { BroadcastService } from './broadcast-service.ts';
import { BroadcastWatch } from './broadcast-watch.ts';
import type { DestinationService } from './destination-service.ts';
import type { PlatformAccounts } from './platform-accounts.ts';

export interface Destinations {
  destinations: DestinationService;
  accounts: PlatformAccounts;
  broadcasts: BroadcastService;
}

/**
 * Starts the broadcast background work of one api process (output health to the studios, the
 * plan's stream-duration limit); close it on shutdown.
 */
export async function startBroadcastWatch(deps: {
  redis: Redis;
  logger: Logger;
  broadcasts: BroadcastService;
  sweepEveryMs?: number;
}): Promise<BroadcastWatch> {
  const subscriber = deps.redis.duplicate();
  subscriber.on('error', (err: Error) => deps.logger.warn({ err: err.message }, 'redis subscriber connection error'));
  const watch = new BroadcastWatch({
    broadcasts: deps.broadcasts,
    redis: deps.redis,
    subscriber,
    logger: deps.logger,
    ...(deps.sweepEveryMs ? { sweepEveryMs: deps.sweepEveryMs } : {}),
  });
  // Without Redis now, the api still starts; the health relay is missing until the next start.
  await watch.start().catch((err: unknown) => deps.logger.warn({ err: (err as Error).message }, 'broadcast watch could not subscribe to session status'));
  const close = watch.close.bind(watch);
  watch.close = async () => {
    await close();
    subscriber.disconnect();
  };
  return watch;
}

export type { SessionControl } from './session-control.ts';
export type { BroadcastWatch } from './broadcast-watch.ts';
