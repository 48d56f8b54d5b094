// The guest room as both sides see it: Guest Chat and the room's events, read by the host's studio
// and by the guest page alike.
import { GUEST_REQUEST_HEADER, listGuestChatEndpoint, sendGuestChatEndpoint, type ServerMessage } from '@onair/protocol';
import { call } from '../api/call.ts';
import { createHttpClient, httpClient, type HttpClient } from '../api/http-client.ts';
import { useGuestsStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/** The guest page's requests act as the guest of its guest session, even in a browser signed in to an account. */
export const guestHttpClient = createHttpClient({ headers: { [GUEST_REQUEST_HEADER]: '1' } });

/** The guest page asks as its guest; the studio as the signed-in host. */
export function roomClient(): HttpClient {
  return useGuestsStore.getState().asGuest ? guestHttpClient : httpClient;
}

// ─── Guest Chat (spec §2 side panel tab, §5 validation) ───

export async function loadGuestChat(projectId: string): Promise<void> {
  try {
    const { messages } = await call(listGuestChatEndpoint, { params: { projectId } }, roomClient());
    if (useGuestsStore.getState().projectId === projectId) useGuestsStore.setState({ chat: messages, chatError: null });
  } catch (err) {
    useGuestsStore.setState({ chatError: messageOf(err) });
  }
}

/** Sends a message to everyone in the room; true when it was accepted (the input then clears). */
export async function sendGuestChat(content: string): Promise<boolean> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return false;
  useGuestsStore.setState({ sending: true, chatError: null });
  try {
    const message = await call(sendGuestChatEndpoint, { params: { projectId }, body: { content } }, roomClient());
    addChatMessage(message);
    return true;
  } catch (err) {
    useGuestsStore.setState({ chatError: messageOf(err) });
    return false;
  } finally {
    useGuestsStore.setState({ sending: false });
  }
}

function addChatMessage(message: Extract<ServerMessage, { type: 'guest.chat' }>['message']): void {
  const { chat, chatViewed } = useGuestsStore.getState();
  if (chat.some((m) => m.id === message.id)) return;
  useGuestsStore.setState({ chat: [...chat, message], unread: !chatViewed });
}

/** The Guest Chat tab is shown (or not): showing it clears unread. */
export function setGuestChatViewed(viewed: boolean): void {
  useGuestsStore.setState(viewed ? { chatViewed: true, unread: false } : { chatViewed: false });
}

/** Room events from the live channel, on the studio and on the guest page (the guest page ends its own visit on guest.removed). */
export function receiveGuestEvent(message: Extract<ServerMessage, { type: 'guest.chat' | 'guests.changed' | 'guest.refused' }>): void {
  const { projectId, asGuest } = useGuestsStore.getState();
  if (message.projectId !== projectId) return;
  switch (message.type) {
    case 'guest.chat':
      addChatMessage(message.message);
      return;
    case 'guests.changed': {
      const before = useGuestsStore.getState();
      useGuestsStore.setState({ guests: message.guests, maximum: message.maximum });
      // Issue 52: the studio says who arrived (a toast, read by screen readers), wherever the host is
      // looking. Only once the room was known: a first list is who was there already.
      if (asGuest || before.maximum === undefined) return;
      const known = new Set(before.guests.map((g) => g.id));
      for (const guest of message.guests.filter((g) => !known.has(g.id)))
        showToast({ kind: 'info', title: `${guest.displayName || 'A guest'} joined`, description: 'Add them to the scene from the Guests tab.' });
      return;
    }
    case 'guest.refused':
      showToast({ kind: 'warning', title: 'A guest could not join', description: message.message });
      return;
  }
}
