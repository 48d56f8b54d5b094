import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import type { LeasesServices } from '../leases/module.ts';
import type { PlatformAccounts } from '../destinations/platform-accounts.ts';
import type { EventsStore } from './events-store.ts';
import { EventsSupervisor, eventsKeys } from './events-supervisor.ts';

export interface EventsConnectors {
  /** Null when this replica runs no connectors (EVENTS_CONNECTORS=false). */
  supervisor: EventsSupervisor | null;
  close(): Promise<void>;
}

/**
 * The events connectors of one api replica: unless switched off, the supervisor that takes part in
 * electing connector owners and runs those it owns, writing through the one events store.
 */
export function startEventsConnectors(
  deps: { config: ApiConfig; db: Db; redis: Redis; logger: Logger; eventsStore: EventsStore; platformAccounts: PlatformAccounts } & LeasesServices,
): EventsConnectors {
  const { config, db, redis, logger } = deps;
  const clientId = config.TWITCH_EVENTSUB_CLIENT_ID ?? config.TWITCH_CLIENT_ID ?? null;
  let supervisor: EventsSupervisor | null = null;
  if (config.EVENTS_CONNECTORS) {
    supervisor = new EventsSupervisor({
      config,
      db,
      redis,
      logger,
      accounts: deps.platformAccounts,
      store: deps.eventsStore,
      lease: deps.connectorLeases(eventsKeys.owner),
      clientId,
    });
    supervisor.start();
    if (!clientId) logger.info('Twitch events are off: no TWITCH_EVENTSUB_CLIENT_ID or TWITCH_CLIENT_ID');
  }
  return {
    supervisor,
    close: async () => {
      await supervisor?.close();
    },
  };
}

export { EventsService } from './events-service.ts';
export { EventsStore } from './events-store.ts';
