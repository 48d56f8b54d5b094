import { beforeEach, describe, expect, it } from 'vitest';
import type { ChatDestinationEntry, ChatMessage, ClientMessage } from '@onair/protocol';
import { initialChatState, useChatStore } from '../stores/index.ts';
import { attachChat, receiveChatMessage, sendChat, setChatDraft, setChatViewing, showAllChats, toggleChatFilter, toggleChatTarget } from './platform-chat.ts';

const projectId = '00000000-0000-4000-8000-0000000000aa';
const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'] as const;
const entry = (id: string, platform: ChatDestinationEntry['platform'], canSend: boolean): ChatDestinationEntry => ({
  id,
  canSend,
  platform,
  platformId: null,
  username: null,
  variant: platform === 'twitch' ? 'Twitch' : platform === 'youtube' ? 'YouTube' : 'Facebook',
  name: String(platform),
  state: 'live',
});
const destinations = [entry(ids[0], 'twitch', true), entry(ids[1], 'youtube', true), entry(ids[2], 'facebook', false)];
const message = (id: string, ts: string, over: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  projectId,
  ts,
  direction: 'inbound',
  platform: 'twitch',
  destinationId: ids[0],
  sender: '1',
  displayName: 'viewer',
  avatar: null,
  content: 'hi',
  segments: [{ kind: 'text', value: 'hi' }],
  toDestinations: [],
  deliveries: [],
  private: false,
  ...over,
});

let sent: ClientMessage[] = [];
beforeEach(() => {
  useChatStore.setState(initialChatState());
  sent = [];
  attachChat(projectId, (m) => sent.push(m));
  receiveChatMessage({ type: 'chat.history', projectId, live: true, destinations, messages: [] });
});

describe('platform chat actions', () => {
  it('asks for the history when attached, and targets every chat that can send', () => {
    expect(sent).toEqual([{ type: 'chat.history.request', projectId }]);
    expect(useChatStore.getState().targets).toEqual([ids[0], ids[1]]);
  });

  it('keeps at least one chat shown, and all shown is no filter (spec §5)', () => {
    toggleChatFilter(ids[0]);
    expect(useChatStore.getState().filter).toEqual([ids[1], ids[2]]);
    toggleChatFilter(ids[1]);
    toggleChatFilter(ids[2]);
    expect(useChatStore.getState().filter).toEqual([ids[2]]);
    toggleChatFilter(ids[0]);
    toggleChatFilter(ids[1]);
    expect(useChatStore.getState().filter).toBeNull();
    toggleChatFilter(ids[0]);
    showAllChats();
    expect(useChatStore.getState().filter).toBeNull();
  });

  it('offers only chats that can send as targets, and keeps one', () => {
    toggleChatTarget(ids[2]);
    expect(useChatStore.getState().targets).toEqual([ids[0], ids[1]]);
    toggleChatTarget(ids[0]);
    toggleChatTarget(ids[1]);
    expect(useChatStore.getState().targets).toEqual([ids[1]]);
  });

  it('sends the trimmed text to the chosen chats, and nothing outside 1–200 characters', () => {
    setChatDraft('   ');
    expect(sendChat()).toBe(false);
    setChatDraft('x'.repeat(201));
    expect(sendChat()).toBe(false);
    expect(useChatStore.getState().sendError).toMatch(/at most 200/);
    setChatDraft('  hello  ');
    expect(sendChat()).toBe(true);
    expect(sent.at(-1)).toEqual({ type: 'chat.send', projectId, text: 'hello', targets: [ids[0], ids[1]] });
    expect(useChatStore.getState().draft).toBe('');
  });

  it("refuses to send while not live with the spec's words", () => {
    receiveChatMessage({ type: 'chat.destinations', projectId, live: false, destinations });
    setChatDraft('hello');
    expect(sendChat()).toBe(false);
    expect(useChatStore.getState().sendError).toBe('Start the stream to use the chat');
  });

  it('orders messages by time, replaces an updated one, and marks unread only while not viewed', () => {
    receiveChatMessage({ type: 'chat.messages', projectId, messages: [message('b', '2026-01-01T00:00:02.000Z'), message('a', '2026-01-01T00:00:01.000Z')] });
    expect(useChatStore.getState().messages.map((m) => m.id)).toEqual(['a', 'b']);
    expect(useChatStore.getState().unread).toBe(true);
    setChatViewing(true);
    expect(useChatStore.getState().unread).toBe(false);
    receiveChatMessage({ type: 'chat.messages', projectId, messages: [message('a', '2026-01-01T00:00:01.000Z', { content: 'edited' })] });
    expect(useChatStore.getState().messages.map((m) => m.content)).toEqual(['edited', 'hi']);
    expect(useChatStore.getState().unread).toBe(false);
    setChatViewing(false);
    receiveChatMessage({ type: 'chat.messages', projectId, messages: [message('c', '2026-01-01T00:00:03.000Z')] });
    expect(useChatStore.getState().unread).toBe(true);
  });

  it("ignores another project's messages", () => {
    receiveChatMessage({ type: 'chat.messages', projectId: '00000000-0000-4000-8000-0000000000bb', messages: [message('x', '2026-01-01T00:00:01.000Z')] });
    expect(useChatStore.getState().messages).toEqual([]);
  });
});
