import { ingestEndpoints } from '@onair/protocol';
import type { SecretBox } from '@onair/runtime';
import type { BroadcastService } from '../destinations/broadcast-service.ts';
import type { DestinationEvents } from '../destinations/destination-events.ts';
import type { DestinationSecrets } from '../destinations/destination-secrets.ts';
import type { SessionResolver } from '../http/auth-context.ts';
import { middleware, type Platform, type Running } from '../module.ts';
import type { SceneService } from '../scenes/scene-service.ts';
import type { SessionService } from '../sessions/session-service.ts';
import { startIngestWatch } from './index.ts';
import { IngestService } from './ingest-service.ts';
import { ingestRoutes } from './routes.ts';
import { whipRoutes } from './whip-routes.ts';

export interface IngestServices {
  ingest: IngestService;
}

/** RTMP ingest (nginx-rtmp's callbacks), WHIP, and Auto Live. */
export const ingestModule = {
  name: 'ingest',
  build: (
    deps: Platform & {
      box: SecretBox | null;
      destinationEvents: DestinationEvents;
      destinationSecrets: DestinationSecrets;
      broadcasts: BroadcastService;
      sessions: SessionService;
      scenes: SceneService;
    },
  ): IngestServices => ({
    ingest: new IngestService({
      db: deps.db,
      redis: deps.redis,
      logger: deps.logger.child({ part: 'ingest' }),
      config: deps.config,
      box: deps.box,
      events: deps.destinationEvents,
      broadcasts: deps.broadcasts,
      secrets: deps.destinationSecrets,
      sessions: deps.sessions,
      scenes: deps.scenes,
    }),
  }),
  http: {
    /** WHIP bodies are SDP, read by its routes under their own limit: before the JSON parser. */
    whip: middleware((c: Platform & IngestServices) => whipRoutes({ ingest: c.ingest, redis: c.redis, logger: c.logger })),
    routes: {
      endpoints: ingestEndpoints,
      mount: (c: Platform & IngestServices & { resolveSession: SessionResolver }) =>
        ingestRoutes({ db: c.db, ingest: c.ingest, resolveSession: c.resolveSession, callbackSecret: c.config.INGEST_CALLBACK_SECRET, logger: c.logger }),
    },
  },
  jobs: {
    /** Feeds gone past their grace period end their Auto Live broadcast. */
    graceSweep: { name: 'ingest watch', start: (c: Platform & IngestServices): Running => startIngestWatch(c) },
  },
};
