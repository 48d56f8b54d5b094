import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Job, Worker } from 'bullmq';
import {
  canAdmit,
  failoverRecordSchema,
  PIPELINE_ORPHAN_EXIT_MS,
  queues,
  SESSION_LOCK_MS,
  SESSION_STALLED_CHECK_MS,
  sessionCost,
  sessionKeys,
  sessionOwnerSchema,
  type SessionJob,
  type SessionOwner,
} from '@onair/protocol';
import { BullQueue, WorkerDeaths, type Logger } from '@onair/runtime';
import { readDocument, SessionRunner, type SessionEnd, type SessionRunnerDeps } from './session-runner.ts';

export interface SessionConsumerOptions extends Omit<SessionRunnerDeps, 'logger'> {
  logger: Logger;
  cores: number;
  /** When a session could not be admitted here, how long before looking at the queue again. */
  refusedBackoffMs?: number;
  /**
   * How long a hold on a session lasts without renewal (SESSION_LOCK_MS). Tests make it long, so
   * that only a death notice (WorkerDeaths) can explain a fast take-over, never the lock lapsing.
   */
  lockMs?: number;
}

interface Placed {
  job: Job<SessionJob>;
  token: string;
  runner: SessionRunner;
  cost: number;
  lockTimer: NodeJS.Timeout;
}

const FAILOVER_HISTORY = 100;
/** See the lock timer in place(): this many lock periods without a confirmed extension. */
const LOCK_FENCE_PERIODS = 10;

/**
 * Takes sessions from the `sessions` queue while this worker has room for them. Jobs are fetched
 * by hand (BullMQ's manual mode) so that admission happens before a session starts: a job whose
 * cost does not fit goes straight back to the queue for another worker. A placed session's job
 * stays active, its lock renewed, for as long as the session lives; if this process dies the lock
 * lapses and BullMQ's stalled-job check hands the session to another worker.
 */
export class SessionConsumer {
  /** The `sessions` queue, on connections of its own (BullMQ blocks on one while waiting for jobs). */
  private readonly jobs: BullQueue<SessionJob>;
  private worker: Worker<SessionJob> | null = null;
  private readonly placed = new Map<string, Placed>();
  private running = false;
  private draining = false;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly lockMs: number;
  private readonly deaths: WorkerDeaths;

  constructor(private readonly options: SessionConsumerOptions) {
    this.jobs = new BullQueue(options.redis, queues.sessions);
    this.lockMs = options.lockMs ?? SESSION_LOCK_MS;
    this.deaths = new WorkerDeaths(options.redis);
  }

  get committedCores(): number {
    return [...this.placed.values()].reduce((n, p) => n + p.cost, 0);
  }

  get sessions(): number {
    return this.placed.size;
  }

  /** What the admission model charged for each session placed here (sessionCost at admission), by project. */
  estimates(): Map<string, number> {
    return new Map([...this.placed].map(([projectId, placed]) => [projectId, placed.cost]));
  }

  async start(): Promise<void> {
    this.running = true;
    this.worker = await this.jobs.fetcher({
      lockDuration: this.lockMs,
      stalledInterval: SESSION_STALLED_CHECK_MS,
      // A session may be picked up after many failovers; it is never failed for stalling.
      maxStalledCount: Number.MAX_SAFE_INTEGER,
      drainDelay: 1,
      onError: (err) => this.options.logger.warn({ err: err.message }, 'sessions queue error'),
    });
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
    await this.jobs.close({ force: true });
    await this.loopDone;
    await this.deaths.close();
  }

  private async loop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    while (this.running) {
      if (this.draining) {
        await sleep(200);
        continue;
      }
      const token = `${this.options.workerId}:${randomUUID()}`;
      let job: Job<SessionJob> | undefined;
      try {
        job = (await worker.getNextJob(token, { block: true })) as Job<SessionJob> | undefined;
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
    const parsed = this.jobs.parse(job);
    if (!parsed.ok) {
      // Not retried (it would never parse) and not thrown: a bad job must not end this loop, which places every session here.
      await job.moveToFailed(parsed.error, token, false).catch(() => undefined);
      logger.error({ jobId: job.id, err: parsed.error.message }, 'session job refused: it does not match the sessions queue contract');
      return true;
    }
    const data = parsed.data;
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

    if (this.options.host.session(data.projectId)) {
      // This worker's previous run of the session is still stopping (it lost its lock, and the job
      // came back before its pipeline went). Starting now would fail, and the failure's clean-up
      // would clear the session's live state (its outputs) in Redis: the job waits instead.
      logger.info({ projectId: data.projectId }, 'session still stopping here: taken again later');
      await job.moveToWait(token).catch((err: unknown) => logger.warn({ projectId: data.projectId, err: (err as Error).message }, 'session not handed back'));
      return false;
    }
    const previous = await this.previousOwner(data.projectId);
    await this.fencePrevious(data.projectId, previous);
    const pickups = (job.stalledCounter ?? 0) + (previous ? 1 : 0);
    const runner = new SessionRunner(data.projectId, { ...this.options, logger }, pickups);
    // When the lock was last known to be held: the send time of the last extension Redis took.
    let lockHeldAt = Date.now();
    const lost = (reason: string) => {
      const placed = this.placed.get(data.projectId);
      if (!placed) return;
      logger.error({ projectId: data.projectId, reason }, 'session lock lost; stopping here');
      void this.finish(placed, 'lost');
    };
    const lockTimer = setInterval(() => {
      // The lease fences this worker: cut off from Redis for this long (an unreachable Redis never
      // answers; its commands just queue), another worker has long taken the session, so this one
      // stops publishing without waiting for Redis to say so. Not at the lock's own 3 s: a loaded
      // machine delays this timer and Redis's answers by seconds (seen: 3.2-5.2 s at load 20-40),
      // and a session given up for that stops a healthy broadcast, on a machine where no other
      // worker may even be there to take it. A takeover in between is refused by the platform
      // (one publisher per key) and the new owner's output retries until this one is gone.
      if (Date.now() - lockHeldAt >= LOCK_FENCE_PERIODS * this.lockMs) {
        lost(`no lock extension confirmed for ${Date.now() - lockHeldAt} ms`);
        return;
      }
      const sentAt = Date.now();
      job.extendLock(token, this.lockMs).then(
        (held) => {
          // BullMQ answers 0, without an error, when the token no longer holds the lock: someone
          // else holds the session now (this process was paused past its lock, or a death notice
          // released it, issue 54). It must never stream twice: this is the fence.
          if (held === 1) lockHeldAt = Math.max(lockHeldAt, sentAt);
          else lost('the session lock is held by another token now');
        },
        (err: unknown) => lost((err as Error).message),
      );
    }, Math.min(SESSION_LOCK_MS, this.lockMs) / 4);
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
      await redis
        .multi()
        .lpush(sessionKeys.failovers, JSON.stringify(record))
        .ltrim(sessionKeys.failovers, 0, FAILOVER_HISTORY - 1)
        .exec();
    }
    void runner.ended.then((end) => this.finish(placed, end));
    return true;
  }

  /**
   * A session taken over from another worker publishes only once that worker's pipeline is gone,
   * since RTMP servers take one publisher per key and two would fight over the destination. On
   * this machine the process is looked at (and an orphan that outlived its deadline is ended);
   * elsewhere, the previous owner stopped publishing when its lock lapsed (see the lock timer) and
   * its pipeline process ends within PIPELINE_ORPHAN_EXIT_MS of its worker: that much after the
   * owner was last seen is waited out, unless the owner is known dead (a death notice, issue 54:
   * its pod is gone, and the pipeline processes with it).
   */
  private async fencePrevious(projectId: string, previous: SessionOwner | undefined): Promise<void> {
    if (!previous || previous.workerId === this.options.workerId) return;
    const { logger } = this.options;
    const { pipeline } = previous;
    if (!pipeline) return;
    if (pipeline.host === hostname()) {
      const deadline = Date.now() + PIPELINE_ORPHAN_EXIT_MS;
      while (isPipelineProcess(pipeline.pid) && Date.now() < deadline) await sleep(50);
      if (!isPipelineProcess(pipeline.pid)) return;
      logger.error(
        { projectId, pid: pipeline.pid, previousWorker: previous.workerId },
        "the previous owner's pipeline outlived its worker: ending it before publishing",
      );
      try {
        process.kill(pipeline.pid, 'SIGKILL');
      } catch {
        // Gone in between.
      }
      return;
    }
    const death = await this.deaths.deathOf(previous.workerId);
    if (death) {
      logger.info({ projectId, previousWorker: previous.workerId, cause: death.cause }, 'the previous owner is known dead: publishing at once');
      return;
    }
    const safeAt = Date.parse(previous.lastSeenAt) + this.lockMs + PIPELINE_ORPHAN_EXIT_MS;
    if (Date.now() < safeAt) {
      logger.info({ projectId, waitMs: safeAt - Date.now(), previousWorker: previous.workerId }, "waiting out the previous owner's pipeline before publishing");
      await sleep(safeAt - Date.now());
    }
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

/** Whether `pid` is a living pipeline process (a pid can be reused by anything else). */
function isPipelineProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('pipeline-process') && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
