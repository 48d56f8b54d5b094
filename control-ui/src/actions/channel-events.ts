import { listChannelEventsEndpoint, type LiveEvent } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { initialChannelEventsState, useChannelEventsStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';

/** How often the open feed asks for new events. */
export const CHANNEL_EVENTS_REFRESH_MS = 10_000;
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

/** New events since the newest shown: on top, or queued while paused. */
export async function refreshChannelEvents(client: HttpClient = httpClient): Promise<void> {
  const { channelId, types } = useChannelEventsStore.getState();
  if (!channelId) return;
  const asked = latest;
  try {
    const page = await call(listChannelEventsEndpoint, { params: { channelId }, query: query(types) }, client);
    if (asked !== latest) return;
    const state = useChannelEventsStore.getState();
    const known = new Set([...state.events, ...state.queued].map((e) => e.id));
    const fresh = page.events.filter((e) => !known.has(e.id));
    if (fresh.length === 0) return;
    useChannelEventsStore.setState(state.paused ? { queued: [...fresh, ...state.queued] } : { events: [...fresh, ...state.events] });
  } catch {
    // The next refresh tries again; what is shown stays.
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
