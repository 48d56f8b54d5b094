import type { Redis } from 'ioredis';

// Take the lease if it is free, or extend it if we hold it; never touch someone else's.
const ACQUIRE_OR_RENEW = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/**
 * Leader election among api replicas through one Redis key with a TTL: whoever holds the key
 * leads until it stops renewing. Renew well inside the TTL (every tick, with TTL = 3 ticks) so a
 * slow tick does not hand leadership over; a replica that dies loses it after one TTL.
 */
export class RedisLeaderLease {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    readonly holderId: string,
    private readonly ttlMs: number,
  ) {}

  /** True when this replica leads after the call. */
  async acquireOrRenew(): Promise<boolean> {
    const result = await this.redis.eval(ACQUIRE_OR_RENEW, 1, this.key, this.holderId, String(this.ttlMs));
    return result === 1;
  }

  async release(): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key, this.holderId);
  }

  /** Who leads now, if anyone. */
  async holder(): Promise<string | null> {
    return this.redis.get(this.key);
  }
}
