import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import { ChatOwnership } from '../chat/chat-ownership.ts';
import { createDestinations } from '../destinations/index.ts';
import { EventsStore } from './events-store.ts';
import { AlertsService } from './alerts-service.ts';
import { ownPageUrls } from '../overlays/own-page-urls.ts';
import { EventsSupervisor, eventsKeys } from './events-supervisor.ts';

export interface Events {
  store: EventsStore;
  /** Null when this replica runs no connectors (EVENTS_CONNECTORS=false, or no Twitch client id). */
  supervisor: EventsSupervisor | null;
  close(): Promise<void>;
}

/**
 * The events feed of one api replica: the store every source of events writes through, and (unless
 * switched off) the supervisor that takes part in electing connector owners and runs those it owns.
 */
export function startEvents(deps: { config: ApiConfig; db: Db; redis: Redis; logger: Logger }): Events {
  const { config, db, redis, logger } = deps;
  const alerts = new AlertsService({ db, redis, logger, publicUrl: config.PUBLIC_URL, secret: config.AUTH_SECRET, signForStudio: ownPageUrls(config).sign });
  const store = new EventsStore(db, redis, logger, alerts);
  const clientId = config.TWITCH_EVENTSUB_CLIENT_ID ?? config.TWITCH_CLIENT_ID;
  let supervisor: EventsSupervisor | null = null;
  if (config.EVENTS_CONNECTORS && clientId) {
    const replicaId = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
    const ownership = new ChatOwnership(redis, replicaId, config.CHAT_OWNER_LEASE_MS, eventsKeys.owner);
    // Only its token methods are used here; project access is checked where studios call in.
    const { accounts } = createDestinations({ config, db, redis, logger, assertProjectAccess: async () => undefined, sessions: null });
    supervisor = new EventsSupervisor({ config, db, redis, logger, accounts, store, ownership, clientId });
    supervisor.start();
  } else if (config.EVENTS_CONNECTORS) {
    logger.info('Twitch events are off: no TWITCH_EVENTSUB_CLIENT_ID or TWITCH_CLIENT_ID');
  }
  return {
    store,
    supervisor,
    close: async () => {
      await supervisor?.close();
    },
  };
}

export { EventsService } from './events-service.ts';
export { EventsStore } from './events-store.ts';
