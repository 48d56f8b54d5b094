import { describe, expect, it } from 'vitest';
import { chatCanSend, chatPlatformOf, chatTextSchema, chatTextValid, CHAT_MESSAGE_MAX, linkSegments } from './chat.ts';
import { chatClientMessageSchemas } from './messages.ts';
import { clientMessagePermissions, clientMessageSchema, serverMessageSchema } from '../ws.ts';

describe('chat text (spec §5)', () => {
  it('holds 1 to 200 characters once trimmed', () => {
    expect(chatTextValid('   ')).toBe(false);
    expect(chatTextValid(' a ')).toBe(true);
    expect(chatTextValid('x'.repeat(CHAT_MESSAGE_MAX))).toBe(true);
    expect(chatTextValid(`  ${'x'.repeat(CHAT_MESSAGE_MAX)}  `)).toBe(true);
    expect(chatTextValid('x'.repeat(CHAT_MESSAGE_MAX + 1))).toBe(false);
    expect(chatTextSchema.parse('  hi  ')).toBe('hi');
    expect(chatTextSchema.safeParse('x'.repeat(201)).success).toBe(false);
  });
});

describe('link segments', () => {
  it('turns domain-like words into links and keeps the rest as text', () => {
    expect(linkSegments('see onair.example/live now')).toEqual([
      { kind: 'text', value: 'see ' },
      { kind: 'link', value: 'onair.example/live', href: 'https://onair.example/live' },
      { kind: 'text', value: ' now' },
    ]);
    expect(linkSegments('http://a.io, ok')).toEqual([
      { kind: 'link', value: 'http://a.io', href: 'http://a.io/' },
      { kind: 'text', value: ', ok' },
    ]);
  });

  it('leaves markup, numbers and schemes other than http(s) as text', () => {
    expect(linkSegments('<b>bold</b> 1.2.3 javascript:alert(1)')).toEqual([{ kind: 'text', value: '<b>bold</b> 1.2.3 javascript:alert(1)' }]);
  });
});

describe('chat platforms', () => {
  it('has connectors for Twitch, YouTube and Facebook; only the first two can be written to', () => {
    expect(chatPlatformOf('Twitch')).toBe('twitch');
    expect(chatPlatformOf('Trovo')).toBeNull();
    expect(chatCanSend('twitch', true)).toBe(true);
    expect(chatCanSend('youtube', false)).toBe(false);
    expect(chatCanSend('facebook', true)).toBe(false);
  });
});

describe('chat /ws messages', () => {
  it('are client messages with a permission each', () => {
    for (const schema of chatClientMessageSchemas) {
      const type = schema.shape.type.value;
      expect(clientMessagePermissions[type]).not.toBeNull();
    }
    expect(clientMessagePermissions['chat.send']).toBe('manage broadcast');
    expect(clientMessageSchema.safeParse({ type: 'chat.send', projectId: crypto.randomUUID(), text: 'hi', targets: [] }).success).toBe(false);
  });

  it('carry segments that cannot hold a script address', () => {
    const message = {
      id: crypto.randomUUID(),
      projectId: crypto.randomUUID(),
      ts: new Date().toISOString(),
      direction: 'inbound',
      platform: 'twitch',
      destinationId: crypto.randomUUID(),
      sender: '1',
      displayName: 'v',
      avatar: null,
      content: 'x',
      segments: [{ kind: 'link', value: 'x', href: 'javascript:alert(1)' }],
      toDestinations: [],
      deliveries: [],
      private: false,
    };
    const check = (m: object) => serverMessageSchema.safeParse({ type: 'chat.messages', projectId: message.projectId, messages: [m] }).success;
    expect(check(message)).toBe(false);
    expect(check({ ...message, segments: [{ kind: 'emoticon', value: 'x', url: 'data:image/png;base64,AAAA' }] })).toBe(false);
    expect(check({ ...message, segments: [{ kind: 'link', value: 'x', href: 'https://x.io/' }] })).toBe(true);
  });
});
