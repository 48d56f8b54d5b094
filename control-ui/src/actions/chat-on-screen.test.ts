import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isChatOnAir, type ChatOnScreen } from '@onair/protocol';
import { createHttpClient } from '../api/http-client.ts';
import { sendJson, startTestServer, type TestServer } from '../test/http-server.ts';
import { initialChatOnScreenState, useChatOnScreenStore } from '../stores/index.ts';
import { receiveChatOnAir, receiveChatOnScreen, toggleChatOnScreen } from './chat-on-screen.ts';

const projectId = '00000000-0000-4000-8000-0000000000aa';
const messageId = '00000000-0000-4000-8000-0000000000c1';
const overlayUrl = `https://onair.example/overlay/chat-on-screen/${projectId}?key=k&sig=s1`;
const onScreen = (id: string): ChatOnScreen => ({
  kind: 'platform',
  messageId: id,
  platform: 'twitch',
  displayName: 'Kappa_Fan',
  text: '<b>x</b>',
  shownAt: new Date(0).toISOString(),
  remainingMs: 15_000,
});

describe('putting a message on screen', () => {
  let server: TestServer | undefined;
  const requests: { method: string; url: string; body: unknown }[] = [];
  beforeEach(async () => {
    requests.length = 0;
    useChatOnScreenStore.setState({ ...initialChatOnScreenState(), projectId, overlayUrl, duration: 30_000 });
    server = await startTestServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        requests.push({ method: req.method!, url: req.url!, body: raw ? JSON.parse(raw) : undefined });
        sendJson(res, 200, { onScreen: req.method === 'PUT' ? onScreen(messageId) : null, overlayUrl });
      });
    });
  });
  afterEach(async () => {
    await server?.close();
  });
  const client = () => createHttpClient({ baseUrl: server?.baseUrl ?? '', timeoutMs: 2000 });

  it('a click shows it for the chosen time; a click on the message shown takes it off, only if it is still the one', async () => {
    await toggleChatOnScreen('platform', messageId, client());
    expect(requests[0]).toEqual({
      method: 'PUT',
      url: `/api/v1/projects/${projectId}/chat/on-screen`,
      body: { kind: 'platform', messageId, durationMs: 30_000 },
    });
    expect(useChatOnScreenStore.getState().onScreen?.messageId).toBe(messageId);
    // The pipeline draws it: the click changes no scene (no overlay page added to it).
    expect(requests).toHaveLength(1);
    await toggleChatOnScreen('platform', messageId, client());
    expect(requests[1]).toMatchObject({ method: 'DELETE', url: `/api/v1/projects/${projectId}/chat/on-screen?messageId=${messageId}` });
    expect(useChatOnScreenStore.getState().onScreen).toBeNull();
    expect(useChatOnScreenStore.getState().pending).toBeNull();
  });

  it('follows what another studio did, for its own project only', () => {
    receiveChatOnScreen({ type: 'chat.onScreen', projectId: '00000000-0000-4000-8000-0000000000bb', onScreen: onScreen(messageId) });
    expect(useChatOnScreenStore.getState().onScreen).toBeNull();
    receiveChatOnScreen({ type: 'chat.onScreen', projectId, onScreen: onScreen(messageId) });
    expect(useChatOnScreenStore.getState().onScreen?.messageId).toBe(messageId);
  });

  it("says On screen only once the session's pipeline reports this showing on air, for its own project only", () => {
    receiveChatOnScreen({ type: 'chat.onScreen', projectId, onScreen: onScreen(messageId) });
    const state = () => useChatOnScreenStore.getState();
    expect(isChatOnAir(state().onScreen, state().onAir)).toBe(false);
    const onAir = { messageId, shownAt: new Date(0).toISOString() };
    receiveChatOnAir({ type: 'chat.onAir', projectId: '00000000-0000-4000-8000-0000000000bb', onAir });
    expect(isChatOnAir(state().onScreen, state().onAir)).toBe(false);
    // An earlier showing of the same message is not this one.
    receiveChatOnAir({ type: 'chat.onAir', projectId, onAir: { messageId, shownAt: new Date(-1000).toISOString() } });
    expect(isChatOnAir(state().onScreen, state().onAir)).toBe(false);
    receiveChatOnAir({ type: 'chat.onAir', projectId, onAir });
    expect(isChatOnAir(state().onScreen, state().onAir)).toBe(true);
    receiveChatOnAir({ type: 'chat.onAir', projectId, onAir: null });
    expect(isChatOnAir(state().onScreen, state().onAir)).toBe(false);
  });
});
