import type { Redis } from 'ioredis';
import { chatPlatformOf, facebookSettingsSchema, type ChatConnectionState, type ChatPlatform } from '@onair/protocol';
import type { Db, Destination } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { PlatformAccounts } from '../destinations/platform-accounts.ts';
import type { ApiConfig } from '../config.ts';
import { LeasedReconciler } from '../leases/leased-reconciler.ts';
import type { RedisLease } from '../leases/lease.ts';
import { chatKeys } from './keys.ts';
import { chatSendCommandSchema, type ChatService } from './chat-service.ts';
import type { ChatStore } from './chat-store.ts';
import type { EventsStore } from '../events/events-store.ts';
import { ChatSendError, type ChatConnector, type ConnectorContext } from '../platforms/chat-connector.ts';
import { FacebookChatConnector } from './connectors/facebook-chat.ts';
import { TwitchChatConnector } from '../platforms/twitch-chat.ts';
import { YouTubeChatConnector } from './connectors/youtube-chat.ts';

const CURSOR_TTL_SECONDS = 6 * 3600;

interface Running {
  connector: ChatConnector;
  projectId: string;
  broadcastId: string;
  platform: ChatPlatform;
  state: ChatConnectionState;
  error?: string;
}

export interface ChatSupervisorDeps {
  config: ApiConfig;
  db: Db;
  redis: Redis;
  /** A connection of its own (subscriber mode), for the sends routed to this replica. */
  subscriber: Redis;
  logger: Logger;
  accounts: PlatformAccounts;
  store: ChatStore;
  service: ChatService;
  /** This replica's lease on each chat it runs (ChatService routes sends to the holder). */
  lease: RedisLease;
  /** The events feed, for the events a chat carries (YouTube's Super Chats and memberships). */
  events?: EventsStore;
}

/**
 * Runs the chat connectors this api replica owns. Every PLATFORM_SUPERVISE_MS it reads which
 * destinations of live broadcasts have a platform chat, renews its leases on those it runs, takes
 * free ones (another replica's that lapsed included: that is the failover) and stops what it lost
 * or what is no longer live. Sends for its connectors arrive on its own Redis channel.
 */
export class ChatSupervisor {
  private readonly reconciler: LeasedReconciler<{ row: Destination; broadcastId: string }, Running>;

  constructor(private readonly deps: ChatSupervisorDeps) {
    this.reconciler = new LeasedReconciler({
      lease: deps.lease,
      everyMs: deps.config.PLATFORM_SUPERVISE_MS,
      logger: deps.logger,
      what: 'chat supervision',
      parts: {
        wanted: () => this.wanted(),
        matches: (run, wanted) => run.broadcastId === wanted.broadcastId,
        start: (_id, wanted, track) => this.startOne(wanted.row, wanted.broadcastId, track),
        stop: async (destinationId, run, released) => {
          await run.connector.stop().catch(() => undefined);
          this.deps.logger.info({ destinationId, projectId: run.projectId, released }, 'chat connector stopped');
        },
        afterRelease: async (destinationId, run) => {
          await this.deps.redis.del(chatKeys.state(destinationId)).catch(() => undefined);
          await this.deps.service.publishDestinations(run.projectId).catch(() => undefined);
        },
        renewed: (destinationId, run) => this.saveState(destinationId, run),
      },
    });
  }

  async start(): Promise<void> {
    const channel = chatKeys.replica(this.deps.lease.holderId);
    this.deps.subscriber.on('message', (ch: string, raw: string) => {
      if (ch === channel) void this.onSend(raw);
    });
    await this.deps.subscriber.subscribe(channel);
    this.reconciler.start();
  }

  /** Destinations this replica runs a connector for now. */
  owned(): string[] {
    return this.reconciler.ids();
  }

  tick(): Promise<void> {
    return this.reconciler.tick();
  }

  /** The platform chats of live broadcasts' enabled destinations, with their broadcast. */
  private async wanted(): Promise<Map<string, { row: Destination; broadcastId: string }>> {
    const live = await this.deps.db.broadcast.findMany({ where: { state: { in: ['starting', 'live'] } }, select: { id: true, projectId: true } });
    const broadcastOf = new Map(live.map((b) => [b.projectId, b.id]));
    const rows = broadcastOf.size
      ? await this.deps.db.destination.findMany({
          where: { projectId: { in: [...broadcastOf.keys()] }, enabled: true, type: { in: ['Twitch', 'YouTube', 'Facebook'] } },
        })
      : [];
    return new Map(rows.map((row) => [row.id, { row, broadcastId: broadcastOf.get(row.projectId)! }]));
  }

  private startOne(row: Destination, broadcastId: string, track: (run: Running) => void): void {
    const platform = chatPlatformOf(row.type)!;
    const where = { destinationId: row.id, projectId: row.projectId, platform };
    const facebook = row.type === 'Facebook' ? facebookSettingsSchema.safeParse(row.settings) : null;
    const target = facebook?.success ? facebook.data.streamDestination : undefined;
    // Set once the connector exists; its callbacks act only while it is the one running.
    let entry: Running | null = null;
    const current = (): Running | null => (entry !== null && this.reconciler.get(row.id) === entry ? entry : null);
    const ctx: ConnectorContext = {
      destination: {
        id: row.id,
        projectId: row.projectId,
        username: row.username,
        platformAccountId: row.platformAccountId,
        targetId: target && target.type !== 'timeline' ? target.id : null,
      },
      config: this.deps.config,
      logger: this.deps.logger,
      tokens: { current: () => this.deps.accounts.chatToken(row.id), refresh: () => this.deps.accounts.refreshChatToken(row.id) },
      cursor: {
        get: () => this.deps.redis.get(chatKeys.cursor(row.id)),
        set: async (value) => {
          await this.deps.redis.set(chatKeys.cursor(row.id), value, 'EX', CURSOR_TTL_SECONDS);
        },
      },
      onMessages: async (messages) => {
        if (!current()) return false;
        return this.deps.store.enqueue({ id: row.id, projectId: row.projectId, platform }, broadcastId, messages);
      },
      ...(this.deps.events
        ? {
            onEvents: async (events) => {
              if (!current()) return false;
              try {
                await this.deps.events!.store({ id: row.id, projectId: row.projectId, platform }, events);
                return true;
              } catch (err) {
                this.deps.logger.warn({ ...where, err: (err as Error).message }, 'chat events not stored');
                return false;
              }
            },
          }
        : {}),
      onState: (state, error) => {
        const run = current();
        if (!run || (run.state === state && run.error === error)) return;
        run.state = state;
        run.error = error;
        this.deps.logger.info({ ...where, state, ...(error ? { reason: error } : {}) }, 'chat connector state');
        void this.saveState(row.id, run)
          .then(() => this.deps.service.publishDestinations(row.projectId))
          .catch((err: unknown) => this.deps.logger.warn({ ...where, err: (err as Error).message }, 'chat state not published'));
      },
    };
    const connector =
      platform === 'twitch' ? new TwitchChatConnector(ctx) : platform === 'youtube' ? new YouTubeChatConnector(ctx) : new FacebookChatConnector(ctx);
    entry = { connector, projectId: row.projectId, broadcastId, platform, state: 'connecting' };
    track(entry);
    this.deps.logger.info({ ...where, replicaId: this.deps.lease.holderId }, 'chat connector started');
    connector.start();
  }

  private async saveState(destinationId: string, run: Running): Promise<void> {
    const value = JSON.stringify({ state: run.state, ...(run.error ? { error: run.error } : {}) });
    await this.deps.redis.set(chatKeys.state(destinationId), value, 'PX', this.deps.config.PLATFORM_OWNER_LEASE_MS * 3).catch(() => undefined);
  }

  private async onSend(raw: string): Promise<void> {
    let command;
    try {
      command = chatSendCommandSchema.parse(JSON.parse(raw));
    } catch {
      this.deps.logger.warn('malformed chat send command ignored');
      return;
    }
    const run = this.reconciler.get(command.destinationId);
    try {
      if (!run) throw new ChatSendError('The chat is not connected.');
      const { platformMessageId } = await run.connector.send(command.text);
      await this.deps.store.settleDelivery(command.messageId, command.destinationId, { state: 'sent', platformMessageId });
    } catch (err) {
      const error = err instanceof ChatSendError ? err.message : 'The message could not be sent.';
      if (!(err instanceof ChatSendError)) this.deps.logger.error({ err, destinationId: command.destinationId }, 'chat send failed');
      await this.deps.store.settleDelivery(command.messageId, command.destinationId, { state: 'failed', error }).catch(() => undefined);
    }
  }

  /** Stops every connector and gives its lease back (a clean shutdown: another replica takes over at once). */
  async close(): Promise<void> {
    await this.reconciler.close();
    await this.deps.store.settle().catch(() => undefined);
    await this.deps.subscriber.unsubscribe(chatKeys.replica(this.deps.lease.holderId)).catch(() => undefined);
  }
}
