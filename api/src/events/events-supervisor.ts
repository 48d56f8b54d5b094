import type { Redis } from 'ioredis';
import type { Db, Destination } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import { LeasedReconciler } from '../leases/leased-reconciler.ts';
import type { RedisLease } from '../leases/lease.ts';
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
  private readonly reconciler: LeasedReconciler<{ row: Destination; broadcastId: string }, Running>;

  constructor(
    private readonly deps: {
      config: ApiConfig;
      db: Db;
      redis: Redis;
      logger: Logger;
      accounts: PlatformAccounts;
      store: EventsStore;
      lease: RedisLease;
      clientId: string;
    },
  ) {
    this.reconciler = new LeasedReconciler({
      lease: deps.lease,
      everyMs: deps.config.CHAT_SUPERVISE_MS,
      logger: deps.logger,
      what: 'events supervision',
      parts: {
        wanted: () => this.wanted(),
        matches: (run, wanted) => run.broadcastId === wanted.broadcastId,
        start: (_id, wanted, track) => this.startOne(wanted.row, wanted.broadcastId, track),
        stop: async (destinationId, run, released) => {
          await run.connector.stop().catch(() => undefined);
          this.deps.logger.info({ destinationId, projectId: run.projectId, released }, 'events connector stopped');
        },
        afterRelease: async (destinationId) => {
          await this.deps.redis.del(eventsKeys.state(destinationId)).catch(() => undefined);
        },
      },
    });
  }

  start(): void {
    this.reconciler.start();
  }

  /** Destinations this replica runs an events connector for now. */
  owned(): string[] {
    return this.reconciler.ids();
  }

  /** The connector of a destination, when this replica runs it. */
  connector(destinationId: string): TwitchEventSubConnector | undefined {
    return this.reconciler.get(destinationId)?.connector;
  }

  tick(): Promise<void> {
    return this.reconciler.tick();
  }

  /** The Twitch destinations with a linked account of live broadcasts, with their broadcast. */
  private async wanted(): Promise<Map<string, { row: Destination; broadcastId: string }>> {
    const live = await this.deps.db.broadcast.findMany({ where: { state: { in: ['starting', 'live'] } }, select: { id: true, projectId: true } });
    const broadcastOf = new Map(live.map((b) => [b.projectId, b.id]));
    const rows = broadcastOf.size
      ? await this.deps.db.destination.findMany({
          where: { projectId: { in: [...broadcastOf.keys()] }, enabled: true, type: 'Twitch', accessTokenEnc: { not: null }, platformAccountId: { not: null } },
        })
      : [];
    return new Map(rows.map((row) => [row.id, { row, broadcastId: broadcastOf.get(row.projectId)! }]));
  }

  private startOne(row: Destination, broadcastId: string, track: (run: Running) => void): void {
    const where = { destinationId: row.id, projectId: row.projectId, platform: 'twitch' };
    const connector = new TwitchEventSubConnector({
      destination: { id: row.id, projectId: row.projectId, platformAccountId: row.platformAccountId! },
      config: this.deps.config,
      clientId: this.deps.clientId,
      logger: this.deps.logger,
      tokens: { current: () => this.deps.accounts.chatToken(row.id), refresh: () => this.deps.accounts.refreshChatToken(row.id) },
      onEvents: async (events) => {
        if (this.reconciler.get(row.id)?.connector !== connector) return;
        await this.deps.store.store({ id: row.id, projectId: row.projectId, platform: 'twitch' }, events);
      },
      onState: (state, error) => {
        if (this.reconciler.get(row.id)?.connector !== connector) return;
        this.deps.logger.info({ ...where, state, ...(error ? { reason: error } : {}) }, 'events connector state');
        void this.deps.redis
          .set(eventsKeys.state(row.id), JSON.stringify({ state, ...(error ? { error } : {}) }), 'PX', this.deps.config.CHAT_OWNER_LEASE_MS * 3)
          .catch(() => undefined);
      },
    });
    track({ connector, projectId: row.projectId, broadcastId });
    this.deps.logger.info({ ...where, replicaId: this.deps.lease.holderId }, 'events connector started');
    connector.start();
  }

  async close(): Promise<void> {
    await this.reconciler.close();
  }
}
