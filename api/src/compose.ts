// The composition root: every service of the api is built here, once, from the services it declares
// it needs, in dependency order. HTTP (app.ts), the WebSocket server (sockets.ts) and the background
// jobs (background.ts) all read this one graph.
import { SecretBox } from '@onair/runtime';
import { accessModule } from './access/module.ts';
import { accountsModule } from './accounts/module.ts';
import { authModule } from './auth/module.ts';
import { billingSettings } from './billing/config.ts';
import { billingModule } from './billing/module.ts';
import { campaignsModule } from './campaigns/module.ts';
import { chatModule } from './chat/module.ts';
import { chatbotModule } from './chatbot/module.ts';
import { creatorSiteModule } from './creator-site/module.ts';
import { destinationsModule } from './destinations/module.ts';
import { eventsModule } from './events/module.ts';
import { fleetModule } from './fleet/module.ts';
import { guestsModule } from './guests/module.ts';
import { ingestModule } from './ingest/module.ts';
import { leasesModule } from './leases/module.ts';
import { membersModule } from './members/module.ts';
import type { Platform } from './module.ts';
import { moneyModule } from './money/module.ts';
import { notificationsModule } from './notifications/module.ts';
import { ownPageUrls } from './access/own-page-urls.ts';
import { overlaysModule } from './overlays/module.ts';
import type { DataExportQueue } from './partner/data-exports/export-job.ts';
import { partnerModule } from './partner/module.ts';
import { recordingsModule } from './recordings/module.ts';
import { scenesModule } from './scenes/module.ts';
import type { ScheduledBroadcastQueue } from './schedules/schedule-queue.ts';
import { schedulesModule } from './schedules/module.ts';
import { sessionsModule } from './sessions/module.ts';
import { systemModule } from './system/module.ts';
import { testModeModule } from './test-mode/module.ts';
import { uploadsModule } from './uploads/module.ts';

export interface ComposeOptions extends Platform {
  /** A queue of the caller's (tests give each its own prefix); its owner closes it and runs its worker. */
  scheduleQueue?: ScheduledBroadcastQueue;
  /** A queue of the caller's (tests give each its own prefix); its owner closes it and runs its worker. */
  exportQueue?: DataExportQueue;
}

export type Composition = ReturnType<typeof compose>;

/** Builds every service of one api process once. Close it after everything that uses it (it closes the queues it made). */
export function compose(options: ComposeOptions) {
  const platform: Platform = {
    config: options.config,
    db: options.db,
    redis: options.redis,
    logger: options.logger,
    ...(options.now ? { now: options.now } : {}),
  };
  const { config } = platform;
  const shared = {
    ...platform,
    /** Seals stream keys, tokens and game keys at rest; null without SECRETS_KEY. */
    box: config.SECRETS_KEY ? new SecretBox(config.SECRETS_KEY) : null,
    /** The api's own signed pages (overlays, alerts), which the render worker may load on a private origin. */
    ownPages: ownPageUrls(config),
    /** Stripe, for billing and the money area; undefined without its keys. */
    stripeSettings: billingSettings(config),
  };
  const c1 = { ...shared, ...authModule.build(shared), ...accessModule.build(shared), ...leasesModule.build(shared) };
  const c2 = { ...c1, ...fleetModule.build(c1) };
  const c3 = { ...c2, ...systemModule.build(c2), ...sessionsModule.build(c2), ...uploadsModule.build(c2), ...recordingsModule.build(c2) };
  const c4 = { ...c3, ...scenesModule.build(c3) };
  const c5 = { ...c4, ...destinationsModule.build(c4), ...testModeModule.build(c4) };
  const c6 = {
    ...c5,
    ...accountsModule.build(c5),
    ...ingestModule.build(c5),
    ...schedulesModule.build({ ...c5, ...(options.scheduleQueue ? { scheduleQueue: options.scheduleQueue } : {}) }),
    ...eventsModule.build(c5),
  };
  const c7 = {
    ...c6,
    ...chatModule.build(c6),
    ...chatbotModule.build(c6),
    ...guestsModule.build(c6),
    ...membersModule.build(c6),
    ...moneyModule.build(c6),
    ...notificationsModule.build(c6),
  };
  const c8 = { ...c7, ...billingModule.build(c7), ...overlaysModule.build(c7), ...creatorSiteModule.build(c7) };
  const c9 = { ...c8, ...partnerModule.build({ ...c8, ...(options.exportQueue ? { exportQueue: options.exportQueue } : {}) }), ...campaignsModule.build(c8) };
  let closing: Promise<void> | null = null;
  return {
    ...c9,
    /** Closes the queues this composition made (not those it was given); once, however often it is called. */
    close(): Promise<void> {
      closing ??= (async () => {
        if (!options.exportQueue) await c9.exportQueue.close();
        if (!options.scheduleQueue) await c9.scheduleQueue.close();
        await c9.sessions.closeQueue();
      })();
      return closing;
    },
  };
}
