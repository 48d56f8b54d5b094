import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import type { StudioSocketHandlers } from '../api/studio-socket.ts';
import { initialChannelEventsState, useChannelEventsStore } from '../stores/index.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { followChannelEvents, toggleChannelEventsPaused } from './channel-events.ts';

const CHANNEL = 'owner-user-id';
const event = (n: number, type: LiveEvent['type'] = 'follow'): LiveEvent => ({
  id: `00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
  projectId: '00000000-0000-4000-8000-0000000000ff',
  type,
  platform: 'twitch',
  platformUsername: `viewer${n}`,
  platformCreatedAt: `2026-12-07T20:0${n}:00.000Z`,
  avatar: null,
  value: null,
  data: {},
});

let server: TestServer | undefined;
let page: LiveEvent[] = [];
let asked = 0;

beforeEach(async () => {
  useChannelEventsStore.setState({ ...initialChannelEventsState(), channelId: CHANNEL, events: [event(1)] });
  page = [];
  asked = 0;
  server = await startTestServer((_req, res) => {
    asked += 1;
    sendJson(res, 200, { events: page, nextCursor: null });
  });
});
afterEach(async () => {
  await server?.close();
});

function follow() {
  let handlers: StudioSocketHandlers | undefined;
  const sent: unknown[] = [];
  let closed = false;
  const stop = followChannelEvents(CHANNEL, createHttpClient({ baseUrl: server!.baseUrl }), (h) => {
    handlers = h;
    return { send: (m) => void sent.push(m), close: () => void (closed = true) };
  });
  return { handlers: () => handlers!, sent, stop, closed: () => closed };
}

describe('the partner events feed, live over /ws (no polling)', () => {
  it('watches the channel when the socket opens, and shows pushed events at once, newest first, each once', () => {
    const feed = follow();
    feed.handlers().onOpen();
    expect(feed.sent).toEqual([{ type: 'channel.watch', channelId: CHANNEL }]);
    feed.handlers().onMessage({ type: 'channel.events.new', channelId: CHANNEL, events: [event(2), event(3)] });
    feed.handlers().onMessage({ type: 'channel.events.new', channelId: CHANNEL, events: [event(3)] });
    feed.handlers().onMessage({ type: 'channel.events.new', channelId: 'another-channel', events: [event(4)] });
    expect(useChannelEventsStore.getState().events.map((e) => e.platformUsername)).toEqual(['viewer3', 'viewer2', 'viewer1']);
    expect(asked).toBe(0);
    feed.stop();
    expect(feed.closed()).toBe(true);
  });

  it('queues pushed events while paused and keeps to the chosen type', () => {
    useChannelEventsStore.setState({ types: ['sub'] });
    const feed = follow();
    feed.handlers().onOpen();
    toggleChannelEventsPaused();
    feed.handlers().onMessage({ type: 'channel.events.new', channelId: CHANNEL, events: [event(2, 'sub'), event(3, 'follow')] });
    expect(useChannelEventsStore.getState().queued.map((e) => e.platformUsername)).toEqual(['viewer2']);
    toggleChannelEventsPaused();
    expect(useChannelEventsStore.getState().events.map((e) => e.platformUsername)).toEqual(['viewer2', 'viewer1']);
  });

  it('after a reconnect watches again and reads what arrived meanwhile', async () => {
    const feed = follow();
    feed.handlers().onOpen();
    page = [event(5), event(1)];
    feed.handlers().onClose(true);
    feed.handlers().onOpen();
    expect(feed.sent).toHaveLength(2);
    await vi.waitFor(() => expect(useChannelEventsStore.getState().events.map((e) => e.platformUsername)).toEqual(['viewer5', 'viewer1']));
    expect(asked).toBe(1);
  });
});
