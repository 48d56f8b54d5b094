import { create } from 'zustand';
import type { ChatDestinationEntry, ChatMessage } from '@onair/protocol';

export interface ChatState {
  projectId: string | null;
  /** The broadcast is live: the chat can be used (spec §4). */
  live: boolean;
  /** The project's chats, with their connectors' states. */
  destinations: ChatDestinationEntry[];
  /** Oldest first, one entry per message id (an outbound one is replaced as its outcomes arrive). */
  messages: ChatMessage[];
  /** Destinations shown; null shows every one (spec §5: selecting all resets to no filter). */
  filter: string[] | null;
  /** Chats a message goes to (the To selector); only chats that can send. */
  targets: string[];
  draft: string;
  /** Newer messages arrived while the panel was not in view. */
  unread: boolean;
  /** The Platform Chat panel is on screen. */
  viewing: boolean;
  /** The history of the broadcast has arrived. */
  loaded: boolean;
  /** Why the last send was refused (not live, no target). */
  sendError: string | null;
}

export function initialChatState(): ChatState {
  return {
    projectId: null,
    live: false,
    destinations: [],
    messages: [],
    filter: null,
    targets: [],
    draft: '',
    unread: false,
    viewing: false,
    loaded: false,
    sendError: null,
  };
}

export function createChatStore() {
  return create<ChatState>()(() => initialChatState());
}
