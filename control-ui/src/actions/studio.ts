import {
  getCurrentUserEndpoint,
  getProjectEndpoint,
  getResolutionChoicesEndpoint,
  getSceneDocumentEndpoint,
  planEntitlements,
  type CanvasKind,
  type ServerMessage,
} from '@onair/protocol';
import { UnauthorizedError } from '../api/http-errors.ts';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { connectStudioSocket, type StudioSocket } from '../api/studio-socket.ts';
import { initialStudioState, useProjectsStore, useStudioStore, type StudioPanel } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { receiveSubscriptionUpdate } from './billing.ts';
import { receiveProjectListChange } from './projects.ts';
import { loadDestinations, receiveDestinationMessage } from './destinations.ts';
import { loadIngest, receiveIngestMessage } from './ingest.ts';
import { enterRoom, leaveRoom, receiveRoomError, receiveRoomMessage } from './media.ts';
import { attachChat, detachChat, receiveChatError, receiveChatMessage, refreshChatDestinations } from './platform-chat.ts';
import { closeChatOnScreen, loadChatOnScreen, receiveChatOnAir, receiveChatOnScreen } from './chat-on-screen.ts';
import { closeEvents, loadEvents, receiveEventsMessage } from './events.ts';
import { receiveGuestEvent } from './guest-chat.ts';
import { closeGuestRoom, openGuestRoom } from './guest-panel.ts';
import { receivePatch, refetchDocument, setConfirmed } from './scene-document.ts';
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
  socket = connectStudioSocket({
    onOpen: () => socket?.send({ type: 'subscribe', projectId }),
    onMessage: (message) => onServerMessage(projectId, message, client),
    onClose: (willRetry) => {
      if (willRetry) useStudioStore.setState({ connection: 'connecting' });
    },
  });
}

function onServerMessage(projectId: string, message: ServerMessage, client: HttpClient): void {
  if (useStudioStore.getState().projectId !== projectId) return;
  switch (message.type) {
    case 'subscribed': {
      useStudioStore.setState({ connection: 'live' });
      // Edits made while the channel was down are not replayed to us: read them back.
      const confirmed = useStudioStore.getState().confirmed;
      if (confirmed && message.version > confirmed.version) void refetchDocument(client);
      // Destination events missed while the channel was down are not replayed either.
      void loadDestinations(projectId, client);
      void loadIngest(projectId, client);
      // The host's camera and microphone join the session's room (again after a socket reconnect).
      enterRoom(projectId, (m) => socket?.send(m));
      // The platform chat: its history, then every new message on this channel.
      attachChat(projectId, (m) => socket?.send(m));
      // Chat on screen: the message the program shows now (another host may have put it on).
      void loadChatOnScreen(projectId, client);
      // The events feed: its latest page, then every new event on this channel.
      void loadEvents(projectId, client);
      return;
    }
    case 'events.new':
      receiveEventsMessage(message);
      return;
    case 'chat.messages':
    case 'chat.destinations':
    case 'chat.history':
      receiveChatMessage(message);
      return;
    case 'chat.onScreen':
      receiveChatOnScreen(message);
      return;
    case 'chat.onAir':
      receiveChatOnAir(message);
      return;
    case 'room.joined':
    case 'room.ready':
    case 'room.waiting':
    case 'room.answer':
    case 'room.state':
    case 'room.tiles':
    case 'room.sendSize':
      receiveRoomMessage(message);
      return;
    case 'guest.chat':
    case 'guests.changed':
    case 'guest.refused':
      receiveGuestEvent(message);
      return;
    case 'guest.removed':
      // To the removed guest's own page; the host sees the list change (guests.changed).
      return;
    case 'destination.event':
    case 'broadcast.state':
    case 'broadcast.health':
      receiveDestinationMessage(message);
      if (message.type === 'destination.event') refreshChatDestinations();
      return;
    case 'ingest.status':
    case 'ingest.feed':
      receiveIngestMessage(message);
      return;
    case 'scene.patched':
      receivePatch(message, client);
      return;
    case 'render.status':
      receiveRenderStatus(message);
      return;
    case 'project.renamed':
      receiveProjectRename(message);
      return;
    case 'projects.changed':
      receiveProjectListChange(message);
      return;
    case 'subscription.updated':
      // The plan changed (checkout, cancel, renew in any tab): the server says what may be picked now.
      receiveSubscriptionUpdate(message);
      void refreshResolutionChoices(projectId, client);
      return;
    case 'error':
      if (receiveRoomError(message)) return;
      if (message.code === 'CHAT_NOT_LIVE' || message.code === 'CHAT_TARGET_INVALID') {
        receiveChatError(message.message);
        return;
      }
      showToast({ kind: 'error', title: 'Live updates are unavailable', description: message.message });
      return;
    case 'ready':
    case 'pong':
      return;
  }
}

async function refreshResolutionChoices(projectId: string, client: HttpClient): Promise<void> {
  const resolution = await call(getResolutionChoicesEndpoint, { params: { projectId } }, client).catch(() => null);
  if (resolution && useStudioStore.getState().projectId === projectId) useStudioStore.setState({ resolution });
}

/** A web page's state from the render workers: the canvas shows why it is not showing, if it is not. */
export function receiveRenderStatus(message: Extract<ServerMessage, { type: 'render.status' }>): void {
  if (useStudioStore.getState().projectId !== message.projectId) return;
  useStudioStore.setState((s) => ({ renders: { ...s.renders, [message.sourceId]: { state: message.state, reason: message.reason ?? null } } }));
}

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

/** Another studio (or this one) renamed the project: the header and the project list follow. */
export function receiveProjectRename(message: Extract<ServerMessage, { type: 'project.renamed' }>): void {
  const { project } = useStudioStore.getState();
  if (project?.id === message.projectId && project.name !== message.name) useStudioStore.setState({ project: { ...project, name: message.name } });
  useProjectsStore.setState((state) => ({ projects: state.projects.map((p) => (p.id === message.projectId ? { ...p, name: message.name } : p)) }));
}
