// The background work of one api process. Every replica runs each job: BullMQ hands each run of a
// queue's job to one worker, and the leader-elected loops act only in the replica holding their lease.
import { accountsModule } from './accounts/module.ts';
import type { Composition } from './compose.ts';
import { campaignsModule } from './campaigns/module.ts';
import { destinationsModule } from './destinations/module.ts';
import { fleetModule } from './fleet/module.ts';
import { ingestModule } from './ingest/module.ts';
import type { JobPart, Running } from './module.ts';
import { notificationsModule } from './notifications/module.ts';
import { partnerModule } from './partner/module.ts';
import { recordingsModule } from './recordings/module.ts';
import { scenesModule } from './scenes/module.ts';
import { schedulesModule } from './schedules/module.ts';

const jobs: readonly JobPart<Composition>[] = [
  partnerModule.jobs.dataExports,
  schedulesModule.jobs.runner,
  destinationsModule.jobs.broadcastWatch,
  ingestModule.jobs.graceSweep,
  scenesModule.jobs.countdowns,
  fleetModule.jobs.controller,
  accountsModule.jobs.erasure,
  recordingsModule.jobs.retention,
  campaignsModule.jobs.sweep,
  notificationsModule.jobs.digest,
];

/** Starts every job; close them on shutdown (in reverse order). */
export async function startBackgroundJobs(c: Composition): Promise<{ close(): Promise<void> }> {
  const started: Running[] = [];
  for (const job of jobs) started.push(await job.start(c));
  return {
    close: async () => {
      for (const job of started.reverse()) await job.close();
    },
  };
}
