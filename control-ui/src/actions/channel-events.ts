import { listChannelEventsEndpoint, type ChannelEventsServerMessage, type LiveEvent } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { connectStudioSocket, type StudioSocket, type StudioSocketHandlers } from '../api/studio-socket.ts';
import { initialChannelEventsState, useChannelEventsStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';

const PAGE = 50;

// The channel or the filter can change faster than the api answers: only the newest ask lands.
let latest = 0;

const query = (types: string[], cursor?: string) => ({
  limit: PAGE,
  ...(types.length > 0 ? { types: types.join(',') } : {}),
  ...(cursor ? { cursor } : {}),
});

/** The Channel page opens the feed of a channel (or its filter changed): the newest page. */
export async function openChannelEvents(
  channelId: string,
  types: string[] = useChannelEventsStore.getState().types,
  client: HttpClient = httpClient,
): Promise<void> {
  const asked = ++latest;
  if (useChannelEventsStore.getState().channelId !== channelId) useChannelEventsStore.setState({ ...initialChannelEventsState(), channelId });
  useChannelEventsStore.setState({ types, loading: true });
  try {
    const page = await call(listChannelEventsEndpoint, { params: { channelId }, query: query(types) }, client);
    if (asked !== latest) return;
    useChannelEventsStore.setState({ events: page.events, nextCursor: page.nextCursor, queued: [], error: null, loading: false });
  } catch (err) {
    if (asked !== latest) return;
    useChannelEventsStore.setState({ error: messageOf(err), loading: false });
  }
}

/** Newest first, each once: what is not shown or queued yet goes on top, or into the queue while paused (spec §4). */
function addFresh(incoming: LiveEvent[]): void {
  const state = useChannelEventsStore.getState();
  const known = new Set([...state.events, ...state.queued].map((e) => e.id));
  const fresh = incoming.filter((e) => !known.has(e.id));
  if (fresh.length === 0) return;
  useChannelEventsStore.setState(state.paused ? { queued: [...fresh, ...state.queued] } : { events: [...fresh, ...state.events] });
}

/** `channel.events.new` of the live channel: the events of the chosen types, at once (they come oldest first). */
export function receiveChannelEvents(message: ChannelEventsServerMessage): void {
  const { channelId, types } = useChannelEventsStore.getState();
  if (message.channelId !== channelId) return;
  addFresh([...message.events].reverse().filter((e) => types.length === 0 || types.includes(e.type)));
}

/**
 * The feed receives the channel's events live over `/ws`, as the studio's feed does; after a
 * reconnect it reads the newest page again, since what arrived meanwhile is not replayed.
 * Returns the stop.
 */
export function followChannelEvents(
  channelId: string,
  client: HttpClient = httpClient,
  connect: (handlers: StudioSocketHandlers) => StudioSocket = connectStudioSocket,
): () => void {
  let openedBefore = false;
  const socket: StudioSocket = connect({
    onOpen() {
      socket.send({ type: 'channel.watch', channelId });
      if (openedBefore) void refreshChannelEvents(client);
      openedBefore = true;
    },
    onMessage(message) {
      if (message.type === 'channel.events.new') receiveChannelEvents(message);
      else if (message.type === 'error') useChannelEventsStore.setState({ error: message.message });
    },
    onClose() {},
  });
  return () => socket.close();
}

/** New events since the newest shown: on top, or queued while paused. */
export async function refreshChannelEvents(client: HttpClient = httpClient): Promise<void> {
  const { channelId, types } = useChannelEventsStore.getState();
  if (!channelId) return;
  const asked = latest;
  try {
    const page = await call(listChannelEventsEndpoint, { params: { channelId }, query: query(types) }, client);
    if (asked !== latest) return;
    addFresh(page.events);
  } catch {
    // The next reconnect reads again; what is shown stays.
  }
}

export async function loadMoreChannelEvents(client: HttpClient = httpClient): Promise<void> {
  const { channelId, types, nextCursor } = useChannelEventsStore.getState();
  if (!channelId || !nextCursor) return;
  const asked = latest;
  try {
    const page = await call(listChannelEventsEndpoint, { params: { channelId }, query: query(types, nextCursor) }, client);
    if (asked !== latest) return;
    const state = useChannelEventsStore.getState();
    useChannelEventsStore.setState({ events: [...state.events, ...page.events], nextCursor: page.nextCursor });
  } catch (err) {
    useChannelEventsStore.setState({ error: messageOf(err) });
  }
}

/** Spec §4: pause, or resume adding what arrived meanwhile. */
export function toggleChannelEventsPaused(): void {
  const state = useChannelEventsStore.getState();
  if (state.paused) useChannelEventsStore.setState({ paused: false, events: [...state.queued, ...state.events], queued: [] as LiveEvent[] });
  else useChannelEventsStore.setState({ paused: true });
}

export function closeChannelEvents(): void {
  latest++;
  useChannelEventsStore.setState(initialChannelEventsState());
}
