import type { Redis } from 'ioredis';
import { FLEET_HISTORY_WINDOW_MS, fleetKeys, fleetLoadSampleSchema, type FleetLoadSample, type FleetQueue, type WorkerHeartbeat } from '@onair/protocol';

/** One point of the load chart from what the registry and the queue say now. */
export function loadSample(at: Date, media: readonly WorkerHeartbeat[], render: readonly WorkerHeartbeat[], queue: FleetQueue): FleetLoadSample {
  const sum = (key: 'cpuCores' | 'cores' | 'sessions' | 'outputs' | 'bitrateKbps') => media.reduce((total, w) => total + w[key], 0);
  return {
    at: at.toISOString(),
    mediaWorkers: media.filter((w) => w.state === 'running').length,
    drainingWorkers: media.filter((w) => w.state === 'draining').length,
    renderWorkers: render.length,
    sessions: sum('sessions'),
    queued: queue.waiting + queue.delayed,
    cpuCores: Math.round(sum('cpuCores') * 100) / 100,
    cores: sum('cores'),
    outputs: sum('outputs'),
    bitrateKbps: Math.round(sum('bitrateKbps')),
  };
}

/**
 * The fleet's load over the last hour: a Redis list, newest first, written by the leading api
 * replica only (so replicas do not add duplicate points) and read by any replica.
 */
export class LoadHistory {
  constructor(
    private readonly redis: Redis,
    private readonly intervalMs: number,
    private readonly key: string = fleetKeys.loadHistory,
  ) {}

  private get capacity(): number {
    return Math.ceil(FLEET_HISTORY_WINDOW_MS / this.intervalMs);
  }

  async append(sample: FleetLoadSample): Promise<void> {
    await this.redis
      .multi()
      .lpush(this.key, JSON.stringify(sample))
      .ltrim(this.key, 0, this.capacity - 1)
      .exec();
  }

  /** Oldest first, within the window. */
  async read(now = Date.now()): Promise<FleetLoadSample[]> {
    const raw = await this.redis.lrange(this.key, 0, this.capacity - 1);
    const samples: FleetLoadSample[] = [];
    for (const item of raw) {
      const parsed = fleetLoadSampleSchema.safeParse(JSON.parse(item));
      if (parsed.success && now - Date.parse(parsed.data.at) <= FLEET_HISTORY_WINDOW_MS) samples.push(parsed.data);
    }
    return samples.reverse();
  }
}
