import type { Redis } from 'ioredis';
import type { BotMemory, GuardState } from '../engine/engine.ts';
import { chatbotKeys } from '../keys.ts';

/** Beyond a cooldown's end its key stays this long (a moved test clock and Redis's own clock need not agree). */
const GRACE_MS = 60_000;
/** The guard's keys are forgotten a day after their last change. */
const GUARD_TTL_SECONDS = 86_400;

/**
 * A channel bot's memory in Redis (issue 40): cooldowns, !permits and the hate-raid guard, so the
 * replica that takes the channel over goes on where the last one stopped. Each value is an end
 * time on the bot's clock, compared with the bot's `now`; Redis's expiry only clears old keys.
 */
export class RedisBotMemory implements BotMemory {
  constructor(
    private readonly redis: Redis,
    private readonly channelId: string,
  ) {}

  async cooling(keys: readonly string[], now: number): Promise<boolean> {
    if (keys.length === 0) return false;
    const values = await this.redis.mget(...keys.map((k) => chatbotKeys.cooldown(this.channelId, k)));
    return values.some((v) => v !== null && Number(v) > now);
  }

  async cool(entries: readonly { key: string; until: number }[], now: number): Promise<void> {
    if (entries.length === 0) return;
    const multi = this.redis.multi();
    for (const e of entries) multi.set(chatbotKeys.cooldown(this.channelId, e.key), String(e.until), 'PX', Math.max(1, e.until - now) + GRACE_MS);
    await multi.exec();
  }

  async permit(login: string, until: number, now: number): Promise<void> {
    await this.redis.set(chatbotKeys.permit(this.channelId, login), String(until), 'PX', Math.max(1, until - now) + GRACE_MS);
  }

  async permitted(login: string, now: number): Promise<boolean> {
    const until = await this.redis.get(chatbotKeys.permit(this.channelId, login));
    return until !== null && Number(until) >= now;
  }

  async guard(): Promise<GuardState> {
    const h = await this.redis.hgetall(chatbotKeys.guard(this.channelId));
    return { armedUntil: Number(h.armedUntil ?? 0) || 0, activeUntil: Number(h.activeUntil ?? 0) || 0 };
  }

  async setGuard(state: Partial<GuardState>): Promise<void> {
    const key = chatbotKeys.guard(this.channelId);
    const fields = Object.entries(state).flatMap(([k, v]) => [k, String(v)]);
    if (fields.length === 0) return;
    await this.redis
      .multi()
      .hset(key, ...fields)
      .expire(key, GUARD_TTL_SECONDS)
      .exec();
  }

  async firstTimer(entry: { at: number; userId: string; messageId: string }, since: number): Promise<{ userId: string; messageId: string }[]> {
    const key = chatbotKeys.firstTimers(this.channelId);
    const res = await this.redis
      .multi()
      .zremrangebyscore(key, '-inf', `(${since}`)
      .zadd(key, entry.at, `${entry.userId} ${entry.messageId}`)
      .expire(key, GUARD_TTL_SECONDS)
      .zrange(key, 0, -1)
      .exec();
    const members = (res?.[3]?.[1] ?? []) as string[];
    return members.map((m) => {
      const [userId = '', messageId = ''] = m.split(' ');
      return { userId, messageId };
    });
  }

  async clearFirstTimers(): Promise<void> {
    await this.redis.del(chatbotKeys.firstTimers(this.channelId));
  }

  async unpurged(userIds: readonly string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const key = chatbotKeys.purged(this.channelId);
    const multi = this.redis.multi();
    for (const id of userIds) multi.sadd(key, id);
    multi.expire(key, GUARD_TTL_SECONDS);
    const res = await multi.exec();
    return userIds.filter((_, i) => res?.[i]?.[1] === 1);
  }

  async clearPurged(): Promise<void> {
    await this.redis.del(chatbotKeys.purged(this.channelId));
  }
}
