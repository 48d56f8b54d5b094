// The guest's own page (spec §2 Routes, Camera Settings panel): the link checked, the guest
// session joined and left, and the page's own socket on the room.
import { checkGuestLinkEndpoint, GUEST_SOCKET_QUERY, joinAsGuestEndpoint, leaveAsGuestEndpoint, WS_PATH } from '@onair/protocol';
import { call } from '../api/call.ts';
import { connectStudioSocket, type StudioSocket } from '../api/studio-socket.ts';
import { browserStorage, initialGuestsState, useGuestsStore, type GuestPageStep } from '../stores/index.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import { stopCameraPreviews } from './devices.ts';
import { guestHttpClient, loadGuestChat } from './guest-chat.ts';
import { enterRoom, leaveRoom, receiveRoomError } from './media.ts';
import { projectMessageRouter, type ProjectSocket } from './server-messages.ts';
import { showToast } from './toasts.ts';

let guestSocket: StudioSocket | null = null;
let guestToken = '';

const refusalTitles: Record<string, string> = {
  GUEST_LINK_INVALID: 'This guest link does not work',
  GUEST_LINK_REVOKED: 'This guest link was replaced',
  GUEST_LINK_EXPIRED: 'This guest link has expired',
  GUEST_LIMIT_REACHED: 'This studio is full',
  RATE_LIMITED: 'Too many attempts',
};

function refusal(err: unknown): GuestPageStep {
  const error = apiErrorOf(err);
  // A studio whose plan has no guests is not 'full': it never takes any.
  if (error?.code === 'GUEST_LIMIT_REACHED' && (error.details as { maximum?: number } | undefined)?.maximum === 0)
    return { kind: 'refused', title: 'This studio does not take guests', message: messageOf(err) };
  return { kind: 'refused', title: (error && refusalTitles[error.code]) ?? 'You cannot join right now', message: messageOf(err) };
}

/** A guest opened the link: is it still good, and whose studio is it? */
export async function openGuestPage(projectId: string, token: string | null): Promise<void> {
  closeGuestPage();
  useGuestsStore.setState({ ...initialGuestsState(browserStorage()), projectId, asGuest: true, page: { kind: 'checking' } });
  if (!token) {
    useGuestsStore.setState({ page: { kind: 'refused', title: 'This guest link is incomplete', message: 'Ask the host to send you their guest link again.' } });
    return;
  }
  guestToken = token;
  try {
    const { projectName } = await call(checkGuestLinkEndpoint, { body: { projectId, token } }, guestHttpClient);
    useGuestsStore.setState({ page: { kind: 'settings', projectName } });
  } catch (err) {
    useGuestsStore.setState({ page: refusal(err) });
  }
}

/** Join: a guest session, then the room with camera and microphone, the program preview and Guest Chat. */
export async function joinStudioAsGuest(displayName: string): Promise<void> {
  const { projectId, page } = useGuestsStore.getState();
  if (!projectId || page.kind !== 'settings') return;
  useGuestsStore.setState({ page: { kind: 'joining', projectName: page.projectName } });
  try {
    const joined = await call(joinAsGuestEndpoint, { body: { projectId, token: guestToken, displayName } }, guestHttpClient);
    useGuestsStore.setState({ page: { kind: 'joined', projectName: joined.projectName, guestId: joined.guestId, displayName: joined.displayName } });
    // The panel's previews are done with; the room captures the chosen camera itself.
    stopCameraPreviews();
  } catch (err) {
    const error = apiErrorOf(err);
    // A bad name is the guest's to fix on the same panel; anything else ends the visit with words.
    if (error?.code === 'VALIDATION_FAILED') {
      useGuestsStore.setState({ page: { kind: 'settings', projectName: page.projectName } });
      showToast({ kind: 'error', title: 'Check your name', description: error.message });
    } else {
      useGuestsStore.setState({ page: refusal(err) });
    }
    return;
  }
  void loadGuestChat(projectId);
  connectAsGuest(projectId);
}

function connectAsGuest(projectId: string): void {
  const { protocol, host } = globalThis.location;
  const context: ProjectSocket = { projectId, client: guestHttpClient, send: (m) => guestSocket?.send(m) };
  guestSocket = connectStudioSocket(
    {
      onOpen: () => guestSocket?.send({ type: 'subscribe', projectId }),
      onMessage: (message) => routeGuestMessage(message, context),
      onClose: () => undefined,
    },
    `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${WS_PATH}?${GUEST_SOCKET_QUERY}`,
  );
}

/** The guest page's socket: the table's rows for the guest page, and what only it does (server-messages.ts). */
const routeGuestMessage = projectMessageRouter('guest', {
  subscribed: (_message, { projectId, send }) => enterRoom(projectId, send),
  error(message) {
    if (message.code === 'GUEST_SESSION_ENDED') endGuestVisit('ended');
    else receiveRoomError(message);
  },
  // The host removed someone from the room: this page's visit ends if it was this guest.
  'guest.removed'(message) {
    const { projectId, page } = useGuestsStore.getState();
    if (message.projectId === projectId && page.kind === 'joined' && page.guestId === message.guestId) endGuestVisit('removed');
  },
});

/** Leave: the guest session ends on the server, media stops, and the page says so. */
export async function leaveStudioAsGuest(): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (projectId) {
    await call(leaveAsGuestEndpoint, { params: { projectId } }, guestHttpClient).catch(() => undefined);
  }
  endGuestVisit('left');
}

function endGuestVisit(reason: 'left' | 'removed' | 'ended'): void {
  const { page } = useGuestsStore.getState();
  leaveRoom();
  guestSocket?.close();
  guestSocket = null;
  const projectName = 'projectName' in page ? page.projectName : '';
  useGuestsStore.setState({ page: { kind: 'left', projectName, reason } });
}

/** Join again after leaving: back to the Camera Settings panel, if the link still admits guests. */
export async function rejoinAsGuest(): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (projectId) await openGuestPage(projectId, guestToken);
}

export function closeGuestPage(): void {
  if (!useGuestsStore.getState().asGuest) return;
  leaveRoom();
  guestSocket?.close();
  guestSocket = null;
}
