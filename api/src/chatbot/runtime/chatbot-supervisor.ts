import type { Redis } from 'ioredis';
import { CHATBOT_EVENTS_CHANNEL, chatbotEventsMessageSchema } from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../../config.ts';
import { LeasedReconciler } from '../../leases/leased-reconciler.ts';
import type { RedisLease } from '../../leases/lease.ts';
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
 * connector lease per channel in Redis, renewed every PLATFORM_SUPERVISE_MS, taken over when it
 * lapses: PLATFORM_OWNER_LEASE_MS, 5 s by default, so a dead owner's bots move within 10 s). A channel
 * runs a bot when it is turned on, has a Twitch account, and is the first OnAir channel to run one
 * in that Twitch chat (the others are 'duplicate'). Settings changes and new events reach the
 * owner over Redis pub/sub.
 */
export class ChatbotSupervisor {
  private readonly reconciler: LeasedReconciler<{ login: string; userId: string }, Running>;
  private readonly ownerOfProject = new Map<string, string>();

  constructor(
    private readonly deps: {
      config: ApiConfig;
      db: Db;
      redis: Redis;
      subscriber: Redis;
      logger: Logger;
      service: ChatbotService;
      lease: RedisLease;
      now: () => number;
    },
  ) {
    this.reconciler = new LeasedReconciler({
      lease: deps.lease,
      everyMs: deps.config.PLATFORM_SUPERVISE_MS,
      logger: deps.logger,
      what: 'chatbot supervision',
      parts: {
        wanted: () => this.wanted(),
        matches: (run, twitch) => run.login === twitch.login,
        start: (channelId, twitch, track) => this.startOne(channelId, twitch, track),
        stop: async (channelId, run, released) => {
          await run.runner.stop();
          this.deps.logger.info({ channelId, released }, 'chatbot stopped');
        },
        afterRelease: async (channelId) => {
          await this.deps.redis.del(chatbotKeys.state(channelId)).catch(() => undefined);
        },
        renewed: (channelId, run) => this.saveState(channelId, run.state),
      },
    });
  }

  async start(): Promise<void> {
    this.deps.subscriber.on('message', (channel: string, raw: string) => {
      if (channel === chatbotKeys.changed)
        void this.reconciler
          .get(raw)
          ?.runner.reload()
          .catch((err: unknown) => this.deps.logger.warn({ channelId: raw, err: (err as Error).message }, 'chatbot reload failed'));
      else if (channel === CHATBOT_EVENTS_CHANNEL) void this.onEvents(raw);
    });
    await this.deps.subscriber.subscribe(chatbotKeys.changed, CHATBOT_EVENTS_CHANNEL);
    this.reconciler.start();
  }

  /** Channels whose bot runs in this replica. */
  owned(): string[] {
    return this.reconciler.ids();
  }

  runner(channelId: string): ChatbotRunner | undefined {
    return this.reconciler.get(channelId)?.runner;
  }

  tick(): Promise<void> {
    return this.reconciler.tick();
  }

  /** Channels with the bot on and a Twitch account, each the first OnAir channel to run one in that Twitch chat. */
  private async wanted(): Promise<Map<string, { login: string; userId: string }>> {
    const rows = await this.deps.db.chatbotSettings.findMany({ where: { enabled: true }, select: { channelId: true } });
    const wanted = new Map<string, { login: string; userId: string }>();
    for (const { channelId } of rows) {
      const twitch = await this.deps.service.twitchOf(channelId);
      if (twitch && (await this.deps.service.firstChannelOf(twitch.login)) === channelId) wanted.set(channelId, twitch);
    }
    return wanted;
  }

  private async startOne(channelId: string, twitch: { login: string; userId: string }, track: (run: Running) => void): Promise<void> {
    const { config } = this.deps;
    const where = { channelId, twitchLogin: twitch.login };
    if (!config.CHATBOT_TWITCH_TOKEN || !config.CHATBOT_TWITCH_USER_ID || !config.TWITCH_CLIENT_ID) {
      // Not a fault of the creator's: said in the health, and the lease kept so no other replica tries the same.
      await this.saveState(channelId, {
        state: 'error',
        error: "The chatbot's Twitch account is not set up on this server. Ask the operator (CHATBOT_TWITCH_USER_ID, CHATBOT_TWITCH_TOKEN, TWITCH_CLIENT_ID).",
      });
      return;
    }
    // Set once the runner exists; its callbacks act only while it is the one running.
    let entry: Running | null = null;
    const runner = new ChatbotRunner({
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
        const run = entry !== null && this.reconciler.get(channelId) === entry ? entry : null;
        if (!run || (run.state.state === state.state && run.state.error === state.error)) return;
        // An error stays until the chat connects again: a reconnect does not hide why it failed.
        if (run.state.state === 'error' && state.state === 'connecting') return;
        run.state = state;
        this.deps.logger.info({ ...where, state: state.state, ...(state.error ? { reason: state.error } : {}) }, 'chatbot state');
        void this.saveState(channelId, state);
      },
    });
    entry = { runner, login: twitch.login, state: { state: 'connecting' } };
    track(entry);
    this.deps.logger.info({ ...where, replicaId: this.deps.lease.holderId }, 'chatbot started');
    await this.saveState(channelId, entry.state);
    await runner.start().catch((err: unknown) => this.deps.logger.warn({ ...where, err: (err as Error).message }, 'chatbot start failed'));
  }

  private async saveState(channelId: string, state: RunnerState): Promise<void> {
    const notices = this.reconciler.get(channelId)?.runner.notices ?? [];
    await this.deps.redis
      .set(
        chatbotKeys.state(channelId),
        JSON.stringify({ ...state, ...(notices.length > 0 ? { notices } : {}) }),
        'PX',
        this.deps.config.PLATFORM_OWNER_LEASE_MS * 3,
      )
      .catch(() => undefined);
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
    await this.reconciler
      .get(owner)
      ?.runner.onEvents(message.events)
      .catch((err: unknown) => this.deps.logger.warn({ channelId: owner, err: (err as Error).message }, 'chatbot events not handled'));
  }

  /** Stops every bot and gives its lease back (a clean shutdown: another replica takes over at once). */
  async close(): Promise<void> {
    await this.reconciler.close();
    await this.deps.subscriber.unsubscribe(chatbotKeys.changed, CHATBOT_EVENTS_CHANNEL).catch(() => undefined);
  }
}
