import type { Redis } from 'ioredis';
import type { Db, Destination } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import { LeasedReconciler } from '../leases/leased-reconciler.ts';
import type { RedisLease } from '../leases/lease.ts';
import type { PlatformAccounts } from '../destinations/platform-accounts.ts';
import { facebookSettingsSchema, type EventPlatform } from '@onair/protocol';
import { TwitchEventSubConnector } from './eventsub-connector.ts';
import type { EventsStore } from './events-store.ts';
import { FacebookReactionsConnector } from './facebook-reactions.ts';
import type { InboundEvent } from '../platforms/inbound.ts';

export const eventsKeys = {
  owner: (destinationId: string) => `onair:events:owner:${destinationId}`,
  state: (destinationId: string) => `onair:events:state:${destinationId}`,
} as const;

interface Running {
  connector: TwitchEventSubConnector | FacebookReactionsConnector;
  projectId: string;
  /** What it reads: the Twitch channel, or the Facebook broadcast and target (another one is a new connector). */
  key: string;
}

interface Wanted {
  row: Destination;
  key: string;
}

/**
 * Runs the events connectors this api replica owns, elected as the chat connectors are (one lease
 * per channel in Redis, renewed every PLATFORM_SUPERVISE_MS, taken over when it lapses): one EventSub
 * session per Twitch channel linked to a project, live or not. A channel is linked by a Twitch
 * destination that holds its tokens, switched on or off: a creator who streams elsewhere keeps a
 * Twitch destination switched off to have its follows, subs and raids in the feed and the alerts
 * (a follow comes between broadcasts too). Facebook's live reactions are read per Facebook
 * destination of a live broadcast (they exist only on a live video). YouTube's Super Chats, Super
 * Stickers and memberships come through its chat connector's poll, which exists only while a
 * broadcast is live.
 */
export class EventsSupervisor {
  private readonly reconciler: LeasedReconciler<Wanted, Running>;

  constructor(
    private readonly deps: {
      config: ApiConfig;
      db: Db;
      redis: Redis;
      logger: Logger;
      accounts: PlatformAccounts;
      store: EventsStore;
      lease: RedisLease;
      /** Twitch's Client-Id for EventSub; null: no Twitch events on this server. */
      clientId: string | null;
    },
  ) {
    this.reconciler = new LeasedReconciler({
      lease: deps.lease,
      everyMs: deps.config.PLATFORM_SUPERVISE_MS,
      logger: deps.logger,
      what: 'events supervision',
      parts: {
        wanted: () => this.wanted(),
        matches: (run, wanted) => run.key === wanted.key,
        start: (_id, wanted, track) => this.startOne(wanted, track),
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
  connector(destinationId: string): TwitchEventSubConnector | FacebookReactionsConnector | undefined {
    return this.reconciler.get(destinationId)?.connector;
  }

  tick(): Promise<void> {
    return this.reconciler.tick();
  }

  /**
   * The Twitch channels linked to projects, live or not: each Twitch destination holding tokens
   * and its account, one per project and channel (the oldest, when two destinations of a project
   * link the same channel, so each event is read once). Then the Facebook destinations, switched
   * on and holding tokens, of live broadcasts.
   */
  private async wanted(): Promise<Map<string, Wanted>> {
    const wanted = new Map<string, Wanted>();
    if (this.deps.clientId) {
      const rows = await this.deps.db.destination.findMany({
        where: { type: 'Twitch', accessTokenEnc: { not: null }, platformAccountId: { not: null } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      const seen = new Set<string>();
      for (const row of rows) {
        const channel = `${row.projectId}:${row.platformAccountId}`;
        if (seen.has(channel)) continue;
        seen.add(channel);
        wanted.set(row.id, { row, key: row.platformAccountId! });
      }
    }
    const live = await this.deps.db.broadcast.findMany({ where: { state: { in: ['starting', 'live'] } }, select: { id: true, projectId: true } });
    if (live.length > 0) {
      const broadcastOf = new Map(live.map((b) => [b.projectId, b.id]));
      const rows = await this.deps.db.destination.findMany({
        where: { projectId: { in: [...broadcastOf.keys()] }, type: 'Facebook', enabled: true, accessTokenEnc: { not: null }, platformAccountId: { not: null } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      for (const row of rows) wanted.set(row.id, { row, key: `${broadcastOf.get(row.projectId)}:${facebookOwnerOf(row)}` });
    }
    return wanted;
  }

  private startOne({ row, key }: Wanted, track: (run: Running) => void): void {
    const platform: EventPlatform = row.type === 'Facebook' ? 'facebook' : 'twitch';
    const where = { destinationId: row.id, projectId: row.projectId, platform };
    const current = () => this.reconciler.get(row.id)?.connector;
    const shared = {
      logger: this.deps.logger,
      tokens: { current: () => this.deps.accounts.chatToken(row.id), refresh: () => this.deps.accounts.refreshChatToken(row.id) },
      onEvents: async (events: InboundEvent[]) => {
        if (current() !== connector) return;
        await this.deps.store.store({ id: row.id, projectId: row.projectId, platform }, events);
      },
      onState: (state: string, error?: string) => {
        if (current() !== connector) return;
        this.deps.logger.info({ ...where, state, ...(error ? { reason: error } : {}) }, 'events connector state');
        void this.deps.redis
          .set(eventsKeys.state(row.id), JSON.stringify({ state, ...(error ? { error } : {}) }), 'PX', this.deps.config.PLATFORM_OWNER_LEASE_MS * 3)
          .catch(() => undefined);
      },
    };
    const connector: TwitchEventSubConnector | FacebookReactionsConnector =
      platform === 'facebook'
        ? new FacebookReactionsConnector({
            ...shared,
            destination: { id: row.id, projectId: row.projectId, ownerId: facebookOwnerOf(row) },
            config: this.deps.config,
          })
        : new TwitchEventSubConnector({
            ...shared,
            destination: { id: row.id, projectId: row.projectId, platformAccountId: row.platformAccountId! },
            config: this.deps.config,
            clientId: this.deps.clientId!,
          });
    track({ connector, projectId: row.projectId, key });
    this.deps.logger.info({ ...where, replicaId: this.deps.lease.holderId }, 'events connector started');
    connector.start();
  }

  async close(): Promise<void> {
    await this.reconciler.close();
  }
}

/** Where a Facebook destination's live video is: the page, group or event it streams to, else the account's timeline. */
function facebookOwnerOf(row: Destination): string {
  const settings = facebookSettingsSchema.safeParse(row.settings);
  const target = settings.success ? settings.data.streamDestination : undefined;
  return target && target.type !== 'timeline' ? target.id : row.platformAccountId!;
}
