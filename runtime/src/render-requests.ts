import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { queues, RENDER_LEASE_MS, renderKeys, type RenderCommand, type RenderJob, type RenderPage } from '@onair/protocol';
import { BullQueue } from './bull-queue.ts';

const RENEW_IF_OURS = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/**
 * The session's side of the render contract (protocol/src/render/render-job.ts): ask for a page,
 * change it, stop it, and keep the requests' leases renewed while the session lives. Shared here
 * because two apps use it: the media worker's sessions, and the render worker's tests, which drive
 * the render worker exactly as a session does.
 */
export class RenderRequests {
  private readonly jobs: BullQueue<RenderJob>;
  /** renderId → job id of the requests this session holds, renewed until stopped. */
  private readonly held = new Map<string, string>();
  private readonly renewTimer: NodeJS.Timeout;

  constructor(
    /** A BullMQ-capable connection (maxRetriesPerRequest: null). */
    connection: Redis,
    private readonly redis: Redis,
    prefix = 'bull',
    private readonly leaseMs = RENDER_LEASE_MS,
  ) {
    this.jobs = new BullQueue(connection, queues.renders, { prefix, connection: 'shared' });
    this.renewTimer = setInterval(() => void this.renew(), Math.floor(leaseMs / 3));
    this.renewTimer.unref();
  }

  /** Asks for a page; replaces any earlier request for the same render id. Returns the job id. */
  async request(job: RenderJob): Promise<string> {
    const data = queues.renders.schema.parse(job);
    const jobId = `${data.renderId}.${randomUUID()}`;
    const previous = await this.redis.get(renderKeys.current(data.renderId));
    await this.redis.set(renderKeys.current(data.renderId), jobId, 'PX', this.leaseMs);
    this.held.set(data.renderId, jobId);
    if (previous) await this.publish({ type: 'stop', renderId: data.renderId });
    await this.jobs.add('render', data, { jobId, removeOnComplete: true, removeOnFail: 100 });
    return jobId;
  }

  /** A new url reloads the page, a new size re-creates it. */
  async update(renderId: string, page: RenderPage): Promise<void> {
    const jobId = await this.redis.get(renderKeys.current(renderId));
    if (!jobId) return;
    const job = await this.jobs.queue.getJob(jobId);
    if (job) await this.jobs.updateData(job, { ...job.data, page });
    await this.publish({ type: 'update', renderId, page });
  }

  async stop(renderId: string): Promise<void> {
    const jobId = await this.redis.get(renderKeys.current(renderId));
    this.held.delete(renderId);
    await this.redis.del(renderKeys.current(renderId));
    await this.publish({ type: 'stop', renderId });
    if (jobId) {
      // A job nobody took yet just goes; a running one ends on the command (or the next reconcile).
      const job = await this.jobs.queue.getJob(jobId);
      if (job && (await job.isWaiting())) await job.remove().catch(() => undefined);
    }
  }

  /** Stops renewing (the pages stop when their leases run out unless stopped before). */
  async close(): Promise<void> {
    clearInterval(this.renewTimer);
    await this.jobs.close();
  }

  private async renew(): Promise<void> {
    for (const [renderId, jobId] of this.held) {
      // Renew only our own request: a newer one for the same render belongs to someone else.
      await this.redis.eval(RENEW_IF_OURS, 1, renderKeys.current(renderId), jobId, String(this.leaseMs)).catch(() => undefined);
    }
  }

  /** Removes the queue and everything in it (tests). */
  async obliterate(): Promise<void> {
    await this.jobs.queue.obliterate({ force: true });
  }

  private async publish(command: RenderCommand): Promise<void> {
    await this.redis.publish(renderKeys.commands, JSON.stringify(command));
  }
}
