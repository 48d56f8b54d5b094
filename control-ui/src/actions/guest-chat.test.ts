import { afterEach, describe, expect, it } from 'vitest';
import type { GuestChatMessage } from '@onair/protocol';
import { initialGuestsState, useGuestsStore, useToastStore } from '../stores/index.ts';
import { receiveGuestEvent, setGuestChatViewed } from './guest-chat.ts';

const projectId = '00000000-0000-4000-8000-0000000000aa';
const message = (id: string): GuestChatMessage => ({
  id,
  projectId,
  sender: 'g',
  displayName: 'Grace',
  role: 'guest',
  content: 'hi',
  timestamp: '2026-11-25T10:00:00.000Z',
});

afterEach(() => {
  useGuestsStore.setState(initialGuestsState());
  useToastStore.setState({ toasts: [] });
});

describe('Guest Chat unread (spec §4 "Chat")', () => {
  it('is set when a message arrives while the chat is not shown, and cleared when it is shown', () => {
    useGuestsStore.setState({ projectId });
    receiveGuestEvent({ type: 'guest.chat', projectId, message: message('00000000-0000-4000-8000-000000000001') });
    expect(useGuestsStore.getState().unread).toBe(true);
    setGuestChatViewed(true);
    expect(useGuestsStore.getState().unread).toBe(false);
    receiveGuestEvent({ type: 'guest.chat', projectId, message: message('00000000-0000-4000-8000-000000000002') });
    // The same message twice (the send's answer and the live channel) is kept once.
    receiveGuestEvent({ type: 'guest.chat', projectId, message: message('00000000-0000-4000-8000-000000000002') });
    expect(useGuestsStore.getState()).toMatchObject({ unread: false });
    expect(useGuestsStore.getState().chat).toHaveLength(2);
  });

  it("ignores another project's room events", () => {
    useGuestsStore.setState({ projectId });
    receiveGuestEvent({ type: 'guest.chat', projectId: '00000000-0000-4000-8000-0000000000bb', message: message('00000000-0000-4000-8000-000000000003') });
    expect(useGuestsStore.getState().chat).toEqual([]);
  });
});

describe('a guest arriving (issue 52)', () => {
  const guest = (id: string, displayName: string) => ({ id, displayName, joinedAt: '2026-11-25T10:00:00.000Z', byRevokedLink: false });
  const ada = guest('00000000-0000-4000-8000-0000000000a1', 'Ada');
  const grace = guest('00000000-0000-4000-8000-0000000000a2', 'Grace');

  it('is announced by name in the studio, once the room was known', () => {
    useGuestsStore.setState({ projectId });
    // The first list is who was there already.
    receiveGuestEvent({ type: 'guests.changed', projectId, guests: [ada], maximum: 2 });
    expect(useToastStore.getState().toasts).toHaveLength(0);
    receiveGuestEvent({ type: 'guests.changed', projectId, guests: [ada, grace], maximum: 2 });
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual(['Grace joined']);
    // Leaving is not an arrival.
    receiveGuestEvent({ type: 'guests.changed', projectId, guests: [grace], maximum: 2 });
    expect(useToastStore.getState().toasts).toHaveLength(1);
  });

  it('is not announced on the guest page', () => {
    useGuestsStore.setState({ projectId, asGuest: true, maximum: 2 });
    receiveGuestEvent({ type: 'guests.changed', projectId, guests: [ada], maximum: 2 });
    expect(useToastStore.getState().toasts).toHaveLength(0);
  });
});
