import { getIngestEndpoint, regenerateIngestKeyEndpoint, setAutoLiveEndpoint, type ConsoleKind, type ServerMessage } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { initialIngestState, useIngestStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

function projectIdOrThrow(): string {
  const { projectId } = useIngestStore.getState();
  if (!projectId) throw new Error('no project open');
  return projectId;
}

/** Loads the project's ingest (address, key, Auto Live, the feed's state); when the studio opens and after a reconnect. */
export async function loadIngest(projectId: string, client: HttpClient = httpClient): Promise<void> {
  if (useIngestStore.getState().projectId !== projectId) useIngestStore.setState({ ...initialIngestState(), projectId, status: 'loading' });
  try {
    const view = await call(getIngestEndpoint, { params: { projectId } }, client);
    if (useIngestStore.getState().projectId !== projectId) return;
    useIngestStore.setState({ status: 'ready', error: null, view });
  } catch (err) {
    if (useIngestStore.getState().projectId !== projectId) return;
    useIngestStore.setState({ status: 'error', error: messageOf(err) });
  }
}

export function closeIngest(): void {
  useIngestStore.setState(initialIngestState());
}

export async function setAutoLive(enabled: boolean, client: HttpClient = httpClient): Promise<void> {
  const projectId = projectIdOrThrow();
  useIngestStore.setState({ switching: true });
  try {
    const view = await call(setAutoLiveEndpoint, { params: { projectId }, body: { enabled } }, client);
    useIngestStore.setState({ view });
  } catch (err) {
    showToast({ kind: 'error', title: enabled ? 'Auto Live was not turned on' : 'Auto Live was not turned off', description: messageOf(err) });
  } finally {
    useIngestStore.setState({ switching: false });
  }
}

export async function regenerateIngestKey(client: HttpClient = httpClient): Promise<void> {
  const projectId = projectIdOrThrow();
  useIngestStore.setState({ regenerating: true });
  try {
    const view = await call(regenerateIngestKeyEndpoint, { params: { projectId } }, client);
    useIngestStore.setState({ view, keyShown: true });
    showToast({ kind: 'success', title: 'New stream key', description: 'Put it in your encoder: the old key no longer works.' });
  } catch (err) {
    showToast({ kind: 'error', title: 'The key was not replaced', description: messageOf(err) });
  } finally {
    useIngestStore.setState({ regenerating: false });
  }
}

export function toggleIngestKeyShown(): void {
  useIngestStore.setState((s) => ({ keyShown: !s.keyShown }));
}

/** Copies an address or the key; spec §8 'Failed to copy to clipboard' when the browser refuses. */
export async function copyIngestText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    showToast({ kind: 'success', title: `${what} copied` });
  } catch {
    showToast({ kind: 'error', title: 'Failed to copy to clipboard' });
  }
}

/** The Auto Live, encoder and console settings: set up once, so they open on demand instead of taking the column's room. */
export function openIngestSettings(): void {
  useIngestStore.setState({ settingsOpen: true });
}

export function closeIngestSettings(): void {
  useIngestStore.setState({ settingsOpen: false });
}

export function openConsoleGuide(kind: ConsoleKind): void {
  useIngestStore.setState({ guide: kind });
}

export function closeConsoleGuide(): void {
  useIngestStore.setState({ guide: null });
}

/** Opens a guide link (Watch Tutorial, Help Center) in a new tab. */
export function openGuideLink(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

/** `/ws`: the ingest's state (a feed arrived, dropped, Auto Live switched) and the worker's view of the feed. */
export function receiveIngestMessage(message: Extract<ServerMessage, { type: 'ingest.status' | 'ingest.feed' }>): void {
  const { projectId, view } = useIngestStore.getState();
  if (projectId !== message.projectId || !view) return;
  if (message.type === 'ingest.status') useIngestStore.setState({ view: { ...view, status: message.status, autoLive: message.autoLive } });
  else useIngestStore.setState({ view: { ...view, feed: message.feed } });
}
