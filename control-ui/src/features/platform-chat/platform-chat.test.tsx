import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChatDestinationEntry, ChatMessage } from '@onair/protocol';
import { ChatMessageRow } from './ChatMessageRow.tsx';
import { ChatFilterBar } from './ChatFilterBar.tsx';
import { chatEmptyState } from './PlatformChatPanel.tsx';

const destination: ChatDestinationEntry = {
  id: '00000000-0000-4000-8000-000000000001',
  canSend: true,
  platform: 'twitch',
  platformId: null,
  username: 'ada',
  variant: 'Twitch',
  name: 'Ada',
  state: 'reconnecting',
};
const message = (over: Partial<ChatMessage>): ChatMessage => ({
  id: '00000000-0000-4000-8000-0000000000aa',
  projectId: '00000000-0000-4000-8000-0000000000bb',
  ts: '2026-01-01T10:00:00.000Z',
  direction: 'inbound',
  platform: 'twitch',
  destinationId: destination.id,
  sender: '1',
  displayName: 'viewer',
  avatar: null,
  content: '',
  segments: [],
  toDestinations: [],
  deliveries: [],
  private: false,
  ...over,
});

describe('a chat message', () => {
  it('shows markup as text, emotes as images and links as links', () => {
    const html = renderToString(
      <ChatMessageRow
        destinations={[destination]}
        message={message({
          segments: [
            { kind: 'text', value: '<img src=x onerror=alert(1)> ' },
            { kind: 'emoticon', value: 'Kappa', url: 'https://cdn.example/25/1.0' },
            { kind: 'link', value: 'onair.example', href: 'https://onair.example/' },
          ],
        })}
      />,
    );
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img src="x"');
    expect(html).toMatch(/<img[^>]+src="https:\/\/cdn.example\/25\/1.0"[^>]+alt="Kappa"/);
    expect(html).toMatch(/<a[^>]+href="https:\/\/onair.example\/"[^>]*>onair.example<\/a>/);
    expect(html).toContain('data-platform="twitch"');
  });

  it('never turns another scheme into a link or an image', () => {
    const html = renderToString(
      <ChatMessageRow
        destinations={[destination]}
        message={message({
          segments: [
            { kind: 'link', value: 'click', href: 'javascript:alert(1)' },
            { kind: 'emoticon', value: 'E', url: 'data:image/png;base64,AA' },
          ],
        })}
      />,
    );
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('data:image');
    expect(html).toContain('click');
  });

  it("shows each platform's outcome of a sent message beside it", () => {
    const html = renderToString(
      <ChatMessageRow
        destinations={[destination, { ...destination, id: '00000000-0000-4000-8000-000000000002', platform: 'youtube', variant: 'YouTube', name: 'Ada YT' }]}
        message={message({
          direction: 'outbound',
          platform: null,
          destinationId: null,
          toDestinations: [destination.id, '00000000-0000-4000-8000-000000000002'],
          deliveries: [
            { destinationId: destination.id, state: 'sent' },
            { destinationId: '00000000-0000-4000-8000-000000000002', state: 'failed', error: 'YouTube did not answer. Try again in a moment.' },
          ],
          segments: [{ kind: 'text', value: 'thanks' }],
        })}
      />,
    );
    expect(html).toContain('data-delivery="sent"');
    expect(html).toContain('YouTube: YouTube did not answer. Try again in a moment.');
  });
});

describe('the filter bar', () => {
  it("shows each chat's connector state", () => {
    const html = renderToString(
      <ChatFilterBar
        destinations={[
          destination,
          {
            ...destination,
            id: '00000000-0000-4000-8000-000000000003',
            platform: null,
            variant: 'Trovo',
            name: 'Trovo',
            state: 'unsupported',
            error: 'Support for Trovo chat is coming soon.',
          },
        ]}
        filter={null}
      />,
    );
    expect(html).toContain('reconnecting');
    expect(html).toContain('coming soon');
    expect(html).toContain('Support for Trovo chat is coming soon.');
  });
});

describe('the empty chat', () => {
  it('asks for a chat platform when no destination has one, live or not', () => {
    for (const live of [false, true]) {
      expect(chatEmptyState(true, live, 0)).toEqual({
        title: 'No platform chat',
        text: 'Add a Twitch, YouTube or Facebook destination to read its chat here.',
      });
    }
  });

  it('asks to go live while chat destinations wait, and waits for messages once live', () => {
    expect(chatEmptyState(true, false, 2).title).toBe('Start the stream to use the chat');
    expect(chatEmptyState(true, true, 2).title).toBe('No chat messages yet');
    expect(chatEmptyState(false, false, 0).text).toBe('Loading the chat…');
  });
});
