import { randomUUID } from 'node:crypto';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  canAdmit,
  failoverRecordSchema,
  SESSION_LOCK_MS,
  SESSION_STALLED_CHECK_MS,
  sessionCost,
  sessionJobSchema,
  sessionKeys,
  sessionOwnerSchema,
  SESSIONS_QUEUE,
  type SessionJob,
} from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { readDocument, SessionRunner, type SessionEnd, type SessionRunnerDeps } from './session-runner.ts';

export interface SessionConsumerOptions extends Omit<SessionRunnerDeps, 'logger'> {
  /** A dedicated connection: BullMQ blocks on it while waiting for jobs. */
  connection: Redis;
  logger: Logger;
  cores: number;
  /** When a session could not be admitted here, how long before looking at the queue again. */
  refusedBackoffMs?: number;
}

interface Placed {
  job: Job<SessionJob>;
  token: string;
  runner: SessionRunner;
  cost: number;
  lockTimer: NodeJS.Timeout;
}

const FAILOVER_HISTORY = 100;

/**
 * Takes sessions from the `sessions` queue while this worker has room for them. Jobs are fetched
 * by hand (BullMQ's manual mode) so that admission happens before a session starts: a job whose
 * cost does not fit goes straight back to the queue for another worker. A placed session's job
 * stays active, its lock renewed, for as long as the session lives; if this process dies the lock
 * lapses and BullMQ's stalled-job check hands the session to another worker.
 */
export class SessionConsumer {
  private readonly worker: Worker<SessionJob>;
  private readonly placed = new Map<string, Placed>();
  private running = false;
  private draining = false;
  private loopDone: Promise<void> = Promise.resolve();

  constructor(private readonly options: SessionConsumerOptions) {
    this.worker = new Worker<SessionJob>(SESSIONS_QUEUE, null, {
      connection: options.connection,
      autorun: false,
      lockDuration: SESSION_LOCK_MS,
      stalledInterval: SESSION_STALLED_CHECK_MS,
      // A session may be picked up after many failovers; it is never failed for stalling.
      maxStalledCount: Number.MAX_SAFE_INTEGER,
      drainDelay: 1,
    });
    this.worker.on('error', (err) => options.logger.warn({ err: err.message }, 'sessions queue error'));
  }

  get committedCores(): number {
    return [...this.placed.values()].reduce((n, p) => n + p.cost, 0);
  }

  get sessions(): number {
    return this.placed.size;
  }

  async start(): Promise<void> {
    this.running = true;
    await this.worker.startStalledCheckTimer();
    this.loopDone = this.loop();
  }

  /**
   * Stops taking sessions. A session that is not live (no destination) goes at once: with nobody in
   * it, it ends; with someone in it, it is handed back to the queue and their studio reconnects to
   * whichever worker takes it. Live sessions run until they end; after `graceMs` the rest are handed
   * back too (their pipelines stop here and another worker starts them). With `handOver` false (one
   * worker on one machine, where no other worker would take them) sessions end instead; a studio
   * still open opens its session again when it rejoins.
   */
  async drain(graceMs: number, handOver = true): Promise<void> {
    this.draining = true;
    const away = (placed: Placed): SessionEnd => (handOver && placed.runner.occupied ? 'handed-over' : 'stopped');
    const deadline = Date.now() + graceMs;
    for (;;) {
      for (const placed of [...this.placed.values()]) if (!placed.runner.live) await this.finish(placed, away(placed));
      if (this.placed.size === 0 || Date.now() >= deadline) break;
      await sleep(Math.min(500, Math.max(1, deadline - Date.now())));
    }
    for (const placed of [...this.placed.values()]) await this.finish(placed, handOver ? 'handed-over' : 'stopped');
  }

  async close(): Promise<void> {
    this.running = false;
    this.draining = true;
    await this.worker.close(true);
    await this.loopDone;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      if (this.draining) {
        await sleep(200);
        continue;
      }
      const token = `${this.options.workerId}:${randomUUID()}`;
      let job: Job<SessionJob> | undefined;
      try {
        job = (await this.worker.getNextJob(token, { block: true })) as Job<SessionJob> | undefined;
      } catch (err) {
        if (this.running) this.options.logger.warn({ err: (err as Error).message }, 'fetching a session failed');
        await sleep(500);
        continue;
      }
      if (!job) continue;
      if (this.draining || !this.running) {
        await job.moveToWait(token).catch(() => undefined);
        continue;
      }
      const admitted = await this.place(job, token);
      if (!admitted) await sleep(this.options.refusedBackoffMs ?? 1000);
    }
  }

  private async place(job: Job<SessionJob>, token: string): Promise<boolean> {
    const { logger, redis } = this.options;
    const data = sessionJobSchema.parse(job.data);
    const document = await readDocument(redis, data.projectId);
    if (!document) {
      await job.moveToFailed(new Error('no scene document snapshot for this project'), token, false);
      logger.warn({ projectId: data.projectId }, 'session refused: no scene document');
      return true;
    }
    const cost = sessionCost(document, { vertical: data.vertical === true });
    if (!canAdmit(this.options.cores, this.committedCores, cost)) {
      logger.info({ projectId: data.projectId, cost, committed: this.committedCores }, 'session left for another worker (no capacity)');
      // The lock can be gone already (the job was taken back as stalled): that must not end the process and every session on it.
      await job.moveToWait(token).catch((err: unknown) => logger.warn({ projectId: data.projectId, err: (err as Error).message }, 'session not handed back'));
      return false;
    }

    const previous = await this.previousOwner(data.projectId);
    const pickups = (job.stalledCounter ?? 0) + (previous ? 1 : 0);
    const runner = new SessionRunner(data.projectId, { ...this.options, logger }, pickups);
    const lockTimer = setInterval(() => {
      job.extendLock(token, SESSION_LOCK_MS).catch((err: unknown) => {
        // Someone else holds the session now (this process was paused past its lock): never stream twice.
        logger.error({ projectId: data.projectId, err: (err as Error).message }, 'session lock lost; stopping here');
        const placed = this.placed.get(data.projectId);
        if (placed) void this.finish(placed, 'lost');
      });
    }, SESSION_LOCK_MS / 4);
    const placed: Placed = { job, token, runner, cost, lockTimer };
    this.placed.set(data.projectId, placed);
    try {
      await runner.start();
    } catch (err) {
      clearInterval(lockTimer);
      this.placed.delete(data.projectId);
      await runner.stop('stopped').catch(() => undefined);
      await job.moveToFailed(err as Error, token, false).catch(() => undefined);
      logger.error({ projectId: data.projectId, err: (err as Error).message }, 'session failed to start');
      return true;
    }
    logger.info({ projectId: data.projectId, cost, placementMs: Date.now() - Date.parse(data.requestedAt), pickups }, 'session placed');
    if (previous && previous.workerId !== this.options.workerId) {
      const record = failoverRecordSchema.parse({
        projectId: data.projectId,
        fromWorkerId: previous.workerId,
        toWorkerId: this.options.workerId,
        at: new Date().toISOString(),
        gapMs: Date.now() - Date.parse(previous.lastSeenAt),
      });
      await redis.multi().lpush(sessionKeys.failovers, JSON.stringify(record)).ltrim(sessionKeys.failovers, 0, FAILOVER_HISTORY - 1).exec();
    }
    void runner.ended.then((end) => this.finish(placed, end));
    return true;
  }

  private async previousOwner(projectId: string) {
    const raw = await this.options.redis.get(sessionKeys.owner(projectId));
    if (raw === null) return undefined;
    const parsed = sessionOwnerSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }

  private async finish(placed: Placed, end: SessionEnd): Promise<void> {
    const projectId = placed.runner.projectId;
    if (this.placed.get(projectId) !== placed) return;
    this.placed.delete(projectId);
    // The job's lock is kept up until the job is moved: a pipeline can take longer to stop than the
    // lock lasts (3 s; 12 s seen on a loaded machine), and a job whose lock ran out can be neither
    // completed nor handed back ('Missing lock'): it stayed active, for the stalled check to queue
    // again a session that had ended.
    try {
      await placed.runner.stop(end).catch((err: unknown) => this.options.logger.warn({ err, projectId }, 'session did not stop cleanly'));
      if (end === 'stopped') await placed.job.moveToCompleted('stopped', placed.token, false);
      else if (end === 'handed-over') await placed.job.moveToWait(placed.token);
    } catch (err) {
      this.options.logger.warn({ projectId, err: (err as Error).message }, 'session job could not be moved');
    } finally {
      clearInterval(placed.lockTimer);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
