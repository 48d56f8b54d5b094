import type { Redis } from 'ioredis';
import {
  failoverRecordSchema,
  fleetKeys,
  sessionKeys,
  sessionOwnerSchema,
  sessionStatsSchema,
  sessionStatusKeys,
  type FailedOutput,
  type FailoverRecord,
  type FleetLoadHistory,
  type FleetOverview,
  type FleetWorker,
} from '@onair/protocol';
import type { LoadHistory } from './load-history.ts';
import type { SessionQueueStats } from './session-queue-stats.ts';
import type { WorkerRegistry } from './worker-registry.ts';

/** The dashboard lists this many recent failovers and failed outputs at most. */
const RECENT_FAILOVERS = 20;
const MAX_FAILED_OUTPUTS = 50;

// Only the fields the dashboard needs: owner records gain fields as placement evolves.
const ownerFields = sessionOwnerSchema.pick({ projectId: true, workerId: true, state: true });

/** What the operators' dashboard shows, read from the live state in Redis (nothing here is stored by the api itself). */
export class FleetOverviewReader {
  constructor(
    private readonly redis: Redis,
    private readonly workers: WorkerRegistry,
    private readonly queue: SessionQueueStats,
    private readonly history: LoadHistory,
    private readonly sampleIntervalMs: number,
  ) {}

  async overview(now = new Date()): Promise<FleetOverview> {
    const [media, render, queue, owners, failedOutputs, failovers, leader] = await Promise.all([
      this.workers.list('media'),
      this.workers.list('render'),
      this.queue.read(now.getTime()),
      this.sessionOwners(),
      this.failedOutputs(),
      this.recentFailovers(),
      this.redis.get(fleetKeys.leader),
    ]);
    const workers: FleetWorker[] = [...media, ...render].map((w) => ({ ...w, sessionIds: (owners.get(w.id) ?? []).sort() }));
    return { at: now.toISOString(), workers, queue, failedOutputs, failovers, leader };
  }

  async loadHistory(now = Date.now()): Promise<FleetLoadHistory> {
    return { intervalSeconds: this.sampleIntervalMs / 1000, samples: await this.history.read(now) };
  }

  private async scan(pattern: string): Promise<string[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    return keys;
  }

  private async readJson(keys: string[]): Promise<unknown[]> {
    if (keys.length === 0) return [];
    const values = await this.redis.mget(...keys);
    return values.flatMap((v) => {
      if (v === null) return [];
      try {
        return [JSON.parse(v) as unknown];
      } catch {
        return [];
      }
    });
  }

  /** Worker id → projects whose session it holds. */
  private async sessionOwners(): Promise<Map<string, string[]>> {
    const byWorker = new Map<string, string[]>();
    for (const value of await this.readJson(await this.scan(sessionKeys.owner('*')))) {
      const owner = ownerFields.safeParse(value);
      if (!owner.success || owner.data.state === 'stopped') continue;
      const list = byWorker.get(owner.data.workerId) ?? [];
      list.push(owner.data.projectId);
      byWorker.set(owner.data.workerId, list);
    }
    return byWorker;
  }

  private async failedOutputs(): Promise<FailedOutput[]> {
    const failed: FailedOutput[] = [];
    for (const value of await this.readJson(await this.scan(sessionStatusKeys.stats('*')))) {
      const stats = sessionStatsSchema.safeParse(value);
      if (!stats.success) continue;
      for (const output of stats.data.outputs) {
        if (output.state !== 'failed') continue;
        failed.push({
          sessionId: stats.data.sessionId,
          outputId: output.id,
          state: output.state,
          at: stats.data.at,
          ...(output.errorCode ? { errorCode: output.errorCode } : {}),
        });
      }
    }
    return failed.sort((a, b) => b.at.localeCompare(a.at)).slice(0, MAX_FAILED_OUTPUTS);
  }

  private async recentFailovers(): Promise<FailoverRecord[]> {
    const raw = await this.redis.lrange(sessionKeys.failovers, 0, RECENT_FAILOVERS - 1);
    return raw.flatMap((item) => {
      try {
        const parsed = failoverRecordSchema.safeParse(JSON.parse(item));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
  }
}
