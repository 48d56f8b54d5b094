import { WaitingError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { Counter, Gauge, type Registry } from 'prom-client';
import {
  queues,
  renderCommandSchema,
  renderJobSchema,
  renderKeys,
  renderStatusSchema,
  type RenderCommand,
  type RenderJob,
  type RenderStatus,
} from '@onair/protocol';
import { BullQueue, type Logger } from '@onair/runtime';
import type { RenderConfig } from '../config.ts';
import { PageRenderer, type PageStatus } from '../page/page-renderer.ts';

export interface RenderJobsOptions {
  /** For publishing status and reading render keys; the queue opens connections of its own from it. */
  redis: Redis;
  workerId: string;
  config: RenderConfig;
  logger: Logger;
  metrics: Registry;
}

/** Why a page's job ends: stopped for good, or handed back to the queue for another worker. */
type PageEnd = 'stop' | 'handover';

interface ActivePage {
  job: Job<RenderJob>;
  data: RenderJob;
  renderer: PageRenderer;
  end: (why: PageEnd) => void;
}

/** How often a running page re-reads its current job id and data (catches missed pub/sub commands). */
const RECONCILE_INTERVAL_MS = 3_000;

/**
 * The render worker's share of the `renders` queue: one long-running job per page, at most
 * `maxPages` at once (that concurrency is the worker's capacity). The job stays active, its lock
 * renewed, for as long as the page renders; a worker that dies stops renewing, the job stalls
 * and another worker takes it. Commands come over pub/sub and are re-checked against Redis.
 */
export class RenderJobs {
  private readonly jobs: BullQueue<RenderJob, string>;
  private subscriber: Redis | undefined;
  private reconcileTimer: NodeJS.Timeout | undefined;
  private readonly pages = new Map<string, ActivePage>();
  private readonly pagesGauge: Gauge;
  private readonly statusCounter: Counter;

  constructor(private readonly options: RenderJobsOptions) {
    this.jobs = new BullQueue<RenderJob, string>(options.redis, queues.renders, { prefix: options.config.queuePrefix });
    this.pagesGauge = new Gauge({ name: 'onair_render_worker_pages', help: 'Pages rendering on this worker', registers: [options.metrics] });
    this.statusCounter = new Counter({
      name: 'onair_render_worker_page_status_total',
      help: 'Page status changes by state and problem code',
      labelNames: ['state', 'code'],
      registers: [options.metrics],
    });
  }

  get pageCount(): number {
    return this.pages.size;
  }

  async start(): Promise<void> {
    const { config } = this.options;
    this.subscriber = this.options.redis.duplicate();
    this.subscriber.on('error', (err) => this.options.logger.warn({ err: err.message }, 'render command subscriber error'));
    this.subscriber.on('message', (_channel: string, message: string) => this.onCommand(message));
    await this.subscriber.subscribe(renderKeys.commands);
    this.jobs.work((data, job, token, signal) => this.process(data, job, token, signal), {
      concurrency: config.maxPages,
      lockDuration: config.jobLockMs,
      stalledInterval: Math.max(500, Math.floor(config.jobLockMs / 2)),
      // A page job may outlive many render workers.
      maxStalledCount: 1_000_000,
      onError: (err) => this.options.logger.warn({ err: err.message }, 'render queue error'),
    });
    this.reconcileTimer = setInterval(() => void this.reconcile(), RECONCILE_INTERVAL_MS);
  }

  /** SIGTERM: take no more pages and hand every running page back to the queue for another worker. */
  async drain(): Promise<void> {
    if (this.reconcileTimer) clearInterval(this.reconcileTimer);
    await this.jobs.pause();
    for (const page of this.pages.values()) page.end('handover');
    await this.jobs.close();
    await this.subscriber?.quit().catch(() => undefined);
  }

  private async process(data: RenderJob, job: Job<RenderJob>, token: string | undefined, signal: AbortSignal | undefined): Promise<string> {
    const log = this.options.logger.child({ renderId: data.renderId, sessionId: data.sessionId, jobId: job.id });
    if ((await this.options.redis.get(renderKeys.current(data.renderId))) !== job.id) {
      log.info('render no longer wanted; dropping it');
      return 'superseded';
    }

    let end: (why: PageEnd) => void = () => undefined;
    const ended = new Promise<PageEnd>((resolve) => {
      end = resolve;
    });
    signal?.addEventListener('abort', () => end('stop'));
    const renderer = new PageRenderer({
      renderId: data.renderId,
      page: data.page,
      video: data.video,
      audio: data.audio,
      config: this.options.config,
      logger: log,
      onStatus: (status) => void this.publishStatus(job, data, status),
    });
    const key = job.id ?? data.renderId;
    this.pages.set(key, { job, data, renderer, end });
    this.pagesGauge.set(this.pages.size);
    try {
      renderer.start();
      const why = await ended;
      await renderer.stop();
      if (why === 'handover' && token) {
        log.info('handing the page over to another render worker');
        await job.moveToWait(token);
        throw new WaitingError();
      }
      return 'stopped';
    } finally {
      this.pages.delete(key);
      this.pagesGauge.set(this.pages.size);
    }
  }

  private onCommand(message: string): void {
    let command: RenderCommand;
    try {
      command = renderCommandSchema.parse(JSON.parse(message));
    } catch {
      this.options.logger.warn('ignoring a malformed render command');
      return;
    }
    for (const page of this.pages.values()) {
      if (page.data.renderId !== command.renderId) continue;
      if (command.type === 'stop') page.end('stop');
      else this.applyPage(page, command.page);
    }
  }

  private applyPage(page: ActivePage, next: RenderJob['page']): void {
    const cur = page.data.page;
    if (cur.url === next.url && cur.width === next.width && cur.height === next.height && cur.transparent === next.transparent) return;
    page.data = { ...page.data, page: next };
    page.renderer.update(next);
  }

  /** Re-reads what pub/sub may have missed: is the job still current, and is its page config the one shown? */
  private async reconcile(): Promise<void> {
    for (const page of this.pages.values()) {
      try {
        const current = await this.options.redis.get(renderKeys.current(page.data.renderId));
        if (current !== page.job.id) {
          page.end('stop');
          continue;
        }
        const fresh = await this.jobs.queue.getJob(page.job.id ?? '');
        const parsed = renderJobSchema.safeParse(fresh?.data);
        if (parsed.success) this.applyPage(page, parsed.data.page);
      } catch (err) {
        this.options.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'render reconcile failed');
      }
    }
  }

  private async publishStatus(job: Job<RenderJob>, data: RenderJob, status: PageStatus): Promise<void> {
    const message: RenderStatus = renderStatusSchema.parse({
      renderId: data.renderId,
      sessionId: data.sessionId,
      sourceId: data.sourceId,
      workerId: this.options.workerId,
      state: status.state,
      problem: status.problem,
      attempt: status.attempt,
      retryAt: status.retryAt?.toISOString() ?? null,
      at: new Date().toISOString(),
    });
    this.statusCounter.inc({ state: status.state, code: status.problem?.code ?? '' });
    try {
      await this.options.redis.publish(renderKeys.status(data.sessionId), JSON.stringify(message));
      if (status.state !== 'stopped') await job.updateProgress(message);
    } catch (err) {
      this.options.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not publish page status');
    }
  }
}
