import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { fleetKeys } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { loadSample, type LoadHistory } from './load-history.ts';
import { RedisLease } from '../leases/lease.ts';
import type { MediaScaler, ReconcileResult } from './scaler/media-scaler.ts';
import type { SessionQueueStats } from './session-queue-stats.ts';
import type { WorkerRegistry } from './worker-registry.ts';

export interface FleetControllerOptions {
  redis: Redis;
  workers: WorkerRegistry;
  queue: SessionQueueStats;
  logger: Logger;
  tickMs: number;
  /** Present where the api may scale the media workers (Kubernetes); absent on one machine. */
  scaler?: MediaScaler;
  /** This replica's name in the lease; the pod name in Kubernetes. */
  holderId?: string;
  leaseKey?: string;
  history: LoadHistory;
}

export interface TickResult {
  leader: boolean;
  scaled?: ReconcileResult;
}

/**
 * The fleet work that exactly one api replica does: sample the load history and run the
 * media-worker scaler. Every replica ticks; only the holder of the Redis lease acts, and another
 * replica takes over within one lease TTL of the leader dying.
 */
export class FleetController {
  readonly lease: RedisLease;
  readonly history: LoadHistory;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: FleetControllerOptions) {
    // Renewed every tick with a TTL of three, so a slow tick does not hand the lead over.
    const key = options.leaseKey ?? fleetKeys.leader;
    this.lease = new RedisLease(options.redis, options.holderId ?? `${hostname()}-${process.pid}`, options.tickMs * 3, () => key);
    this.history = options.history;
  }

  start(): void {
    const run = () => {
      this.running = this.tick().catch((err: unknown) => this.options.logger.warn({ err: (err as Error).message }, 'fleet tick failed'));
    };
    run();
    this.timer = setInterval(run, this.options.tickMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await this.lease.release();
    await this.options.queue.close();
  }

  async tick(now = new Date()): Promise<TickResult> {
    if (!(await this.lease.hold())) return { leader: false };
    const [media, render, queue] = await Promise.all([
      this.options.workers.list('media'),
      this.options.workers.list('render'),
      this.options.queue.read(now.getTime()),
    ]);
    await this.history.append(loadSample(now, media, render, queue));
    if (!this.options.scaler) return { leader: true };
    // The scaler's failure (API down, RBAC missing) must not stop the sampling above.
    try {
      const scaled = await this.options.scaler.reconcile({ now: now.getTime(), queued: queue.waiting + queue.delayed, mediaWorkers: media });
      return { leader: true, scaled };
    } catch (err) {
      this.options.logger.warn({ err: (err as Error).message }, 'media-worker scaling failed');
      return { leader: true };
    }
  }
}
