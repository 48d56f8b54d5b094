import {
  getChatOnScreenEndpoint,
  hideChatOnScreenEndpoint,
  showChatOnScreenEndpoint,
  type ChatOnScreen,
  type ChatOnScreenKind,
  type ServerMessage,
} from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import {
  browserStorage,
  initialChatOnScreenState,
  useChatOnScreenStore,
  writeOnScreenDuration,
  type FlagStorage,
  type OnScreenDuration,
} from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/** Past a message's time, the studio clears it itself if the server's word has not come (its replica gone). */
const END_GRACE_MS = 1500;
let endTimer: ReturnType<typeof setTimeout> | null = null;

function setOnScreen(onScreen: ChatOnScreen | null): void {
  if (endTimer) clearTimeout(endTimer);
  endTimer = null;
  useChatOnScreenStore.setState({ onScreen });
  if (onScreen && onScreen.remainingMs !== null) {
    const { messageId, shownAt } = onScreen;
    endTimer = setTimeout(() => {
      const current = useChatOnScreenStore.getState().onScreen;
      if (current?.messageId === messageId && current.shownAt === shownAt) useChatOnScreenStore.setState({ onScreen: null });
    }, onScreen.remainingMs + END_GRACE_MS);
  }
}

/** The studio opened a project (or its channel came back): what is on screen now, and the overlay's address. */
export async function loadChatOnScreen(projectId: string, client: HttpClient = httpClient): Promise<void> {
  if (useChatOnScreenStore.getState().projectId !== projectId) {
    useChatOnScreenStore.setState({ ...initialChatOnScreenState(browserStorage()), projectId });
  }
  try {
    const view = await call(getChatOnScreenEndpoint, { params: { projectId } }, client);
    if (useChatOnScreenStore.getState().projectId !== projectId) return;
    useChatOnScreenStore.setState({ overlayUrl: view.overlayUrl, onAir: view.onAir ?? null });
    setOnScreen(view.onScreen);
  } catch (err) {
    if (useChatOnScreenStore.getState().projectId === projectId) useChatOnScreenStore.setState({ error: messageOf(err) });
  }
}

export function closeChatOnScreen(): void {
  if (endTimer) clearTimeout(endTimer);
  endTimer = null;
  useChatOnScreenStore.setState(initialChatOnScreenState(browserStorage()));
}

/** Another studio (or this one, or the clock) changed what is on screen. */
export function receiveChatOnScreen(message: Extract<ServerMessage, { type: 'chat.onScreen' }>): void {
  if (useChatOnScreenStore.getState().projectId !== message.projectId) return;
  setOnScreen(message.onScreen);
}

/** The session's pipeline says what it draws over the program now (null: nothing). */
export function receiveChatOnAir(message: Extract<ServerMessage, { type: 'chat.onAir' }>): void {
  if (useChatOnScreenStore.getState().projectId !== message.projectId) return;
  useChatOnScreenStore.setState({ onAir: message.onAir });
}

export function setChatOnScreenDuration(duration: OnScreenDuration, storage: FlagStorage | undefined = browserStorage()): void {
  writeOnScreenDuration(storage, duration);
  useChatOnScreenStore.setState({ duration });
}

/**
 * A click on a message: put on screen (in place of any other), or taken off when it is the one
 * shown. The session's pipeline draws it over the program (no scene changes); the studio says 'On
 * screen' once the pipeline reports it on air (receiveChatOnAir).
 */
export async function toggleChatOnScreen(kind: ChatOnScreenKind, messageId: string, client: HttpClient = httpClient): Promise<void> {
  const { projectId, onScreen, duration, pending } = useChatOnScreenStore.getState();
  if (!projectId || pending) return;
  useChatOnScreenStore.setState({ pending: messageId, error: null });
  try {
    if (onScreen?.messageId === messageId) {
      const view = await call(hideChatOnScreenEndpoint, { params: { projectId }, query: { messageId } }, client);
      setOnScreen(view.onScreen);
      return;
    }
    const view = await call(showChatOnScreenEndpoint, { params: { projectId }, body: { kind, messageId, durationMs: duration } }, client);
    setOnScreen(view.onScreen);
  } catch (err) {
    const error = messageOf(err);
    useChatOnScreenStore.setState({ error });
    showToast({ kind: 'error', title: 'The message could not be shown on screen', description: error });
  } finally {
    useChatOnScreenStore.setState({ pending: null });
  }
}

/** The bar's Take off button: whatever is on screen goes. */
export async function takeChatOffScreen(client: HttpClient = httpClient): Promise<void> {
  const { onScreen } = useChatOnScreenStore.getState();
  if (onScreen) await toggleChatOnScreen(onScreen.kind, onScreen.messageId, client);
}
