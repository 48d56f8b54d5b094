import type { Redis } from 'ioredis';
import type { Db, Destination } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import type { ChatOwnership } from '../leases/chat-ownership.ts';
import type { PlatformAccounts } from '../destinations/platform-accounts.ts';
import { TwitchEventSubConnector } from './eventsub-connector.ts';
import type { EventsStore } from './events-store.ts';

export const eventsKeys = {
  owner: (destinationId: string) => `onair:events:owner:${destinationId}`,
  state: (destinationId: string) => `onair:events:state:${destinationId}`,
} as const;

interface Running {
  connector: TwitchEventSubConnector;
  projectId: string;
  broadcastId: string;
}

/**
 * Runs the events connectors this api replica owns, elected as the chat connectors are (one lease
 * per channel in Redis, renewed every CHAT_SUPERVISE_MS, taken over when it lapses): one EventSub
 * session per Twitch destination of a live broadcast that has a linked account. YouTube's Super
 * Chats, Super Stickers and memberships come through its chat connector's poll.
 */
export class EventsSupervisor {
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly deps: { config: ApiConfig; db: Db; redis: Redis; logger: Logger; accounts: PlatformAccounts; store: EventsStore; ownership: ChatOwnership; clientId: string },
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.ticking = this.ticking.then(() => this.tick()).catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message }, 'events supervision failed'));
    }, this.deps.config.CHAT_SUPERVISE_MS);
    this.timer.unref();
  }

  /** Destinations this replica runs an events connector for now. */
  owned(): string[] {
    return [...this.running.keys()];
  }

  /** The connector of a destination, when this replica runs it. */
  connector(destinationId: string): TwitchEventSubConnector | undefined {
    return this.running.get(destinationId)?.connector;
  }

  async tick(): Promise<void> {
    if (this.closed) return;
    const live = await this.deps.db.broadcast.findMany({ where: { state: { in: ['starting', 'live'] } }, select: { id: true, projectId: true } });
    const broadcastOf = new Map(live.map((b) => [b.projectId, b.id]));
    const rows = broadcastOf.size
      ? await this.deps.db.destination.findMany({
          where: { projectId: { in: [...broadcastOf.keys()] }, enabled: true, type: 'Twitch', accessTokenEnc: { not: null }, platformAccountId: { not: null } },
        })
      : [];
    const wanted = new Map(rows.map((r) => [r.id, r]));
    for (const [id, run] of this.running) {
      const row = wanted.get(id);
      if (!row || broadcastOf.get(row.projectId) !== run.broadcastId) await this.stopOne(id, true);
    }
    for (const row of rows) {
      if (this.closed) return;
      const held = await this.deps.ownership.hold(row.id);
      const run = this.running.get(row.id);
      if (!held) {
        if (run) await this.stopOne(row.id, false);
        continue;
      }
      if (!run) this.startOne(row, broadcastOf.get(row.projectId)!);
    }
  }

  private startOne(row: Destination, broadcastId: string): void {
    const where = { destinationId: row.id, projectId: row.projectId, platform: 'twitch' };
    const connector = new TwitchEventSubConnector({
      destination: { id: row.id, projectId: row.projectId, platformAccountId: row.platformAccountId! },
      config: this.deps.config,
      clientId: this.deps.clientId,
      logger: this.deps.logger,
      tokens: { current: () => this.deps.accounts.chatToken(row.id), refresh: () => this.deps.accounts.refreshChatToken(row.id) },
      onEvents: async (events) => {
        if (this.running.get(row.id)?.connector !== connector) return;
        await this.deps.store.store({ id: row.id, projectId: row.projectId, platform: 'twitch' }, events);
      },
      onState: (state, error) => {
        if (this.running.get(row.id)?.connector !== connector) return;
        this.deps.logger.info({ ...where, state, ...(error ? { reason: error } : {}) }, 'events connector state');
        void this.deps.redis
          .set(eventsKeys.state(row.id), JSON.stringify({ state, ...(error ? { error } : {}) }), 'PX', this.deps.config.CHAT_OWNER_LEASE_MS * 3)
          .catch(() => undefined);
      },
    });
    this.running.set(row.id, { connector, projectId: row.projectId, broadcastId });
    this.deps.logger.info({ ...where, replicaId: this.deps.ownership.replicaId }, 'events connector started');
    connector.start();
  }

  private async stopOne(destinationId: string, release: boolean): Promise<void> {
    const run = this.running.get(destinationId);
    if (!run) return;
    this.running.delete(destinationId);
    await run.connector.stop().catch(() => undefined);
    this.deps.logger.info({ destinationId, projectId: run.projectId, released: release }, 'events connector stopped');
    if (release) {
      await this.deps.ownership.release(destinationId).catch(() => undefined);
      await this.deps.redis.del(eventsKeys.state(destinationId)).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking.catch(() => undefined);
    for (const id of [...this.running.keys()]) await this.stopOne(id, true);
  }
}
