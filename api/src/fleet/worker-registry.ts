import type { Redis } from 'ioredis';
import { workerHeartbeatSchema, workerRegistryKeys, type WorkerHeartbeat, type WorkerKind } from '@onair/protocol';

/**
 * Reads the worker registry that every worker keeps alive in Redis (see @onair/runtime
 * HeartbeatPublisher). A worker whose heartbeat expired is simply absent.
 */
export class WorkerRegistry {
  constructor(private readonly redis: Redis) {}

  async list(kind: WorkerKind): Promise<WorkerHeartbeat[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await this.redis.scan(cursor, 'MATCH', workerRegistryKeys.pattern(kind), 'COUNT', 200);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    if (keys.length === 0) return [];
    const values = await this.redis.mget(...keys);
    const workers: WorkerHeartbeat[] = [];
    for (const value of values) {
      if (value === null) continue;
      const parsed = workerHeartbeatSchema.safeParse(JSON.parse(value));
      if (parsed.success) workers.push(parsed.data);
    }
    return workers.sort((a, b) => a.id.localeCompare(b.id));
  }
}
