import { describe, expect, it } from 'vitest';
import { CHATBOT_MESSAGE_MAX } from '@onair/protocol';
import { pageTitle, previewLine } from './link-preview.ts';

describe('pageTitle', () => {
  it('reads og:title first, then <title>, as text with entities decoded', () => {
    expect(pageTitle('<html><head><title>Plain</title><meta property="og:title" content="Open &amp; Graph"></head>')).toBe('Open & Graph');
    expect(pageTitle("<meta content='Reversed' property='og:title'/>")).toBe('Reversed');
    expect(pageTitle('<TITLE lang="en">\n  Spaced\t out  </TITLE>')).toBe('Spaced out');
    expect(pageTitle('<title><script>alert(1)</script> &lt;b&gt;hi&#x21;</title>')).toBe('<script>alert(1)</script> <b>hi!');
    expect(pageTitle('<title>never closed')).toBeNull();
    expect(pageTitle('<body>no title</body>')).toBeNull();
    expect(pageTitle('<title>  </title>')).toBeNull();
  });

  it('stays linear on hostile input (many unclosed tags)', () => {
    const hostile = '<meta property=og:title content'.repeat(8000) + '<title'.repeat(10_000);
    expect(pageTitle(hostile)).toBeNull();
  });

  it('removes control and direction characters', () => {
    expect(pageTitle('<title>a\u0000b\u202ec\r\nd</title>')).toBe('a b c d');
  });
});

describe('previewLine', () => {
  it('is plain text within the chat message limit', () => {
    expect(previewLine('Hello', 'example.com')).toBe('Link: Hello (example.com)');
    const long = previewLine('x'.repeat(1000), 'example.com');
    expect([...long].length).toBeLessThanOrEqual(CHATBOT_MESSAGE_MAX);
    expect(long.endsWith('… (example.com)')).toBe(true);
  });
});
