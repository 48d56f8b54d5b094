import type { Redis } from 'ioredis';

// Take the lease if it is free, or extend it if this holder has it; never touch someone else's.
const HOLD = `
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
 * The api's one lease: a Redis key per leased thing holding its holder's id, with a TTL. It is
 * taken when free and renewed only by its holder, in one Lua script; a holder that dies stops
 * renewing, and the lease lapses after `ttlMs`. The fleet's leader is a lease on one key (the id
 * left out); the chat, events and chatbot connectors hold one per destination or channel.
 * Renew well inside the TTL, so a slow round does not hand the lease over.
 */
export class RedisLease {
  constructor(
    private readonly redis: Redis,
    /** This replica's name in the lease (the pod name in Kubernetes). */
    readonly holderId: string,
    private readonly ttlMs: number,
    /** Where the lease of each id is kept. */
    private readonly keyOf: (id: string) => string,
  ) {}

  /** Renews this holder's lease, or takes a free one; false when another holder has it. */
  async hold(id = ''): Promise<boolean> {
    return (await this.redis.eval(HOLD, 1, this.keyOf(id), this.holderId, String(this.ttlMs))) === 1;
  }

  /** Gives the lease back (only this holder's: another's is left alone). */
  async release(id = ''): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.keyOf(id), this.holderId);
  }

  /** Who holds it now, if anyone. */
  async holder(id = ''): Promise<string | null> {
    return this.redis.get(this.keyOf(id));
  }
}
