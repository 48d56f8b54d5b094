import { beforeEach, describe, expect, it } from 'vitest';
import { EVENT_FILTER_DEFAULT, type LiveEvent } from '@onair/protocol';
import { EVENT_FILTER_STORAGE_KEY, initialEventsState, readEventFilter, useEventsStore } from '../stores/index.ts';
import { receiveEventsMessage, setEventTypeShown, toggleEventsPaused } from './events.ts';

const projectId = '00000000-0000-4000-8000-0000000000aa';
const event = (n: number, type = 'follow'): LiveEvent => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  projectId,
  type,
  platform: 'twitch',
  platformUsername: `user${n}`,
  platformCreatedAt: new Date(Date.UTC(2026, 0, 1, 10, 0, n)).toISOString(),
  avatar: null,
  value: null,
  data: {},
});
/** This browser's storage, as the stores see it. */
const storage = new Map<string, string>();
const localStorage = {
  getItem: (k: string) => storage.get(k) ?? null,
  setItem: (k: string, v: string) => void storage.set(k, v),
  clear: () => storage.clear(),
};
const names = () => useEventsStore.getState().events.map((e) => e.platformUsername);

beforeEach(() => {
  localStorage.clear();
  useEventsStore.setState({ ...initialEventsState(localStorage), projectId, status: 'ready' });
});

describe('events feed', () => {
  it('shows new events newest first, each once', () => {
    receiveEventsMessage({ type: 'events.new', projectId, events: [event(1), event(2)] });
    receiveEventsMessage({ type: 'events.new', projectId, events: [event(2), event(3)] });
    expect(names()).toEqual(['user3', 'user2', 'user1']);
  });

  it('queues what arrives while paused and adds it in order on resume', () => {
    receiveEventsMessage({ type: 'events.new', projectId, events: [event(1)] });
    toggleEventsPaused();
    receiveEventsMessage({ type: 'events.new', projectId, events: [event(2)] });
    receiveEventsMessage({ type: 'events.new', projectId, events: [event(3), event(4)] });
    expect(names()).toEqual(['user1']);
    expect(useEventsStore.getState().queued.map((e) => e.platformUsername)).toEqual(['user2', 'user3', 'user4']);
    toggleEventsPaused();
    expect(names()).toEqual(['user4', 'user3', 'user2', 'user1']);
    expect(useEventsStore.getState().queued).toEqual([]);
  });

  it('ignores events of another project', () => {
    receiveEventsMessage({ type: 'events.new', projectId: '00000000-0000-4000-8000-0000000000bb', events: [event(1)] });
    expect(names()).toEqual([]);
  });

  it('starts from spec §9’s filter and remembers a change in this browser', () => {
    expect(useEventsStore.getState().filter).toEqual([...EVENT_FILTER_DEFAULT]);
    useEventsStore.setState({ projectId: null });
    setEventTypeShown('follow', false, undefined, localStorage);
    setEventTypeShown('host', true, undefined, localStorage);
    expect(JSON.parse(localStorage.getItem(EVENT_FILTER_STORAGE_KEY)!)).toEqual(['twitchRaid', 'twitchCheer', 'sub', 'resub', 'tip', 'charity', 'host']);
    expect(readEventFilter(localStorage)).toEqual(['twitchRaid', 'twitchCheer', 'sub', 'resub', 'tip', 'charity', 'host']);
    localStorage.setItem(EVENT_FILTER_STORAGE_KEY, '{not json');
    expect(readEventFilter(localStorage)).toEqual([...EVENT_FILTER_DEFAULT]);
  });
});
