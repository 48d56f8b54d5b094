import type { Redis } from 'ioredis';
import { CHATBOT_EVENTS_CHANNEL, chatbotEventsMessageSchema } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../../config.ts';
import type { ChatOwnership } from '../../leases/chat-ownership.ts';
import type { ChatbotService } from '../chatbot-service.ts';
import { chatbotKeys } from '../keys.ts';
import { ChatbotRunner, type RunnerState } from './chatbot-runner.ts';

interface Running {
  runner: ChatbotRunner;
  login: string;
  state: RunnerState;
}

/**
 * Runs the chatbots this api replica owns, elected as the platform chat's connectors are (one
 * ChatOwnership lease per channel in Redis, renewed every CHAT_SUPERVISE_MS, taken over when it
 * lapses: CHAT_OWNER_LEASE_MS, 5 s by default, so a dead owner's bots move within 10 s). A channel
 * runs a bot when it is turned on, has a Twitch account, and is the first OnAir channel to run one
 * in that Twitch chat (the others are 'duplicate'). Settings changes and new events reach the
 * owner over Redis pub/sub.
 */
export class ChatbotSupervisor {
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly ownerOfProject = new Map<string, string>();

  constructor(
    private readonly deps: {
      config: ApiConfig;
      db: Db;
      redis: Redis;
      subscriber: Redis;
      logger: Logger;
      service: ChatbotService;
      ownership: ChatOwnership;
      now: () => number;
    },
  ) {}

  async start(): Promise<void> {
    this.deps.subscriber.on('message', (channel: string, raw: string) => {
      if (channel === chatbotKeys.changed) void this.running.get(raw)?.runner.reload().catch((err: unknown) => this.deps.logger.warn({ channelId: raw, err: (err as Error).message }, 'chatbot reload failed'));
      else if (channel === CHATBOT_EVENTS_CHANNEL) void this.onEvents(raw);
    });
    await this.deps.subscriber.subscribe(chatbotKeys.changed, CHATBOT_EVENTS_CHANNEL);
    this.timer = setInterval(() => {
      this.ticking = this.ticking.then(() => this.tick()).catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message }, 'chatbot supervision failed'));
    }, this.deps.config.CHAT_SUPERVISE_MS);
    this.timer.unref();
  }

  /** Channels whose bot runs in this replica. */
  owned(): string[] {
    return [...this.running.keys()];
  }

  runner(channelId: string): ChatbotRunner | undefined {
    return this.running.get(channelId)?.runner;
  }

  async tick(): Promise<void> {
    if (this.closed) return;
    const rows = await this.deps.db.chatbotSettings.findMany({ where: { enabled: true }, select: { channelId: true } });
    const wanted = new Map<string, { login: string; userId: string }>();
    for (const { channelId } of rows) {
      const twitch = await this.deps.service.twitchOf(channelId);
      if (twitch && (await this.deps.service.firstChannelOf(twitch.login)) === channelId) wanted.set(channelId, twitch);
    }
    for (const [id, run] of this.running) if (wanted.get(id)?.login !== run.login) await this.stopOne(id, true);
    for (const [channelId, twitch] of wanted) {
      if (this.closed) return;
      const held = await this.deps.ownership.hold(channelId);
      const run = this.running.get(channelId);
      if (!held) {
        if (run) await this.stopOne(channelId, false);
        continue;
      }
      if (run) await this.saveState(channelId, run.state);
      else await this.startOne(channelId, twitch);
    }
  }

  private async startOne(channelId: string, twitch: { login: string; userId: string }): Promise<void> {
    const { config } = this.deps;
    const where = { channelId, twitchLogin: twitch.login };
    if (!config.CHATBOT_TWITCH_TOKEN || !config.CHATBOT_TWITCH_USER_ID || !config.TWITCH_CLIENT_ID) {
      // Not a fault of the creator's: said in the health, and the lease kept so no other replica tries the same.
      await this.saveState(channelId, { state: 'error', error: "The chatbot's Twitch account is not set up on this server. Ask the operator (CHATBOT_TWITCH_USER_ID, CHATBOT_TWITCH_TOKEN, TWITCH_CLIENT_ID)." });
      return;
    }
    const entry: Running = { runner: null as unknown as ChatbotRunner, login: twitch.login, state: { state: 'connecting' } };
    entry.runner = new ChatbotRunner({
      channelId,
      twitch,
      bot: { userId: config.CHATBOT_TWITCH_USER_ID, login: config.CHATBOT_TWITCH_LOGIN, token: config.CHATBOT_TWITCH_TOKEN },
      db: this.deps.db,
      redis: this.deps.redis,
      logger: this.deps.logger,
      service: this.deps.service,
      config,
      now: this.deps.now,
      onState: (state) => {
        if (this.running.get(channelId) !== entry || (entry.state.state === state.state && entry.state.error === state.error)) return;
        // An error stays until the chat connects again: a reconnect does not hide why it failed.
        if (entry.state.state === 'error' && state.state === 'connecting') return;
        entry.state = state;
        this.deps.logger.info({ ...where, state: state.state, ...(state.error ? { reason: state.error } : {}) }, 'chatbot state');
        void this.saveState(channelId, state);
      },
    });
    this.running.set(channelId, entry);
    this.deps.logger.info({ ...where, replicaId: this.deps.ownership.replicaId }, 'chatbot started');
    await this.saveState(channelId, entry.state);
    await entry.runner.start().catch((err: unknown) => this.deps.logger.warn({ ...where, err: (err as Error).message }, 'chatbot start failed'));
  }

  private async saveState(channelId: string, state: RunnerState): Promise<void> {
    const notices = this.running.get(channelId)?.runner.notices ?? [];
    await this.deps.redis.set(chatbotKeys.state(channelId), JSON.stringify({ ...state, ...(notices.length > 0 ? { notices } : {}) }), 'PX', this.deps.config.CHAT_OWNER_LEASE_MS * 3).catch(() => undefined);
  }

  private async stopOne(channelId: string, release: boolean): Promise<void> {
    const run = this.running.get(channelId);
    if (!run) return;
    this.running.delete(channelId);
    await run.runner.stop();
    this.deps.logger.info({ channelId, released: release }, 'chatbot stopped');
    if (release) {
      await this.deps.ownership.release(channelId).catch(() => undefined);
      await this.deps.redis.del(chatbotKeys.state(channelId)).catch(() => undefined);
    }
  }

  private async onEvents(raw: string): Promise<void> {
    let message;
    try {
      message = chatbotEventsMessageSchema.parse(JSON.parse(raw));
    } catch {
      this.deps.logger.warn('malformed chatbot events message ignored');
      return;
    }
    let owner = this.ownerOfProject.get(message.projectId);
    if (owner === undefined) {
      const project = await this.deps.db.project.findUnique({ where: { id: message.projectId }, select: { ownerId: true } });
      if (!project) return;
      owner = project.ownerId;
      if (this.ownerOfProject.size > 10_000) this.ownerOfProject.clear();
      this.ownerOfProject.set(message.projectId, owner);
    }
    await this.running
      .get(owner)
      ?.runner.onEvents(message.events)
      .catch((err: unknown) => this.deps.logger.warn({ channelId: owner, err: (err as Error).message }, 'chatbot events not handled'));
  }

  /** Stops every bot and gives its lease back (a clean shutdown: another replica takes over at once). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking.catch(() => undefined);
    for (const id of [...this.running.keys()]) await this.stopOne(id, true);
    await this.deps.subscriber.unsubscribe(chatbotKeys.changed, CHATBOT_EVENTS_CHANNEL).catch(() => undefined);
  }
}
