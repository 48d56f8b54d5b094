import { listEventsEndpoint, type LiveEvent, type ServerMessage } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { browserStorage, initialEventsState, useEventsStore, writeEventFilter, type FlagStorage } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';

function readFeed(projectId: string, filter: string[], cursor: string | null, client: HttpClient) {
  // Types the feed does not know are shown as such (`others`); the filter lists only the known ones.
  return call(listEventsEndpoint, { params: { projectId }, query: { types: filter.join(','), others: 'true', ...(cursor ? { cursor } : {}) } }, client);
}

/** Newest first, each id once: `incoming` (newest first) ahead of what is there. */
function merge(incoming: LiveEvent[], existing: LiveEvent[]): LiveEvent[] {
  const seen = new Set<string>();
  const out: LiveEvent[] = [];
  for (const e of [...incoming, ...existing]) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    out.push(e);
  }
  return out;
}

let latestLoad = 0;

/**
 * The feed of the open project (partner spec §7 get-feed), by the types shown: loaded when the studio's
 * live channel is subscribed (again after a reconnect: what arrived meanwhile is merged in).
 */
export async function loadEvents(projectId: string, client: HttpClient = httpClient): Promise<void> {
  const state = useEventsStore.getState();
  if (state.projectId !== projectId) useEventsStore.setState({ ...initialEventsState(browserStorage()), projectId, status: 'loading' });
  else useEventsStore.setState({ status: state.status === 'ready' ? 'ready' : 'loading' });
  const load = ++latestLoad;
  const { filter } = useEventsStore.getState();
  if (filter.length === 0) {
    useEventsStore.setState({ status: 'ready', events: [], nextCursor: null, error: null });
    return;
  }
  try {
    const page = await readFeed(projectId, filter, null, client);
    if (load !== latestLoad || useEventsStore.getState().projectId !== projectId) return;
    const now = useEventsStore.getState();
    if (now.paused) {
      // Paused: what the page brings that is not shown yet waits with the queue (oldest first).
      const known = new Set([...now.events, ...now.queued].map((e) => e.id));
      const fresh = page.events.filter((e) => !known.has(e.id)).reverse();
      useEventsStore.setState({ status: 'ready', error: null, queued: [...now.queued, ...fresh], nextCursor: now.nextCursor ?? page.nextCursor });
      return;
    }
    useEventsStore.setState({
      status: 'ready',
      error: null,
      events: merge(page.events, now.status === 'ready' ? now.events : []),
      nextCursor: page.nextCursor,
    });
  } catch (err) {
    if (load !== latestLoad) return;
    useEventsStore.setState({ status: 'error', error: messageOf(err) });
  }
}

/** The next (older) page of the feed. */
export async function loadMoreEvents(client: HttpClient = httpClient): Promise<void> {
  const { projectId, nextCursor, filter, loadingMore } = useEventsStore.getState();
  if (!projectId || !nextCursor || loadingMore) return;
  useEventsStore.setState({ loadingMore: true });
  try {
    const page = await readFeed(projectId, filter, nextCursor, client);
    if (useEventsStore.getState().projectId !== projectId) return;
    useEventsStore.setState((s) => ({ events: merge(s.events, page.events), nextCursor: page.nextCursor, loadingMore: false }));
  } catch (err) {
    useEventsStore.setState({ loadingMore: false, error: messageOf(err) });
  }
}

/** `events.new` of the live channel: shown at once, or queued while paused (spec §4). */
export function receiveEventsMessage(message: Extract<ServerMessage, { type: 'events.new' }>): void {
  const state = useEventsStore.getState();
  if (state.projectId !== message.projectId) return;
  const known = new Set([...state.events, ...state.queued].map((e) => e.id));
  const fresh = message.events.filter((e) => !known.has(e.id));
  if (fresh.length === 0) return;
  if (state.paused) useEventsStore.setState({ queued: [...state.queued, ...fresh] });
  else useEventsStore.setState({ events: merge([...fresh].reverse(), state.events) });
}

/** Spec §4 pause/play: resuming adds what was queued, in the order it came. */
export function toggleEventsPaused(): void {
  const state = useEventsStore.getState();
  if (!state.paused) {
    useEventsStore.setState({ paused: true });
    return;
  }
  useEventsStore.setState({ paused: false, queued: [], events: merge([...state.queued].reverse(), state.events) });
}

/** Shows or hides a type; the choice is remembered in this browser (spec §9) and the feed is read again. */
export function setEventTypeShown(type: string, shown: boolean, client: HttpClient = httpClient, storage: FlagStorage | undefined = browserStorage()): void {
  const { filter, projectId } = useEventsStore.getState();
  const next = shown ? [...new Set([...filter, type])] : filter.filter((t) => t !== type);
  writeEventFilter(storage, next);
  useEventsStore.setState({ filter: next });
  if (projectId) void loadEvents(projectId, client);
}

export function setEventsPoppedOut(poppedOut: boolean): void {
  useEventsStore.setState({ poppedOut });
}

/** The studio closed: the feed goes (the filter stays remembered). */
export function closeEvents(): void {
  latestLoad += 1;
  useEventsStore.setState(initialEventsState(browserStorage()));
}
