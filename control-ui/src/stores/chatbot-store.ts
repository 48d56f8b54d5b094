import { create } from 'zustand';
import type { ChatbotConfig } from '@onair/protocol';
import type { LoadStatus } from './partner-store.ts';

export interface ChatbotState {
  /** The channel whose Chatbot page is loaded. */
  channelId: string | null;
  status: LoadStatus;
  config: ChatbotConfig | null;
  error: string | null;
}

export function initialChatbotState(): ChatbotState {
  return { channelId: null, status: 'idle', config: null, error: null };
}

export function createChatbotStore() {
  return create<ChatbotState>()(() => initialChatbotState());
}
