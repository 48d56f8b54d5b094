import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import { SecretBox, type Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import { ProjectAccess } from '../access/project-access.ts';
import { BroadcastService } from './broadcast-service.ts';
import { BroadcastWatch } from './broadcast-watch.ts';
import { DestinationEvents } from './destination-events.ts';
import { DestinationSecrets } from './destination-secrets.ts';
import { DestinationService, type ProjectAccessCheck } from './destination-service.ts';
import { PlatformAccounts } from './platform-accounts.ts';
import { createPlatforms } from './platforms/index.ts';
import type { SessionControl } from './session-control.ts';
import { createRecordingArchive } from '../recordings/recording-archive.ts';
import { RecordingFiles } from '../recordings/recording-files.ts';
import { RecordingService } from '../recordings/recording-service.ts';

export interface Destinations {
  destinations: DestinationService;
  accounts: PlatformAccounts;
  broadcasts: BroadcastService;
  recordings: RecordingService;
}

/** Wires the destination services of one api from its config. */
export function createDestinations(deps: {
  config: ApiConfig;
  db: Db;
  redis: Redis;
  logger: Logger;
  assertProjectAccess: ProjectAccessCheck;
  sessions: SessionControl | null;
  /** The clock of recordings' retention; tests advance it. */
  now?: () => Date;
}): Destinations {
  const { config, db, redis, logger, assertProjectAccess } = deps;
  const secrets = new DestinationSecrets(config.SECRETS_KEY ? new SecretBox(config.SECRETS_KEY) : null);
  const events = new DestinationEvents(redis, logger);
  const platforms = createPlatforms(config);
  const rtmpPolicy = { allowPrivate: config.ALLOW_PRIVATE_RTMP, localRtmpUrl: config.LOCAL_RTMP_URL };
  const destinations = new DestinationService({
    db,
    events,
    secrets,
    platforms,
    rtmpPolicy,
    local: config.LOCAL_RTMP_URL ? { url: config.LOCAL_RTMP_URL, key: config.LOCAL_RTMP_KEY } : null,
    assertProjectAccess,
    logger,
  });
  const accounts = new PlatformAccounts({
    db,
    redis,
    logger,
    secrets,
    platforms,
    destinations,
    publicUrl: config.PUBLIC_URL,
    refreshMarginSeconds: config.TOKEN_REFRESH_MARGIN_SECONDS,
  });
  const archive = createRecordingArchive(config);
  const recordings = new RecordingService({ db, files: new RecordingFiles(config.UPLOADS_DIR), logger, ...(archive ? { archive } : {}), ...(deps.now ? { now: deps.now } : {}) });
  const broadcasts = new BroadcastService({ db, redis, logger, events, secrets, accounts, assertProjectAccess, sessions: deps.sessions, rtmpPolicy, slateMaxSeconds: deps.config.SLATE_MAX_SECONDS, recordings });
  return { destinations, accounts, broadcasts, recordings };
}

/**
 * Starts the broadcast background work of one api process (output health to the studios, the
 * plan's stream-duration limit); close it on shutdown. `sessions` is the same SessionControl the app uses.
 */
export async function startBroadcastWatch(deps: { config: ApiConfig; db: Db; redis: Redis; logger: Logger; sessions: SessionControl | null; sweepEveryMs?: number }): Promise<BroadcastWatch> {
  const access = new ProjectAccess(deps.db, deps.logger);
  const { broadcasts } = createDestinations({ ...deps, assertProjectAccess: (user, projectId) => access.require(user, projectId, 'read project') });
  const subscriber = deps.redis.duplicate();
  subscriber.on('error', (err: Error) => deps.logger.warn({ err: err.message }, 'redis subscriber connection error'));
  const watch = new BroadcastWatch({ broadcasts, redis: deps.redis, subscriber, logger: deps.logger, ...(deps.sweepEveryMs ? { sweepEveryMs: deps.sweepEveryMs } : {}) });
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
