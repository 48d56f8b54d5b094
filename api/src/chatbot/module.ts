import { chatbotEndpoints } from '@onair/protocol';
import type { LeasesServices } from '../leases/module.ts';
import type { Platform } from '../module.ts';
import { ChatbotService } from './chatbot-service.ts';
import { startChatbots, type Chatbots } from './index.ts';
import { chatbotRoutes } from './routes.ts';

export interface ChatbotServices {
  chatbot: ChatbotService;
}

/** The partner network's chatbot (partner spec §2): its settings pages and the running bots. */
export const chatbotModule = {
  name: 'chatbot',
  build: (deps: Platform): ChatbotServices => ({
    chatbot: new ChatbotService({ db: deps.db, redis: deps.redis, logger: deps.logger, ...(deps.now ? { now: deps.now } : {}) }),
  }),
  http: {
    /** A partner area: mounted behind the partner network's sign-in and channel access. */
    routes: { endpoints: chatbotEndpoints, mount: (c: ChatbotServices) => chatbotRoutes(c.chatbot) },
  },
  sockets: {
    // The chatbots are elected as the chat connectors are, one owner per channel.
    runners: { name: 'chatbots', attach: (_server: unknown, c: Platform & ChatbotServices & LeasesServices): Promise<Chatbots> => startChatbots(c) },
  },
};
