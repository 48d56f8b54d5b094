import { z } from 'zod';
import { defineEndpoint, type Endpoint } from '../http/endpoint.ts';
import type { ChannelCapability } from '../channel-permissions.ts';
import { channelIdParamsSchema } from '../partner/channels.ts';
import {
  chatbotAlertsSchema,
  chatbotCommandInputSchema,
  chatbotCommandSchema,
  chatbotConfigSchema,
  chatbotConnectionSchema,
  chatbotExtrasSchema,
  chatbotFiltersSchema,
  chatbotItemParamsSchema,
  chatbotLinkPreviewSchema,
  chatbotLoyaltySchema,
  chatbotModerationSchema,
  chatbotQuoteInputSchema,
  chatbotQuoteSchema,
  chatbotRanksSchema,
  chatbotTimerInputSchema,
  chatbotTimerSchema,
  chatbotTimerSettingsSchema,
  chatbotUserInputSchema,
  chatbotUserSchema,
  updateChatbotConnectionBodySchema,
  warningLevelsSchema,
} from './chatbot.ts';
import { raffleEndpoints } from './raffles.ts';

// The Chatbot page's calls. Each names the channel capability it needs (spec §6: the Chatbot
// permission groups are moderation, chat and loyalty), which the api checks before the handler.

const tag = 'chatbot';
const base = '/api/v1/partner/channels/:channelId/chatbot';

function settingsEndpoint<B extends z.ZodType>(id: string, path: string, summary: string, capability: ChannelCapability, body: B) {
  return defineEndpoint({
    id,
    method: 'put',
    path: `${base}/${path}`,
    summary,
    tag,
    access: 'user',
    channelCapability: capability,
    params: channelIdParamsSchema,
    body,
    response: chatbotConfigSchema,
  });
}

/** Create, update and delete of one list of the page (commands, timers…). */
function listEndpoints<I extends z.ZodType, R extends z.ZodType>(
  name: string,
  path: string,
  capability: ChannelCapability,
  input: I,
  item: R,
  update: boolean,
) {
  const create = defineEndpoint({
    id: `create${name}`,
    method: 'post',
    path: `${base}/${path}`,
    summary: `Adds one to the channel's ${path}.`,
    tag,
    access: 'user',
    channelCapability: capability,
    params: channelIdParamsSchema,
    body: input,
    response: item,
    successStatus: 201,
  });
  const put = update
    ? defineEndpoint({
        id: `update${name}`,
        method: 'put',
        path: `${base}/${path}/:itemId`,
        summary: `Changes one of the channel's ${path}.`,
        tag,
        access: 'user',
        channelCapability: capability,
        params: chatbotItemParamsSchema,
        body: input,
        response: item,
      })
    : null;
  const remove = defineEndpoint({
    id: `delete${name}`,
    method: 'delete',
    path: `${base}/${path}/:itemId`,
    summary: `Removes one of the channel's ${path}.`,
    tag,
    access: 'user',
    channelCapability: capability,
    params: chatbotItemParamsSchema,
    response: z.null(),
    successStatus: 204,
  });
  return { create, update: put, remove };
}

export const getChatbotEndpoint = defineEndpoint({
  id: 'getChatbot',
  method: 'get',
  path: base,
  summary: 'The Chatbot page: the bot connection and its health, and every section.',
  tag,
  access: 'user',
  channelCapability: 'view chatbot',
  params: channelIdParamsSchema,
  response: chatbotConfigSchema,
});

export const updateChatbotConnectionEndpoint = defineEndpoint({
  id: 'updateChatbotConnection',
  method: 'put',
  path: `${base}/connection`,
  summary: "Turns the bot on or off in the channel's Twitch chat.",
  tag,
  access: 'user',
  channelCapability: 'connect chatbot',
  params: channelIdParamsSchema,
  body: updateChatbotConnectionBodySchema,
  response: chatbotConnectionSchema,
});

export const chatbotCommandEndpoints = listEndpoints('ChatbotCommand', 'commands', 'edit chatbot chat', chatbotCommandInputSchema, chatbotCommandSchema, true);
export const chatbotTimerEndpoints = listEndpoints('ChatbotTimer', 'timers', 'edit chatbot chat', chatbotTimerInputSchema, chatbotTimerSchema, true);
export const chatbotQuoteEndpoints = listEndpoints('ChatbotQuote', 'quotes', 'edit chatbot chat', chatbotQuoteInputSchema, chatbotQuoteSchema, false);
export const chatbotIgnoredUserEndpoints = listEndpoints(
  'ChatbotIgnoredUser',
  'ignored-users',
  'edit chatbot moderation',
  chatbotUserInputSchema,
  chatbotUserSchema,
  false,
);
export const chatbotRegularEndpoints = listEndpoints('ChatbotRegular', 'regulars', 'edit chatbot loyalty', chatbotUserInputSchema, chatbotUserSchema, false);

export const updateChatbotTimerSettingsEndpoint = settingsEndpoint(
  'updateChatbotTimerSettings',
  'timer-settings',
  'Timers: interval, only while live, minimum chat lines.',
  'edit chatbot chat',
  chatbotTimerSettingsSchema,
);
export const updateChatbotAlertsEndpoint = settingsEndpoint(
  'updateChatbotAlerts',
  'alerts',
  'Alerts: the chat message of each event type.',
  'edit chatbot chat',
  chatbotAlertsSchema,
);
export const updateChatbotLinkPreviewEndpoint = settingsEndpoint(
  'updateChatbotLinkPreview',
  'link-preview',
  'Link Preview settings.',
  'edit chatbot chat',
  chatbotLinkPreviewSchema,
);
export const updateChatbotExtrasEndpoint = settingsEndpoint(
  'updateChatbotExtras',
  'extras',
  'Extras: the built-in commands.',
  'edit chatbot chat',
  chatbotExtrasSchema,
);
export const updateChatbotFiltersEndpoint = settingsEndpoint(
  'updateChatbotFilters',
  'filters',
  'Chat Filters: each filter, its switch and punishment.',
  'edit chatbot moderation',
  chatbotFiltersSchema,
);
export const updateChatbotWarningLevelsEndpoint = settingsEndpoint(
  'updateChatbotWarningLevels',
  'warning-levels',
  'Moderation: warning levels (timeout or ban).',
  'edit chatbot moderation',
  z.strictObject({ levels: warningLevelsSchema }),
);
export const updateChatbotModerationEndpoint = settingsEndpoint(
  'updateChatbotModeration',
  'moderation',
  'Moderation: warning expiry and the hate-raid guard.',
  'edit chatbot moderation',
  chatbotModerationSchema,
);
export const updateChatbotLoyaltyEndpoint = settingsEndpoint(
  'updateChatbotLoyalty',
  'loyalty',
  'Loyalty: the program and its points.',
  'edit chatbot loyalty',
  chatbotLoyaltySchema,
);
export const updateChatbotRanksEndpoint = settingsEndpoint(
  'updateChatbotRanks',
  'ranks',
  'Loyalty: ranks by hours watched.',
  'edit chatbot loyalty',
  z.strictObject({ ranks: chatbotRanksSchema }),
);

const lists = [chatbotCommandEndpoints, chatbotTimerEndpoints, chatbotQuoteEndpoints, chatbotIgnoredUserEndpoints, chatbotRegularEndpoints];

/** Every chatbot endpoint (part of partnerEndpoints). */
export const chatbotEndpoints: readonly Endpoint[] = [
  getChatbotEndpoint,
  updateChatbotConnectionEndpoint,
  ...lists.flatMap((l) => [l.create, ...(l.update ? [l.update] : []), l.remove]),
  updateChatbotTimerSettingsEndpoint,
  updateChatbotAlertsEndpoint,
  updateChatbotLinkPreviewEndpoint,
  updateChatbotExtrasEndpoint,
  updateChatbotFiltersEndpoint,
  updateChatbotWarningLevelsEndpoint,
  updateChatbotModerationEndpoint,
  updateChatbotLoyaltyEndpoint,
  updateChatbotRanksEndpoint,
  ...raffleEndpoints,
];
