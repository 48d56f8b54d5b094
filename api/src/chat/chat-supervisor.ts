import type { Redis } from 'ioredis';
import { chatPlatformOf, facebookSettingsSchema, type ChatConnectionState, type ChatPlatform } from '@onair/protocol';
import type { Db, Destination } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { PlatformAccounts } from '../destinations/platform-accounts.ts';
import type { ApiConfig } from '../config.ts';
import type { ChatOwnership } from '../leases/chat-ownership.ts';
import { chatKeys } from './keys.ts';
import { chatSendCommandSchema, type ChatService } from './chat-service.ts';
import type { ChatStore } from './chat-store.ts';
import type { EventsStore } from '../events/events-store.ts';
import { ChatSendError, type ChatConnector, type ConnectorContext } from './connectors/connector.ts';
import { FacebookChatConnector } from './connectors/facebook-chat.ts';
import { TwitchChatConnector } from './connectors/twitch-chat.ts';
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
  ownership: ChatOwnership;
  /** The events feed, for the events a chat carries (YouTube's Super Chats and memberships). */
  events?: EventsStore;
}

/**
 * Runs the chat connectors this api replica owns. Every CHAT_SUPERVISE_MS it reads which
 * destinations of live broadcasts have a platform chat, renews its leases on those it runs, takes
 * free ones (another replica's that lapsed included: that is the failover) and stops what it lost
 * or what is no longer live. Sends for its connectors arrive on its own Redis channel.
 */
export class ChatSupervisor {
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly deps: ChatSupervisorDeps) {}

  async start(): Promise<void> {
    const channel = chatKeys.replica(this.deps.ownership.replicaId);
    this.deps.subscriber.on('message', (ch: string, raw: string) => {
      if (ch === channel) void this.onSend(raw);
    });
    await this.deps.subscriber.subscribe(channel);
    this.timer = setInterval(() => {
      this.ticking = this.ticking.then(() => this.tick()).catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message }, 'chat supervision failed'));
    }, this.deps.config.CHAT_SUPERVISE_MS);
    this.timer.unref();
  }

  /** Destinations this replica runs a connector for now. */
  owned(): string[] {
    return [...this.running.keys()];
  }

  async tick(): Promise<void> {
    if (this.closed) return;
    const live = await this.deps.db.broadcast.findMany({ where: { state: { in: ['starting', 'live'] } }, select: { id: true, projectId: true } });
    const broadcastOf = new Map(live.map((b) => [b.projectId, b.id]));
    const rows = broadcastOf.size
      ? await this.deps.db.destination.findMany({ where: { projectId: { in: [...broadcastOf.keys()] }, enabled: true, type: { in: ['Twitch', 'YouTube', 'Facebook'] } } })
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
      if (run) await this.saveState(row.id, run);
      else this.startOne(row, broadcastOf.get(row.projectId)!);
    }
  }

  private startOne(row: Destination, broadcastId: string): void {
    const platform = chatPlatformOf(row.type)!;
    const where = { destinationId: row.id, projectId: row.projectId, platform };
    const facebook = row.type === 'Facebook' ? facebookSettingsSchema.safeParse(row.settings) : null;
    const target = facebook?.success ? facebook.data.streamDestination : undefined;
    const entry: Running = { connector: null as unknown as ChatConnector, projectId: row.projectId, broadcastId, platform, state: 'connecting' };
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
        if (this.running.get(row.id) !== entry) return false;
        return this.deps.store.enqueue({ id: row.id, projectId: row.projectId, platform }, broadcastId, messages);
      },
      ...(this.deps.events
        ? {
            onEvents: async (events) => {
              if (this.running.get(row.id) !== entry) return false;
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
        if (this.running.get(row.id) !== entry || (entry.state === state && entry.error === error)) return;
        entry.state = state;
        entry.error = error;
        this.deps.logger.info({ ...where, state, ...(error ? { reason: error } : {}) }, 'chat connector state');
        void this.saveState(row.id, entry)
          .then(() => this.deps.service.publishDestinations(row.projectId))
          .catch((err: unknown) => this.deps.logger.warn({ ...where, err: (err as Error).message }, 'chat state not published'));
      },
    };
    entry.connector = platform === 'twitch' ? new TwitchChatConnector(ctx) : platform === 'youtube' ? new YouTubeChatConnector(ctx) : new FacebookChatConnector(ctx);
    this.running.set(row.id, entry);
    this.deps.logger.info({ ...where, replicaId: this.deps.ownership.replicaId }, 'chat connector started');
    entry.connector.start();
  }

  private async saveState(destinationId: string, run: Running): Promise<void> {
    const value = JSON.stringify({ state: run.state, ...(run.error ? { error: run.error } : {}) });
    await this.deps.redis.set(chatKeys.state(destinationId), value, 'PX', this.deps.config.CHAT_OWNER_LEASE_MS * 3).catch(() => undefined);
  }

  private async stopOne(destinationId: string, release: boolean): Promise<void> {
    const run = this.running.get(destinationId);
    if (!run) return;
    this.running.delete(destinationId);
    await run.connector.stop().catch(() => undefined);
    this.deps.logger.info({ destinationId, projectId: run.projectId, released: release }, 'chat connector stopped');
    if (release) {
      await this.deps.ownership.release(destinationId).catch(() => undefined);
      await this.deps.redis.del(chatKeys.state(destinationId)).catch(() => undefined);
      await this.deps.service.publishDestinations(run.projectId).catch(() => undefined);
    }
  }

  private async onSend(raw: string): Promise<void> {
    let command;
    try {
      command = chatSendCommandSchema.parse(JSON.parse(raw));
    } catch {
      this.deps.logger.warn('malformed chat send command ignored');
      return;
    }
    const run = this.running.get(command.destinationId);
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
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking.catch(() => undefined);
    for (const id of [...this.running.keys()]) await this.stopOne(id, true);
    await this.deps.store.settle().catch(() => undefined);
    await this.deps.subscriber.unsubscribe(chatKeys.replica(this.deps.ownership.replicaId)).catch(() => undefined);
  }
}
