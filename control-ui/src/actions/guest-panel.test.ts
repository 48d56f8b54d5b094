import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialGuestsState, useGuestsStore, useToastStore } from '../stores/index.ts';
import { copyGuestLink, participantAudioOf, setParticipantMuted, setParticipantVolume } from './guest-panel.ts';

const projectId = '00000000-0000-4000-8000-0000000000aa';
const link = {
  code: 'a.b',
  linkUrl: `http://localhost/guest/${projectId}?guestToken=a.b`,
  createdAt: '2026-11-25T10:00:00.000Z',
  expiresAt: '2026-12-25T10:00:00.000Z',
};

afterEach(() => {
  useGuestsStore.setState(initialGuestsState());
  useToastStore.setState({ toasts: [] });
  vi.unstubAllGlobals();
});

describe('Copy Guest Link (spec §2, §8)', () => {
  it("says 'Guest Link Copied' when the clipboard takes the link", async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    useGuestsStore.setState({ projectId, link });
    await copyGuestLink();
    expect(writeText).toHaveBeenCalledWith(link.linkUrl);
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual(['Guest Link Copied']);
  });

  it("says 'Failed to copy to clipboard' when it does not", async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: async () => Promise.reject(new Error('denied')) } });
    useGuestsStore.setState({ projectId, link });
    await copyGuestLink();
    expect(useToastStore.getState().toasts.map((t) => [t.kind, t.title])).toEqual([['error', 'Failed to copy to clipboard']]);
    expect(useGuestsStore.getState().linkBusy).toBeNull();
  });
});

describe('participant audio (spec §3, §5)', () => {
  it('remembers volume and mute per participant; moving the volume unmutes', () => {
    setParticipantMuted('guest-1', true, null);
    expect(participantAudioOf('guest-1')).toEqual({ volume: 1, muted: true });
    setParticipantVolume('guest-1', 0.37, null);
    expect(participantAudioOf('guest-1')).toEqual({ volume: 0.37, muted: false });
    expect(participantAudioOf('guest-2')).toEqual({ volume: 1, muted: false });
  });
});
