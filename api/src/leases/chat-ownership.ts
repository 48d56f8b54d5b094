import type { Redis } from 'ioredis';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * One owner per channel's connector across api replicas: a Redis lease per destination, taken with
 * SET NX PX and renewed only by its holder (compare-and-extend in Lua). A replica that dies stops
 * renewing; its leases lapse after CHAT_OWNER_LEASE_MS and the next replica to look takes them.
 */
export class ChatOwnership {
  constructor(
    private readonly redis: Redis,
    readonly replicaId: string,
    private readonly leaseMs: number,
    /** Where each lease is kept (the chat, events and chatbot connectors keep theirs apart). */
    private readonly keyOf: (id: string) => string,
  ) {}

  /** Renews this replica's lease, or takes a free one; false when another replica holds it. */
  async hold(destinationId: string): Promise<boolean> {
    const key = this.keyOf(destinationId);
    if (Number(await this.redis.eval(RENEW, 1, key, this.replicaId, String(this.leaseMs))) === 1) return true;
    return (await this.redis.set(key, this.replicaId, 'PX', this.leaseMs, 'NX')) === 'OK';
  }

  async release(destinationId: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.keyOf(destinationId), this.replicaId);
  }

  async owner(destinationId: string): Promise<string | null> {
    return this.redis.get(this.keyOf(destinationId));
  }
}
