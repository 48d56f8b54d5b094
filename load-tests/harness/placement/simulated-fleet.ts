// A fleet of simulated media workers placing studio sessions through BullMQ on a real Redis, to
// measure placement latency and failover time at a scale one machine cannot run for real.
//
// STATUS: built on BullMQ directly, mirroring the placement design of the media worker
// (media-worker/src/placement/session-consumer.ts): the `sessions` queue's name (protocol queues.ts), jobs
// fetched by hand one at a time, admission before a session starts (a refused job goes back to
// the queue), the job held active with its lock extended for as long as the session lives, and
// stalled-job recovery (SESSION_LOCK_MS, SESSION_STALLED_CHECK_MS) as the failover path. Admission
// is pluggable (`AdmitFn`); it defaults to the protocol's `canAdmit`, the decision the media
// worker's SessionConsumer makes today (with the session's cost carried in the job instead of read
// from its scene document). If admission grows beyond that function, pass the new one here.
//
// What is simulated: the pipeline (a session costs its cores and does nothing), and the kill -9
// (a killed worker stops renewing its locks and drops its Redis connections without touching its
// jobs, which is what the queue sees of a dead process).
//
// With `podWatch`, the workers are pods of a Kubernetes API double and a killed worker's pod is
// deleted: the api's death notice (runtime's PodDeathWatch on @kubernetes/client-node, then
// WorkerDeaths) sees the pod gone and releases its sessions at once (issue 54), the same code the
// api runs against a cluster. Without it, the killed worker's sessions wait for their locks.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Job, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { canAdmit, defineQueue, queues, SESSION_LOCK_MS, SESSION_STALLED_CHECK_MS } from '@onair/protocol';
import { BullQueue, createLogger, WorkerDeaths } from '@onair/runtime';
import { PodDeathWatch } from '@onair/runtime/pod-deaths';
import { KubernetesDouble } from './kubernetes-double.ts';

/** The label of the simulated media-worker pods (the Deployment's selector in k8s/base/media-worker.yaml). */
const POD_LABELS = { 'app.kubernetes.io/name': 'onair-media-worker' };

/** What a harness session job carries: enough to admit it and to time it. */
const harnessSessionSchema = z.object({
  projectId: z.string(),
  /** When it was asked for (ms since epoch). */
  requestedAt: z.number(),
  /** Cores it costs (from the protocol's cost model for its scene). */
  cost: z.number(),
});
export type HarnessSession = z.infer<typeof harnessSessionSchema>;
/** The real queue's name, with the harness's own payload (its prefix keeps it apart from real sessions). */
const harnessSessionsQueue = defineQueue(queues.sessions.name, harnessSessionSchema);

export interface WorkerCapacity {
  id: string;
  cores: number;
  committedCores: number;
  sessions: number;
}

/** Whether a worker takes a session; may be async (the real admission reads Redis). */
export type AdmitFn = (worker: WorkerCapacity, session: HarnessSession) => boolean | Promise<boolean>;

export const costModelAdmission: AdmitFn = (worker, session) => canAdmit(worker.cores, worker.committedCores, session.cost);

export interface Placement {
  projectId: string;
  workerId: string;
  /** From the request (or from the kill, for a failover) to admission on a worker. */
  latencyMs: number;
  at: number;
  pickup: boolean;
}

interface Held {
  job: Job<HarnessSession>;
  token: string;
  cost: number;
  lockTimer: NodeJS.Timeout;
}

export interface SimulatedFleetOptions {
  redisUrl: string;
  workers: number;
  coresPerWorker: number;
  admit?: AdmitFn;
  /** BullMQ key prefix: a private one per run keeps the harness away from a real fleet's queue. */
  prefix?: string;
  lockMs?: number;
  stalledCheckMs?: number;
  /** How long a worker waits after refusing a session before fetching again. */
  refusedBackoffMs?: number;
  /** Workers are pods of a Kubernetes API double, watched for deaths by the api's PodDeathWatch (see above). */
  podWatch?: boolean;
}

/** A death notice the pod watch sent: the sessions it released, and when (ms since epoch). */
export interface DeathNotice {
  workerId: string;
  released: string[];
  at: number;
}

class SimulatedWorker {
  readonly held = new Map<string, Held>();
  /** As the media worker's SessionConsumer: the sessions queue in manual mode, on connections of its own. */
  private readonly jobs: BullQueue<HarnessSession>;
  private worker: Worker<HarnessSession> | null = null;
  private running = true;
  private loopDone: Promise<void> = Promise.resolve();
  killed = false;

  constructor(
    readonly id: string,
    private readonly fleet: SimulatedFleet,
    private readonly options: Required<Omit<SimulatedFleetOptions, 'workers' | 'podWatch'>>,
  ) {
    this.jobs = new BullQueue(fleet.redis, harnessSessionsQueue, { prefix: options.prefix });
  }

  get capacity(): WorkerCapacity {
    const committedCores = [...this.held.values()].reduce((n, h) => n + h.cost, 0);
    return { id: this.id, cores: this.options.coresPerWorker, committedCores, sessions: this.held.size };
  }

  async start(): Promise<void> {
    this.worker = await this.jobs.fetcher({
      lockDuration: this.options.lockMs,
      stalledInterval: this.options.stalledCheckMs,
      maxStalledCount: Number.MAX_SAFE_INTEGER,
      drainDelay: 1,
      // A killed worker's connections are cut on purpose; what it says then is noise.
      onError: () => undefined,
    });
    this.loopDone = this.loop(this.worker);
  }

  private async loop(worker: Worker<HarnessSession>): Promise<void> {
    while (this.running) {
      const token = `${this.id}:${randomUUID()}`;
      let job: Job<HarnessSession> | undefined;
      try {
        job = (await worker.getNextJob(token, { block: true })) as Job<HarnessSession> | undefined;
      } catch {
        if (this.running) await sleep(100);
        continue;
      }
      if (!job || !this.running) continue;
      const session = job.data;
      if (!(await this.options.admit(this.capacity, session))) {
        await job.moveToWait(token).catch(() => undefined);
        await sleep(this.options.refusedBackoffMs);
        continue;
      }
      const lockTimer = setInterval(() => {
        job.extendLock(token, this.options.lockMs).catch(() => undefined);
      }, this.options.lockMs / 4);
      this.held.set(session.projectId, { job, token, cost: session.cost, lockTimer });
      this.fleet.placed(session, this.id, (job.stalledCounter ?? 0) > 0);
    }
  }

  /** kill -9 as the queue sees it: locks stop being renewed, connections drop, jobs stay where they are. */
  async kill(): Promise<string[]> {
    this.killed = true;
    this.running = false;
    const lost = [...this.held.keys()];
    for (const h of this.held.values()) clearInterval(h.lockTimer);
    this.held.clear();
    // Force-close without waiting for anything; the blocking fetch is cut with its connection.
    await this.jobs.close({ force: true }).catch(() => undefined);
    return lost;
  }

  /** The end of the run: sessions end normally and the worker leaves. */
  async stop(): Promise<void> {
    this.running = false;
    for (const h of this.held.values()) {
      clearInterval(h.lockTimer);
      await h.job.moveToCompleted('ended', h.token, false).catch(() => undefined);
    }
    this.held.clear();
    await this.jobs.close({ force: true }).catch(() => undefined);
    await this.loopDone;
  }
}

/**
 * N simulated workers on one queue. Sessions are asked for with `request`; every admission is
 * recorded as a `Placement`. `kill` takes workers down like kill -9 and times the pick-ups of
 * their sessions from the moment of the kill.
 */
export class SimulatedFleet {
  readonly placements: Placement[] = [];
  readonly prefix: string;
  private readonly workers: SimulatedWorker[] = [];
  private readonly jobs: BullQueue<HarnessSession>;
  readonly redis: Redis;
  private readonly killedAt = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  readonly notices: DeathNotice[] = [];
  private readonly kubernetes: KubernetesDouble | undefined;
  private readonly deaths: WorkerDeaths | undefined;
  private podWatch: PodDeathWatch | undefined;

  constructor(private readonly options: SimulatedFleetOptions) {
    this.prefix = options.prefix ?? `onair-harness-${randomBytes(4).toString('hex')}`;
    this.redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    this.jobs = new BullQueue(this.redis, harnessSessionsQueue, { prefix: this.prefix, connection: 'shared' });
    const full = {
      redisUrl: options.redisUrl,
      coresPerWorker: options.coresPerWorker,
      admit: options.admit ?? costModelAdmission,
      prefix: this.prefix,
      lockMs: options.lockMs ?? SESSION_LOCK_MS,
      stalledCheckMs: options.stalledCheckMs ?? SESSION_STALLED_CHECK_MS,
      // As the media worker's SessionConsumer: a worker that refused waits a second before fetching again.
      refusedBackoffMs: options.refusedBackoffMs ?? 1000,
    };
    for (let i = 0; i < options.workers; i++) this.workers.push(new SimulatedWorker(`sim-media-${i}`, this, full));
    if (options.podWatch) {
      this.kubernetes = new KubernetesDouble();
      this.deaths = new WorkerDeaths(this.redis, { prefix: this.prefix });
    }
  }

  async start(): Promise<void> {
    if (this.kubernetes && this.deaths) {
      await this.kubernetes.start();
      for (const w of this.workers) this.kubernetes.addPod(w.id, POD_LABELS);
      this.podWatch = new PodDeathWatch({
        kubeConfig: this.kubernetes.kubeConfig(),
        namespace: this.kubernetes.namespace,
        labelSelector: Object.entries(POD_LABELS)
          .map(([k, v]) => `${k}=${v}`)
          .join(','),
        deaths: this.deaths,
        logger: createLogger('pod-watch', 'warn'),
        onNotice: (workerId, released) => {
          this.notices.push({ workerId, released, at: Date.now() });
          for (const wake of this.waiters) wake();
        },
      });
      await this.podWatch.start();
    }
    await Promise.all(this.workers.map((w) => w.start()));
  }

  async request(cost: number): Promise<string> {
    const projectId = randomUUID();
    await this.jobs.add('session', { projectId, requestedAt: Date.now(), cost }, { jobId: projectId, removeOnComplete: true, removeOnFail: true });
    return projectId;
  }

  /** Called by a worker that admitted a session. */
  placed(session: HarnessSession, workerId: string, pickup: boolean): void {
    const now = Date.now();
    const killedAt = this.killedAt.get(session.projectId);
    // A session released by a death notice comes back without a stall (its job was moved, not
    // found stalled): that it was lost in a kill says it is a pick-up.
    const pickedUp = pickup || killedAt !== undefined;
    const from = pickedUp && killedAt !== undefined ? killedAt : session.requestedAt;
    this.placements.push({ projectId: session.projectId, workerId, latencyMs: now - from, at: now, pickup: pickedUp });
    if (killedAt !== undefined) this.killedAt.delete(session.projectId);
    for (const wake of this.waiters) wake();
  }

  /** Live sessions per worker id (killed workers excluded). */
  sessionsPerWorker(): Map<string, number> {
    return new Map(this.workers.filter((w) => !w.killed).map((w) => [w.id, w.held.size]));
  }

  /** Kills the `count` live workers holding the most sessions; returns the sessions they held. */
  async kill(count: number): Promise<{ workers: string[]; sessions: string[]; at: number }> {
    const victims = this.workers
      .filter((w) => !w.killed)
      .sort((a, b) => b.held.size - a.held.size)
      .slice(0, count);
    const at = Date.now();
    const sessions: string[] = [];
    for (const w of victims) {
      const lost = await w.kill();
      for (const projectId of lost) this.killedAt.set(projectId, at);
      sessions.push(...lost);
      // What Kubernetes reports of a killed worker's pod: gone.
      this.kubernetes?.deletePod(w.id);
    }
    return { workers: victims.map((w) => w.id), sessions, at };
  }

  /** Resolves when `predicate` holds, or rejects at the deadline. */
  async until(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, 200));
        this.waiters.add(wake);
      });
    }
  }

  async queueCounts(): Promise<Record<string, number>> {
    return this.jobs.queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
  }

  /** Stops every worker, deletes the run's queue and closes connections. */
  async close(): Promise<void> {
    await this.podWatch?.stop();
    await this.kubernetes?.stop();
    await Promise.all(this.workers.filter((w) => !w.killed).map((w) => w.stop()));
    await this.jobs.queue.obliterate({ force: true }).catch(() => undefined);
    await this.jobs.close();
    this.redis.disconnect();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
