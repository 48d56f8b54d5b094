import { cpus, hostname } from 'node:os';
import type { Redis } from 'ioredis';
import {
  HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_TTL_MS,
  workerHeartbeatSchema,
  workerRegistryKeys,
  type WorkerEvent,
  type WorkerHeartbeat,
  type WorkerKind,
} from '@onair/protocol';
import type { Logger } from './logger.ts';
import { ProcessTreeUsage } from './process-tree.ts';

/** What the worker's own parts report each beat; the heartbeat adds identity and process figures. */
export type WorkerLoad = Pick<WorkerHeartbeat, 'sessions' | 'outputs' | 'pages' | 'bitrateKbps' | 'fps' | 'droppedFrames' | 'sessionLoads'>;

export interface HeartbeatOptions {
  redis: Redis;
  kind: WorkerKind;
  id: string;
  version: string;
  logger: Logger;
  load: () => WorkerLoad;
  intervalMs?: number;
}

/**
 * Registers a worker in Redis and keeps it there: one JSON record per worker, rewritten every
 * interval with a TTL, so a worker killed with -9 disappears from the registry by itself.
 */
export class HeartbeatPublisher {
  private timer: NodeJS.Timeout | undefined;
  private state: 'running' | 'draining' = 'running';
  private readonly startedAt = new Date().toISOString();
  /** The worker with its pipeline processes or browsers: where its work is actually done. */
  private readonly usage = new ProcessTreeUsage();
  private lastBeat: WorkerHeartbeat | undefined;

  constructor(private readonly options: HeartbeatOptions) {}

  get key(): string {
    return workerRegistryKeys.worker(this.options.kind, this.options.id);
  }

  get current(): WorkerHeartbeat | undefined {
    return this.lastBeat;
  }

  async start(): Promise<void> {
    await this.beat();
    await this.announce('started');
    this.timer = setInterval(() => {
      this.beat().catch((err: unknown) => this.options.logger.warn({ err }, 'heartbeat failed'));
    }, this.options.intervalMs ?? HEARTBEAT_INTERVAL_MS);
  }

  /** Marks the worker as draining: it stays registered (so its sessions are visible) but takes no new work. */
  async drain(): Promise<void> {
    this.state = 'draining';
    await this.beat();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.options.redis.del(this.key);
    await this.announce('stopped');
  }

  private sample(): WorkerHeartbeat {
    const usage = this.usage.sample();
    return workerHeartbeatSchema.parse({
      id: this.options.id,
      kind: this.options.kind,
      host: hostname(),
      pid: process.pid,
      version: this.options.version,
      node: process.versions.node,
      startedAt: this.startedAt,
      sentAt: new Date().toISOString(),
      state: this.state,
      // In a container os.cpus() counts the node's cores; WORKER_CORES carries the pod's CPU limit.
      cores: Number(process.env.WORKER_CORES) || cpus().length,
      cpuCores: usage.cpuCores,
      rssBytes: usage.rssBytes,
      ...this.options.load(),
    });
  }

  private async beat(): Promise<void> {
    const beat = this.sample();
    this.lastBeat = beat;
    await this.options.redis.set(this.key, JSON.stringify(beat), 'PX', HEARTBEAT_TTL_MS);
  }

  private async announce(type: WorkerEvent['type']): Promise<void> {
    const event: WorkerEvent = { type, kind: this.options.kind, id: this.options.id, at: new Date().toISOString() };
    await this.options.redis.publish(workerRegistryKeys.events, JSON.stringify(event));
  }
}
