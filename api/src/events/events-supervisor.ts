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
  /** The Twitch channel it reads (another channel linked to the destination is a new connector). */
  channelId: string;
}

/**
 * Runs the events connectors this api replica owns, elected as the chat connectors are (one lease
 * per channel in Redis, renewed every CHAT_SUPERVISE_MS, taken over when it lapses): one EventSub
 * session per Twitch channel linked to a project, live or not. A channel is linked by a Twitch
 * destination that holds its tokens, switched on or off: a creator who streams elsewhere keeps a
 * Twitch destination switched off to have its follows, subs and raids in the feed and the alerts
 * (a follow comes between broadcasts too). YouTube's Super Chats, Super Stickers and memberships
 * come through its chat connector's poll, which exists only while a broadcast is live.
 */
export class EventsSupervisor {
  private readonly reconciler: LeasedReconciler<Destination, Running>;

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
        matches: (run, row) => run.channelId === row.platformAccountId,
        start: (_id, row, track) => this.startOne(row, track),
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

  /**
   * The Twitch channels linked to projects, live or not: each Twitch destination holding tokens
   * and its account, one per project and channel (the oldest, when two destinations of a project
   * link the same channel, so each event is read once).
   */
  private async wanted(): Promise<Map<string, Destination>> {
    const rows = await this.deps.db.destination.findMany({
      where: { type: 'Twitch', accessTokenEnc: { not: null }, platformAccountId: { not: null } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    const seen = new Set<string>();
    const wanted = new Map<string, Destination>();
    for (const row of rows) {
      const channel = `${row.projectId}:${row.platformAccountId}`;
      if (seen.has(channel)) continue;
      seen.add(channel);
      wanted.set(row.id, row);
    }
    return wanted;
  }

  private startOne(row: Destination, track: (run: Running) => void): void {
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
    track({ connector, projectId: row.projectId, channelId: row.platformAccountId! });
    this.deps.logger.info({ ...where, replicaId: this.deps.lease.holderId }, 'events connector started');
    connector.start();
  }

  async close(): Promise<void> {
    await this.reconciler.close();
  }
}
