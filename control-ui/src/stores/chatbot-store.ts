import { create } from 'zustand';
import type { ChatbotConfig, Raffle } from '@onair/protocol';
import type { LoadStatus } from './partner-store.ts';

export interface ChatbotState {
  /** The channel whose Chatbot page is loaded. */
  channelId: string | null;
  status: LoadStatus;
  config: ChatbotConfig | null;
  error: string | null;
  /** Giveaways of the channel, the running one first (issue 40); null until read. */
  raffles: Raffle[] | null;
}

export function initialChatbotState(): ChatbotState {
  return { channelId: null, status: 'idle', config: null, error: null, raffles: null };
}

export function createChatbotStore() {
  return create<ChatbotState>()(() => initialChatbotState());
}
