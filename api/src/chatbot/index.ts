import type { Redis } from 'ioredis';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';
import type { LeasesServices } from '../leases/module.ts';
import type { ChatbotService } from './chatbot-service.ts';
import { chatbotKeys } from './keys.ts';
import { ChatbotSupervisor } from './runtime/chatbot-supervisor.ts';

export interface Chatbots {
  /** Null when this replica runs no bots (CHATBOT_RUNNERS=false). */
  supervisor: ChatbotSupervisor | null;
  close(): Promise<void>;
}

/**
 * The chatbots of one api replica: unless switched off, the supervisor that takes part in
 * electing one owner per channel (a connector lease, on keys of its own) and runs
 * the bots it owns. The Chatbot page's routes are the partner router's (chatbotRoutes).
 */
export async function startChatbots(
  deps: { config: ApiConfig; db: Db; redis: Redis; logger: Logger; chatbot: ChatbotService; now?: () => Date } & LeasesServices,
): Promise<Chatbots> {
  const { config, db, redis, logger } = deps;
  if (!config.CHATBOT_RUNNERS) return { supervisor: null, close: async () => undefined };
  const subscriber = redis.duplicate();
  subscriber.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis chatbot subscriber connection error'));
  // The bots' clock is the service's: it dates what they write too (quotes), not only their timers and cooldowns.
  const clock = deps.now;
  const now = clock ? () => clock().getTime() : Date.now;
  const supervisor = new ChatbotSupervisor({
    config,
    db,
    redis,
    subscriber,
    logger,
    service: deps.chatbot,
    lease: deps.connectorLeases(chatbotKeys.owner),
    now,
  });
  await supervisor.start().catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'chatbots could not start'));
  return {
    supervisor,
    close: async () => {
      await supervisor.close();
      subscriber.disconnect();
    },
  };
}

export { ChatbotService } from './chatbot-service.ts';
