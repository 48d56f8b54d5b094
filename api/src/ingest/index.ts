import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import { SecretBox, type Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import { ProjectAccess } from '../access/project-access.ts';
import { createDestinations, type SessionControl } from '../destinations/index.ts';
import type { BroadcastService } from '../destinations/broadcast-service.ts';
import { DestinationEvents } from '../destinations/destination-events.ts';
import { DestinationSecrets } from '../destinations/destination-secrets.ts';
import type { SessionService } from '../sessions/session-service.ts';
import type { SceneService } from '../scenes/scene-service.ts';
import { IngestService } from './ingest-service.ts';

/** Wires the ingest of one api from its config and the broadcasts it starts and ends. */
export function createIngest(deps: { config: ApiConfig; db: Db; redis: Redis; logger: Logger; broadcasts: BroadcastService; sessions?: SessionService; scenes?: SceneService }): IngestService {
  const box = deps.config.SECRETS_KEY ? new SecretBox(deps.config.SECRETS_KEY) : null;
  return new IngestService({
    db: deps.db,
    redis: deps.redis,
    logger: deps.logger.child({ part: 'ingest' }),
    config: deps.config,
    box,
    events: new DestinationEvents(deps.redis, deps.logger),
    broadcasts: deps.broadcasts,
    secrets: new DestinationSecrets(box),
    ...(deps.sessions ? { sessions: deps.sessions } : {}),
    ...(deps.scenes ? { scenes: deps.scenes } : {}),
  });
}

export interface IngestWatch {
  close(): void;
}

/**
 * The ingest's background work in one api process: feeds gone past their grace period end their
 * Auto Live broadcast. Every replica sweeps; each project is claimed by one (IngestService.sweepGrace).
 */
export function startIngestWatch(deps: { config: ApiConfig; db: Db; redis: Redis; logger: Logger; sessions: SessionControl | null }): IngestWatch {
  const access = new ProjectAccess(deps.db, deps.logger);
  const { broadcasts } = createDestinations({ ...deps, assertProjectAccess: (user, projectId) => access.require(user, projectId, 'read project') });
  const ingest = createIngest({ config: deps.config, db: deps.db, redis: deps.redis, logger: deps.logger, broadcasts });
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    ingest
      .sweepGrace()
      .catch((err: unknown) => deps.logger.warn({ err: (err as Error).message }, 'ingest grace sweep failed'))
      .finally(() => (sweeping = false));
  }, deps.config.INGEST_SWEEP_MS);
  timer.unref();
  return { close: () => clearInterval(timer) };
}

export { IngestService } from './ingest-service.ts';
