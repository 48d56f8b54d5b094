// The render worker process: registers in the fleet with a heartbeat (load.pages = pages
// rendering), takes page jobs from the `renders` queue up to its capacity, and on SIGTERM hands its
// pages back to the queue for another worker. See src/page/page-renderer.ts for how a page runs.
import { runWorker } from '@onair/runtime';
import { readRenderConfig } from './config.ts';
import { RenderJobs } from './jobs/render-jobs.ts';
import { sweepStalePageDirs } from './page/page-renderer.ts';

const config = readRenderConfig();
let jobs: RenderJobs | undefined;

await runWorker({
  kind: 'render',
  version: '0.1.0',
  defaultMetricsPort: 9102,
  load: () => ({ sessions: 0, outputs: 0, pages: jobs?.pageCount ?? 0, bitrateKbps: 0, fps: 0, droppedFrames: 0 }),
  start: async (ctx) => {
    const swept = await sweepStalePageDirs();
    if (swept > 0) ctx.logger.info({ folders: swept }, 'removed page folders left by render workers that were killed');
    jobs = new RenderJobs({ redis: ctx.redis, workerId: ctx.config.WORKER_ID, config, logger: ctx.logger, metrics: ctx.metrics });
    await jobs.start();
    ctx.logger.info({ maxPages: config.maxPages, allowedHosts: [...config.allowedHosts] }, 'render worker takes pages');
  },
  drain: async () => {
    await jobs?.drain();
  },
});
