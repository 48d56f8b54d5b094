import type { Redis } from 'ioredis';
import { pipelineReportSchema, sessionStatusKeys } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { BroadcastService } from './broadcast-service.ts';

const STATUS_PATTERN = sessionStatusKeys.channel('*');
const STATUS_CHANNEL = /^onair:sessions:([0-9a-f-]{36}):status$/;
const EXPIRY_SWEEP_MS = 30_000;
const PADDING_SWEEP_MS = 500;

export interface BroadcastWatchDeps {
  broadcasts: BroadcastService;
  redis: Redis;
  /** A connection of its own (subscriber mode). */
  subscriber: Redis;
  logger: Logger;
  sweepEveryMs?: number;
  /** How often pre-rolls and post-rolls that are over are settled. */
  paddingEveryMs?: number;
}

/**
 * The api's background work for broadcasts. It relays each session's output stats (published by
 * the owning media worker; the session id is the project id) to the studios as `broadcast.health`,
 * and ends broadcasts that reached their plan's stream-duration limit. Every api replica runs one;
 * a short Redis claim per stats report and per sweep makes exactly one replica act on each.
 */
export class BroadcastWatch {
  private readonly timer: NodeJS.Timeout;
  private readonly paddingTimer: NodeJS.Timeout;

  constructor(private readonly deps: BroadcastWatchDeps) {
    deps.subscriber.on('pmessage', (_pattern: string, channel: string, message: string) => {
      this.onStatus(channel, message).catch((err: unknown) => deps.logger.warn({ err: (err as Error).message, channel }, 'session status not relayed'));
    });
    this.timer = setInterval(() => void this.sweep(), deps.sweepEveryMs ?? EXPIRY_SWEEP_MS);
    this.timer.unref();
    this.paddingTimer = setInterval(() => void this.settlePadding(), deps.paddingEveryMs ?? PADDING_SWEEP_MS);
    this.paddingTimer.unref();
  }

  async start(): Promise<void> {
    await this.deps.subscriber.psubscribe(STATUS_PATTERN);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.paddingTimer);
    await this.deps.subscriber.punsubscribe(STATUS_PATTERN).catch(() => undefined);
  }

  private async claim(key: string, ttlMs: number): Promise<boolean> {
    return (await this.deps.redis.set(key, '1', 'PX', ttlMs, 'NX')) === 'OK';
  }

  private async onStatus(channel: string, raw: string): Promise<void> {
    const projectId = STATUS_CHANNEL.exec(channel)?.[1];
    if (!projectId) return;
    const parsed = pipelineReportSchema.safeParse(JSON.parse(raw));
    if (!parsed.success || parsed.data.type !== 'stats') return;
    const { stats } = parsed.data;
    if (!(await this.claim(`onair:broadcasts:relay:${projectId}:${stats.at}`, 10_000))) return;
    await this.deps.broadcasts.onSessionStats(projectId, stats);
  }

  /** Ends the broadcasts past their limit; one replica per sweep. */
  private settling = false;

  /** Pre-rolls and post-rolls that are over (BroadcastService.settlePadding); one run at a time here. */
  async settlePadding(now = new Date()): Promise<number> {
    if (this.settling) return 0;
    this.settling = true;
    try {
      return await this.deps.broadcasts.settlePadding(now);
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, 'padding sweep failed');
      return 0;
    } finally {
      this.settling = false;
    }
  }

  async sweep(now = new Date()): Promise<number> {
    try {
      if (!(await this.claim('onair:broadcasts:expiry-sweep', Math.max(1000, (this.deps.sweepEveryMs ?? EXPIRY_SWEEP_MS) - 1000)))) return 0;
      const ended = await this.deps.broadcasts.endExpired(now);
      if (ended > 0) this.deps.logger.info({ ended }, 'broadcasts ended at their plan limit');
      return ended;
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, 'stream-limit sweep failed');
      return 0;
    }
  }
}
