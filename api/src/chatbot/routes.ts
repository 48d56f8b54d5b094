import { Router } from 'express';
import {
  chatbotCommandEndpoints,
  chatbotIgnoredUserEndpoints,
  chatbotQuoteEndpoints,
  chatbotRegularEndpoints,
  chatbotTimerEndpoints,
  cancelRaffleEndpoint,
  drawRaffleEndpoint,
  listRafflesEndpoint,
  openRaffleEndpoint,
  getChatbotEndpoint,
  updateChatbotAlertsEndpoint,
  updateChatbotConnectionEndpoint,
  updateChatbotExtrasEndpoint,
  updateChatbotFiltersEndpoint,
  updateChatbotLinkPreviewEndpoint,
  updateChatbotLoyaltyEndpoint,
  updateChatbotModerationEndpoint,
  updateChatbotRanksEndpoint,
  updateChatbotTimerSettingsEndpoint,
  updateChatbotWarningLevelsEndpoint,
} from '@onair/protocol';
import { mount, Reply } from '../http/mount.ts';
import type { ChatbotService } from './chatbot-service.ts';

/** The Chatbot page's endpoints; mount() checks each one's channel capability before the handler. */
export function chatbotRoutes(chatbot: ChatbotService): Router {
  const router = Router();
  const gone = () => new Reply(204, null);
  mount(router, getChatbotEndpoint, async ({ params }) => chatbot.config(params.channelId));
  mount(router, updateChatbotConnectionEndpoint, async ({ params, body }) => chatbot.setEnabled(params.channelId, body.enabled));

  mount(router, chatbotCommandEndpoints.create, async ({ params, body }) => new Reply(201, await chatbot.createCommand(params.channelId, body)));
  mount(router, chatbotCommandEndpoints.update!, async ({ params, body }) => chatbot.updateCommand(params.channelId, params.itemId, body));
  mount(router, chatbotCommandEndpoints.remove, async ({ params }) => (await chatbot.deleteCommand(params.channelId, params.itemId), gone()));

  mount(router, chatbotTimerEndpoints.create, async ({ params, body }) => new Reply(201, await chatbot.createTimer(params.channelId, body)));
  mount(router, chatbotTimerEndpoints.update!, async ({ params, body }) => chatbot.updateTimer(params.channelId, params.itemId, body));
  mount(router, chatbotTimerEndpoints.remove, async ({ params }) => (await chatbot.deleteTimer(params.channelId, params.itemId), gone()));

  mount(router, chatbotQuoteEndpoints.create, async ({ params, body }) => new Reply(201, await chatbot.addQuote(params.channelId, body)));
  mount(router, chatbotQuoteEndpoints.remove, async ({ params }) => (await chatbot.deleteQuote(params.channelId, params.itemId), gone()));

  mount(
    router,
    chatbotIgnoredUserEndpoints.create,
    async ({ params, body }) => new Reply(201, await chatbot.addUser(params.channelId, 'ignored', body.username)),
  );
  mount(router, chatbotIgnoredUserEndpoints.remove, async ({ params }) => (await chatbot.removeUser(params.channelId, 'ignored', params.itemId), gone()));
  mount(router, chatbotRegularEndpoints.create, async ({ params, body }) => new Reply(201, await chatbot.addUser(params.channelId, 'regular', body.username)));
  mount(router, chatbotRegularEndpoints.remove, async ({ params }) => (await chatbot.removeUser(params.channelId, 'regular', params.itemId), gone()));

  mount(router, updateChatbotTimerSettingsEndpoint, async ({ params, body }) => chatbot.updateSection(params.channelId, 'timerSettings', body));
  mount(router, updateChatbotAlertsEndpoint, async ({ params, body }) => chatbot.updateSection(params.channelId, 'alerts', body));
  mount(router, updateChatbotLinkPreviewEndpoint, async ({ params, body }) => chatbot.updateSection(params.channelId, 'linkPreview', body));
  mount(router, updateChatbotExtrasEndpoint, async ({ params, body }) => chatbot.updateSection(params.channelId, 'extras', body));
  mount(router, updateChatbotFiltersEndpoint, async ({ params, body }) => chatbot.updateSection(params.channelId, 'filters', body));
  mount(router, updateChatbotWarningLevelsEndpoint, async ({ params, body }) => chatbot.updateSection(params.channelId, 'warningLevels', body.levels));
  mount(router, updateChatbotModerationEndpoint, async ({ params, body }) => chatbot.updateSection(params.channelId, 'moderation', body));
  mount(router, updateChatbotLoyaltyEndpoint, async ({ params, body }) => chatbot.updateSection(params.channelId, 'loyalty', body));
  mount(router, updateChatbotRanksEndpoint, async ({ params, body }) => chatbot.updateSection(params.channelId, 'ranks', body.ranks));

  mount(router, listRafflesEndpoint, async ({ params }) => ({ raffles: await chatbot.raffles(params.channelId) }));
  mount(router, openRaffleEndpoint, async ({ params, body }) => new Reply(201, await chatbot.openRaffle(params.channelId, body)));
  mount(router, drawRaffleEndpoint, async ({ params }) => chatbot.drawRaffle(params.channelId, params.raffleId));
  mount(router, cancelRaffleEndpoint, async ({ params }) => chatbot.cancelRaffle(params.channelId, params.raffleId));
  return router;
}
