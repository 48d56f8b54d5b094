import { getLocalStreamEndpoint, rotateLocalStreamEndpoint } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { useLocalStreamStore, type LocalWatchState } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/** Loads where a Local destination's stream can be watched (its address and the Watch player), when its card shows. */
export async function loadLocalStream(projectId: string, destinationId: string, client: HttpClient = httpClient): Promise<void> {
  const put = (entry: Parameters<typeof setEntry>[1]) => setEntry(destinationId, entry);
  const known = useLocalStreamStore.getState().streams[destinationId];
  if (!known || known.status === 'error') put({ status: 'loading', view: known?.view ?? null, error: null });
  try {
    const view = await call(getLocalStreamEndpoint, { params: { projectId, destinationId } }, client);
    put({ status: 'ready', view, error: null });
  } catch (err) {
    put({ status: 'error', view: null, error: messageOf(err) });
  }
}

function setEntry(destinationId: string, entry: ReturnType<typeof useLocalStreamStore.getState>['streams'][string]): void {
  useLocalStreamStore.setState((s) => ({ streams: { ...s.streams, [destinationId]: entry } }));
}

export function toggleLocalStreamShown(destinationId: string): void {
  useLocalStreamStore.setState((s) => ({ shown: { ...s.shown, [destinationId]: !s.shown[destinationId] } }));
}

/**
 * Gives the Local destination a new stream name: whoever had the old address can no longer watch.
 * The api refuses while the project is live (the running stream keeps its name until it ends).
 */
export async function rotateLocalStream(projectId: string, destinationId: string, client: HttpClient = httpClient): Promise<void> {
  try {
    const view = await call(rotateLocalStreamEndpoint, { params: { projectId, destinationId } }, client);
    setEntry(destinationId, { status: 'ready', view, error: null });
    showToast({ kind: 'success', title: 'New Local address', description: 'The old address no longer plays anything.' });
  } catch (err) {
    showToast({ kind: 'error', title: 'The address was not changed', description: messageOf(err) });
  }
}

/** Copies the address with its stream name; spec §8 'Failed to copy to clipboard' when the browser refuses. */
export async function copyLocalStreamAddress(destinationId: string): Promise<void> {
  const view = useLocalStreamStore.getState().streams[destinationId]?.view;
  if (!view) return;
  try {
    await navigator.clipboard.writeText(view.playUrl);
    showToast({ kind: 'success', title: 'Local address copied', description: 'Open it in a player such as VLC or ffplay.' });
  } catch {
    showToast({ kind: 'error', title: 'Failed to copy to clipboard' });
  }
}

export function openLocalWatch(destinationId: string): void {
  useLocalStreamStore.setState({ watch: { destinationId, state: 'connecting', error: null } });
}

export function closeLocalWatch(): void {
  useLocalStreamStore.setState({ watch: null });
}

/** The player's own report (hls.js events): playing, nothing live yet, or why it cannot play. */
export function setLocalWatchState(destinationId: string, state: LocalWatchState, error: string | null = null): void {
  const { watch } = useLocalStreamStore.getState();
  if (watch?.destinationId !== destinationId || (watch.state === state && watch.error === error)) return;
  useLocalStreamStore.setState({ watch: { destinationId, state, error } });
}

/** Forgets the studio's Local streams (the studio closed). */
export function closeLocalStreams(): void {
  useLocalStreamStore.setState({ streams: {}, shown: {}, watch: null });
}
