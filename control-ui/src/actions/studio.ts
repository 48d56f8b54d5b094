import {
  getCurrentUserEndpoint,
  getProjectEndpoint,
  getResolutionChoicesEndpoint,
  getSceneDocumentEndpoint,
  planEntitlements,
  type CanvasKind,
} from '@onair/protocol';
import { UnauthorizedError } from '../api/http-errors.ts';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { connectStudioSocket, type StudioSocket } from '../api/studio-socket.ts';
import { initialStudioState, useStudioStore, type StudioPanel } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { loadDestinations } from './destinations.ts';
import { loadIngest } from './ingest.ts';
import { enterRoom, leaveRoom, receiveRoomError } from './media.ts';
import { attachChat, detachChat, receiveChatError } from './platform-chat.ts';
import { closeChatOnScreen, loadChatOnScreen } from './chat-on-screen.ts';
import { closeEvents, loadEvents } from './events.ts';
import { closeGuestRoom, openGuestRoom } from './guest-panel.ts';
import { receivePatch, refetchDocument, setConfirmed } from './scene-document.ts';
import { projectMessageRouter, type ProjectSocket } from './server-messages.ts';
import { showToast } from './toasts.ts';

// Kept apart so the scene edits can use them without importing the studio (which opens the guest room).
export { receivePatch, refetchDocument, setConfirmed };

let socket: StudioSocket | null = null;

/**
 * Opens a project in the studio: its scene document, the resolution choices and the caller's plan,
 * then the live channel that brings every other studio's edits.
 */
export async function openStudio(projectId: string, client: HttpClient = httpClient): Promise<void> {
  closeStudio();
  useStudioStore.setState({ ...initialStudioState(), projectId, status: 'loading' });
  try {
    const [user, project, document, resolution] = await Promise.all([
      call(getCurrentUserEndpoint, {}, client),
      call(getProjectEndpoint, { params: { projectId } }, client),
      call(getSceneDocumentEndpoint, { params: { projectId } }, client),
      call(getResolutionChoicesEndpoint, { params: { projectId } }, client),
    ]);
    if (useStudioStore.getState().projectId !== projectId) return;
    useStudioStore.setState({
      status: 'ready',
      project,
      userId: user.id,
      plan: user.role,
      entitlements: planEntitlements[user.role],
      confirmed: document,
      document,
      resolution,
    });
    void openGuestRoom(projectId);
  } catch (err) {
    if (useStudioStore.getState().projectId !== projectId) return;
    useStudioStore.setState(err instanceof UnauthorizedError ? { status: 'unauthenticated' } : { status: 'error', error: messageOf(err) });
    return;
  }
  connect(projectId, client);
}

/** Leaves the studio: the live channel closes and unconfirmed edits are dropped with the page. */
export function closeStudio(): void {
  leaveRoom();
  detachChat();
  closeChatOnScreen();
  closeEvents();
  closeGuestRoom();
  socket?.close();
  socket = null;
  useStudioStore.setState(initialStudioState());
}

function connect(projectId: string, client: HttpClient): void {
  useStudioStore.setState({ connection: 'connecting' });
  const context: ProjectSocket = { projectId, client, send: (m) => socket?.send(m) };
  socket = connectStudioSocket({
    onOpen: () => socket?.send({ type: 'subscribe', projectId }),
    onMessage: (message) => {
      if (useStudioStore.getState().projectId === projectId) routeStudioMessage(message, context);
    },
    onClose: (willRetry) => {
      if (willRetry) useStudioStore.setState({ connection: 'connecting' });
    },
  });
}

/** The studio's socket: the table's rows for the studio, and what only the studio does (server-messages.ts). */
const routeStudioMessage = projectMessageRouter('studio', {
  subscribed(message, { projectId, client, send }) {
    useStudioStore.setState({ connection: 'live' });
    // Edits made while the channel was down are not replayed to us: read them back.
    const confirmed = useStudioStore.getState().confirmed;
    if (confirmed && message.version > confirmed.version) void refetchDocument(client);
    // Destination events missed while the channel was down are not replayed either.
    void loadDestinations(projectId, client);
    void loadIngest(projectId, client);
    // The host's camera and microphone join the session's room (again after a socket reconnect).
    enterRoom(projectId, send);
    // The platform chat: its history, then every new message on this channel.
    attachChat(projectId, send);
    // Chat on screen: the message the program shows now (another host may have put it on).
    void loadChatOnScreen(projectId, client);
    // The events feed: its latest page, then every new event on this channel.
    void loadEvents(projectId, client);
  },
  error(message) {
    if (receiveRoomError(message)) return;
    if (message.code === 'CHAT_NOT_LIVE' || message.code === 'CHAT_TARGET_INVALID') {
      receiveChatError(message.message);
      return;
    }
    showToast({ kind: 'error', title: 'Live updates are unavailable', description: message.message });
  },
  // To the removed guest's own page; the host sees the list change (guests.changed).
  'guest.removed': () => undefined,
});

export function selectLayer(layerId: string | null): void {
  useStudioStore.setState({ selectedLayerId: layerId });
}

/** Shows and edits the horizontal or the vertical canvas of the scenes; the selection stays. */
export function setEditCanvas(canvas: CanvasKind): void {
  useStudioStore.setState({ editCanvas: canvas });
}

export function openPanel(panel: StudioPanel): void {
  useStudioStore.setState({ panel });
}

export function closePanel(): void {
  useStudioStore.setState({ panel: null });
}
