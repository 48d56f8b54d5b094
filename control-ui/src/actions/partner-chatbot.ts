import {
  chatbotCommandEndpoints,
  chatbotIgnoredUserEndpoints,
  chatbotQuoteEndpoints,
  chatbotRegularEndpoints,
  chatbotTimerEndpoints,
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
  type ChatbotConfig,
} from '@onair/protocol';
import { httpClient, type HttpClient, type ResponseSchema } from '../api/http-client.ts';
import { fieldErrorsOf } from '../model/partner.ts';
import { useChatbotStore } from '../stores/index.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import type { FormResult } from './partner.ts';

const noContent: ResponseSchema<null> = {
  safeParse: (data) => (data === undefined || data === null ? { success: true, data: null } : { success: false, error: { message: 'expected no content' } }),
};
const pathOf = (path: string, params: Record<string, string>) => path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));

function failed(err: unknown): FormResult {
  const api = apiErrorOf(err);
  const fieldErrors = api?.code === 'VALIDATION_FAILED' ? fieldErrorsOf(api.details) : {};
  return { ok: false, message: api?.code === 'VALIDATION_FAILED' ? (Object.values(fieldErrors)[0] ?? api.message) : messageOf(err), fieldErrors };
}

/** The Chatbot page of a channel: every section and the bot's health. */
export async function loadChatbot(channelId: string, client: HttpClient = httpClient): Promise<void> {
  const state = useChatbotStore.getState();
  if (state.channelId !== channelId) useChatbotStore.setState({ channelId, status: 'loading', config: null, error: null });
  try {
    const config = await client.getJson(pathOf(getChatbotEndpoint.path, { channelId }), { response: getChatbotEndpoint.response });
    if (useChatbotStore.getState().channelId === channelId) useChatbotStore.setState({ status: 'ready', config, error: null });
  } catch (err) {
    if (useChatbotStore.getState().channelId === channelId) useChatbotStore.setState({ status: 'failed', error: messageOf(err) });
  }
}

/** The sections saved whole (PUT), by the name the page uses. */
const sectionEndpoints = {
  'timer-settings': updateChatbotTimerSettingsEndpoint,
  alerts: updateChatbotAlertsEndpoint,
  'link-preview': updateChatbotLinkPreviewEndpoint,
  extras: updateChatbotExtrasEndpoint,
  filters: updateChatbotFiltersEndpoint,
  'warning-levels': updateChatbotWarningLevelsEndpoint,
  moderation: updateChatbotModerationEndpoint,
  loyalty: updateChatbotLoyaltyEndpoint,
  ranks: updateChatbotRanksEndpoint,
} as const;
export type ChatbotSectionName = keyof typeof sectionEndpoints;

export async function saveChatbotSection(channelId: string, section: ChatbotSectionName, body: unknown, client: HttpClient = httpClient): Promise<FormResult> {
  const endpoint = sectionEndpoints[section];
  try {
    const config = (await client.sendJson('PUT', pathOf(endpoint.path, { channelId }), body, { response: endpoint.response })) as ChatbotConfig;
    useChatbotStore.setState({ config });
    return { ok: true };
  } catch (err) {
    return failed(err);
  }
}

export async function setChatbotEnabled(channelId: string, enabled: boolean, client: HttpClient = httpClient): Promise<FormResult> {
  try {
    const connection = await client.sendJson('PUT', pathOf(updateChatbotConnectionEndpoint.path, { channelId }), { enabled }, { response: updateChatbotConnectionEndpoint.response });
    const config = useChatbotStore.getState().config;
    if (config) useChatbotStore.setState({ config: { ...config, connection } });
    return { ok: true };
  } catch (err) {
    return failed(err);
  }
}

/** The lists of the page, each with its create (and update) and remove. */
const lists = {
  commands: chatbotCommandEndpoints,
  timers: chatbotTimerEndpoints,
  quotes: chatbotQuoteEndpoints,
  'ignored-users': chatbotIgnoredUserEndpoints,
  regulars: chatbotRegularEndpoints,
} as const;
export type ChatbotListName = keyof typeof lists;

/** Adds an item (or changes it, given its id); the page is read again after. */
export async function saveChatbotItem(channelId: string, list: ChatbotListName, body: unknown, itemId?: string, client: HttpClient = httpClient): Promise<FormResult> {
  const endpoints = lists[list];
  // The answer is the item; the page is read again whole, so any object will do here.
  const anItem: ResponseSchema<unknown> = { safeParse: (data) => (typeof data === 'object' && data !== null ? { success: true, data } : { success: false, error: { message: 'expected an item' } }) };
  try {
    if (itemId && endpoints.update) await client.sendJson('PUT', pathOf(endpoints.update.path, { channelId, itemId }), body, { response: anItem });
    else await client.sendJson('POST', pathOf(endpoints.create.path, { channelId }), body, { response: anItem });
    await loadChatbot(channelId, client);
    return { ok: true };
  } catch (err) {
    return failed(err);
  }
}

export async function removeChatbotItem(channelId: string, list: ChatbotListName, itemId: string, client: HttpClient = httpClient): Promise<FormResult> {
  try {
    await client.sendJson('DELETE', pathOf(lists[list].remove.path, { channelId, itemId }), undefined, { response: noContent });
    await loadChatbot(channelId, client);
    return { ok: true };
  } catch (err) {
    return failed(err);
  }
}
