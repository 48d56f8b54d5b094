import {
  cancelRaffleEndpoint,
  drawRaffleEndpoint,
  listRafflesEndpoint,
  openRaffleEndpoint,
  type RaffleInput,
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
} from '@onair/protocol';
import { call, type CallBody } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { fieldErrorsOf } from '../model/partner.ts';
import { useChatbotStore } from '../stores/index.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import type { Failure, Result } from './result.ts';

function failed(err: unknown): Failure {
  const api = apiErrorOf(err);
  const fieldErrors = api?.code === 'VALIDATION_FAILED' ? fieldErrorsOf(api.details) : {};
  return { ok: false, message: api?.code === 'VALIDATION_FAILED' ? (Object.values(fieldErrors)[0] ?? api.message) : messageOf(err), fieldErrors };
}

/** The Chatbot page of a channel: every section and the bot's health. */
export async function loadChatbot(channelId: string, client: HttpClient = httpClient): Promise<void> {
  const state = useChatbotStore.getState();
  if (state.channelId !== channelId) useChatbotStore.setState({ channelId, status: 'loading', config: null, error: null, raffles: null });
  try {
    const config = await call(getChatbotEndpoint, { params: { channelId } }, client);
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

export async function saveChatbotSection<S extends ChatbotSectionName>(
  channelId: string,
  section: S,
  body: CallBody<(typeof sectionEndpoints)[S]>,
  client: HttpClient = httpClient,
): Promise<Result> {
  // The signature ties the body to this section's contract; tsc cannot carry that link through
  // `sectionEndpoints[section]` (a correlated union, TypeScript#30581), so here both are widened to any section.
  const endpoint: (typeof sectionEndpoints)[ChatbotSectionName] = sectionEndpoints[section];
  const sectionBody = body as CallBody<(typeof sectionEndpoints)[ChatbotSectionName]>;
  try {
    const config = await call(endpoint, { params: { channelId }, body: sectionBody }, client);
    useChatbotStore.setState({ config });
    return { ok: true, value: undefined };
  } catch (err) {
    return failed(err);
  }
}

export async function setChatbotEnabled(channelId: string, enabled: boolean, client: HttpClient = httpClient): Promise<Result> {
  try {
    const connection = await call(updateChatbotConnectionEndpoint, { params: { channelId }, body: { enabled } }, client);
    const config = useChatbotStore.getState().config;
    if (config) useChatbotStore.setState({ config: { ...config, connection } });
    return { ok: true, value: undefined };
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
export async function saveChatbotItem<L extends ChatbotListName>(
  channelId: string,
  list: L,
  body: CallBody<(typeof lists)[L]['create']>,
  itemId?: string,
  client: HttpClient = httpClient,
): Promise<Result> {
  // As in saveChatbotSection: the signature ties the body to this list's contract, and tsc cannot
  // carry that link through `lists[list]`, so both are widened to any list here.
  const endpoints: (typeof lists)[ChatbotListName] = lists[list];
  const item = body as CallBody<(typeof lists)[ChatbotListName]['create']>;
  try {
    if (itemId && endpoints.update) await call(endpoints.update, { params: { channelId, itemId }, body: item }, client);
    else await call(endpoints.create, { params: { channelId }, body: item }, client);
    await loadChatbot(channelId, client);
    return { ok: true, value: undefined };
  } catch (err) {
    return failed(err);
  }
}

export async function removeChatbotItem(channelId: string, list: ChatbotListName, itemId: string, client: HttpClient = httpClient): Promise<Result> {
  try {
    await call(lists[list].remove, { params: { channelId, itemId } }, client);
    await loadChatbot(channelId, client);
    return { ok: true, value: undefined };
  } catch (err) {
    return failed(err);
  }
}

/** The channel's giveaways (the running one and the history). */
export async function loadRaffles(channelId: string, client: HttpClient = httpClient): Promise<void> {
  try {
    const { raffles } = await call(listRafflesEndpoint, { params: { channelId } }, client);
    if (useChatbotStore.getState().channelId === channelId) useChatbotStore.setState({ raffles });
  } catch {
    // The list stays as it was; the next poll tries again.
  }
}

/** Opens a giveaway: the bot announces it in chat. */
export async function openRaffle(channelId: string, input: RaffleInput, client: HttpClient = httpClient): Promise<Result> {
  try {
    await call(openRaffleEndpoint, { params: { channelId }, body: input }, client);
    await loadRaffles(channelId, client);
    return { ok: true, value: undefined };
  } catch (err) {
    return failed(err);
  }
}

/** Draws the running giveaway now, or cancels it (points given back). */
export async function closeRaffle(channelId: string, raffleId: string, how: 'draw' | 'cancel', client: HttpClient = httpClient): Promise<Result> {
  try {
    await call(how === 'draw' ? drawRaffleEndpoint : cancelRaffleEndpoint, { params: { channelId, raffleId } }, client);
    await loadRaffles(channelId, client);
    return { ok: true, value: undefined };
  } catch (err) {
    return failed(err);
  }
}
