import { chatTextValid, CHAT_MESSAGE_MAX, type ChatMessage, type ClientMessage, type ServerMessage } from '@onair/protocol';
import { initialChatState, useChatStore } from '../stores/index.ts';

type ChatServerMessage = Extract<ServerMessage, { type: 'chat.messages' | 'chat.destinations' | 'chat.history' }>;

/** How many messages the panel keeps; older ones leave it (the server keeps the history). */
const KEEP = 500;

let sendOnSocket: ((message: ClientMessage) => void) | null = null;

/** The studio's live channel opened for a project: chat requests go through it. */
export function attachChat(projectId: string, send: (message: ClientMessage) => void): void {
  if (useChatStore.getState().projectId !== projectId) useChatStore.setState({ ...initialChatState(), projectId, viewing: useChatStore.getState().viewing });
  sendOnSocket = send;
  // Spec §4: a studio that opens (or comes back after a lost connection) asks for the history.
  send({ type: 'chat.history.request', projectId });
}

/**
 * A destination changed (connected again, its access lost, added, removed): the chats and their
 * states are asked again, since a chat that is not running says nothing by itself.
 */
export function refreshChatDestinations(): void {
  const { projectId } = useChatStore.getState();
  if (projectId && sendOnSocket) sendOnSocket({ type: 'chat.history.request', projectId });
}

export function detachChat(): void {
  sendOnSocket = null;
  useChatStore.setState({ ...initialChatState(), viewing: useChatStore.getState().viewing });
}

function merge(existing: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  const byId = new Map(existing.map((m, i) => [m.id, i]));
  const out = [...existing];
  let appended = false;
  for (const m of incoming) {
    const at = byId.get(m.id);
    if (at !== undefined) out[at] = m;
    else {
      byId.set(m.id, out.length);
      out.push(m);
      appended = true;
    }
  }
  if (appended) out.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
  return out.length > KEEP ? out.slice(out.length - KEEP) : out;
}

/** Keeps the To selection to chats that can send (and picks them all when nothing is chosen yet). */
function targetsFor(destinations: ChatState['destinations'], current: string[]): string[] {
  const sendable = destinations.filter((d) => d.canSend).map((d) => d.id);
  const kept = current.filter((id) => sendable.includes(id));
  return kept.length > 0 ? kept : sendable;
}

type ChatState = ReturnType<typeof useChatStore.getState>;

export function receiveChatMessage(message: ChatServerMessage): void {
  const state = useChatStore.getState();
  if (state.projectId !== message.projectId) return;
  switch (message.type) {
    case 'chat.history':
      useChatStore.setState({
        live: message.live,
        destinations: message.destinations,
        messages: merge([], message.messages),
        targets: targetsFor(message.destinations, state.targets),
        loaded: true,
      });
      return;
    case 'chat.destinations': {
      const ids = message.destinations.map((d) => d.id);
      const filter = state.filter?.filter((id) => ids.includes(id)) ?? null;
      useChatStore.setState({
        live: message.live,
        destinations: message.destinations,
        targets: targetsFor(message.destinations, state.targets),
        filter: filter && filter.length > 0 && filter.length < ids.length ? filter : null,
      });
      return;
    }
    case 'chat.messages':
      useChatStore.setState({
        messages: merge(state.messages, message.messages),
        unread: state.unread || (!state.viewing && message.messages.some((m) => !state.messages.some((e) => e.id === m.id))),
      });
      return;
  }
}

/** Spec §4: unread is cleared when the chat is viewed. */
export function setChatViewing(viewing: boolean): void {
  useChatStore.setState(viewing ? { viewing, unread: false } : { viewing });
}

/**
 * Spec §5 filter: clicking a destination shows or hides it; at least one stays shown, and showing
 * every one is no filter at all.
 */
export function toggleChatFilter(destinationId: string): void {
  const { filter, destinations } = useChatStore.getState();
  const all = destinations.map((d) => d.id);
  const shown = filter ?? all;
  const next = shown.includes(destinationId) ? shown.filter((id) => id !== destinationId) : [...shown, destinationId];
  if (next.length === 0) return;
  useChatStore.setState({ filter: all.every((id) => next.includes(id)) ? null : next });
}

/** The All button: every chat shown again. */
export function showAllChats(): void {
  useChatStore.setState({ filter: null });
}

/** The To selector: a chat that can send is added or removed; at least one stays chosen. */
export function toggleChatTarget(destinationId: string): void {
  const { targets, destinations } = useChatStore.getState();
  if (!destinations.some((d) => d.id === destinationId && d.canSend)) return;
  const next = targets.includes(destinationId) ? targets.filter((id) => id !== destinationId) : [...targets, destinationId];
  if (next.length === 0) return;
  useChatStore.setState({ targets: next });
}

export function setChatTargetsToAll(): void {
  const { destinations } = useChatStore.getState();
  useChatStore.setState({ targets: destinations.filter((d) => d.canSend).map((d) => d.id) });
}

export function setChatDraft(draft: string): void {
  useChatStore.setState({ draft, sendError: null });
}

/** Spec §5: sends the trimmed draft (1–200 characters) to the chosen chats; Enter calls this. */
export function sendChat(): boolean {
  const { projectId, draft, targets, live } = useChatStore.getState();
  if (!projectId || !sendOnSocket) return false;
  if (!live) {
    useChatStore.setState({ sendError: 'Start the stream to use the chat' });
    return false;
  }
  if (!chatTextValid(draft)) {
    useChatStore.setState({ sendError: draft.trim().length > CHAT_MESSAGE_MAX ? `A chat message holds at most ${CHAT_MESSAGE_MAX} characters.` : null });
    return false;
  }
  if (targets.length === 0) {
    useChatStore.setState({ sendError: 'Choose a chat to send to.' });
    return false;
  }
  sendOnSocket({ type: 'chat.send', projectId, text: draft.trim(), targets });
  useChatStore.setState({ draft: '', sendError: null });
  return true;
}

/** A refusal of a send (the server's words), shown under the message box. */
export function receiveChatError(message: string): void {
  useChatStore.setState({ sendError: message });
}
