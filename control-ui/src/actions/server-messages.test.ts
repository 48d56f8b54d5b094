import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProjectSummary, ServerMessage } from '@onair/protocol';
import { httpClient } from '../api/http-client.ts';
import { initialGuestsState, useGuestsStore, useProjectsStore } from '../stores/index.ts';
import { projectMessageRouter, type ProjectSocket } from './server-messages.ts';

const projectId = '00000000-0000-4000-8000-0000000000aa';
const socket: ProjectSocket = { projectId, client: httpClient, send: () => undefined };
const made: ProjectSummary = { id: projectId, name: 'Made elsewhere', resolution: '1080p', version: 0, createdAt: '2026-11-25T10:00:00.000Z' };
const chat: ServerMessage = {
  type: 'guest.chat',
  projectId,
  message: {
    id: '00000000-0000-4000-8000-000000000001',
    projectId,
    sender: 'g',
    displayName: 'Grace',
    role: 'guest',
    content: 'hi',
    timestamp: '2026-11-25T10:00:00.000Z',
  },
};

function router(page: 'studio' | 'guest') {
  const own = { subscribed: vi.fn(), error: vi.fn(), 'guest.removed': vi.fn() };
  return { own, route: projectMessageRouter(page, own) };
}

afterEach(() => {
  useGuestsStore.setState(initialGuestsState());
  useProjectsStore.setState({ projects: [] });
});

describe("the project socket's message table (issue 55)", () => {
  it("gives the page's own messages to the page, with the socket they came on", () => {
    const { own, route } = router('guest');
    const subscribed: ServerMessage = { type: 'subscribed', projectId, version: 3 };
    route(subscribed, socket);
    route({ type: 'error', code: 'GUEST_SESSION_ENDED', message: 'Ended' }, socket);
    expect(own.subscribed).toHaveBeenCalledWith(subscribed, socket);
    expect(own.error).toHaveBeenCalledTimes(1);
    expect(own['guest.removed']).not.toHaveBeenCalled();
  });

  it('shows Guest Chat on both pages', () => {
    for (const page of ['studio', 'guest'] as const) {
      useGuestsStore.setState({ ...initialGuestsState(), projectId });
      router(page).route(chat, socket);
      expect(useGuestsStore.getState().chat).toHaveLength(1);
    }
  });

  it("leaves the studio's messages to the studio", () => {
    const message: ServerMessage = { type: 'projects.changed', change: 'created', project: made };
    router('guest').route(message, socket);
    expect(useProjectsStore.getState().projects).toEqual([]);
    router('studio').route(message, socket);
    expect(useProjectsStore.getState().projects).toEqual([made]);
  });
});
