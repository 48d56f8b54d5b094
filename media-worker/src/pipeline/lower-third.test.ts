import { describe, expect, it } from 'vitest';
import { lowerThirdSvg, wrapText, xmlText } from './lower-third.ts';

describe('chat lower third picture', () => {
  it('puts user text in as characters, never markup', () => {
    expect(xmlText(`<b>"x"</b> & 'y'`)).toBe('&lt;b&gt;&quot;x&quot;&lt;/b&gt; &amp; &apos;y&apos;');
    expect(xmlText('a\u0000b\u001Fc')).toBe('abc');
    const svg = lowerThirdSvg({ platform: 'twitch', displayName: '</tspan><script>', text: '<svg onload="x()"/>' }, 598, 106);
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<svg onload');
    expect(svg).toContain('&lt;/tspan&gt;&lt;script&gt;');
    expect(svg).toContain('width="598" height="106" viewBox="0 0 896 158"');
  });

  it("draws each platform's colour and name, the room's for a room message", () => {
    expect(lowerThirdSvg({ platform: 'youtube', displayName: 'a', text: 'b' }, 10, 2)).toContain('#FF0000');
    const room = lowerThirdSvg({ platform: null, displayName: 'a', text: 'b' }, 10, 2);
    expect(room).toContain('#6D7CFF');
    expect(room).toContain('STUDIO CHAT');
  });

  it('wraps a long message between words in three lines at most, the last cut with an ellipsis', () => {
    expect(wrapText('one two three', 8)).toEqual(['one two', 'three']);
    const lines = wrapText('word '.repeat(60), 20, 3);
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => [...l].length <= 20)).toBe(true);
    expect(lines[2]!.endsWith('…')).toBe(true);
    // A word longer than a line (a link) is broken where it must.
    const link = wrapText(`see https://example.com/${'a'.repeat(50)}`, 20, 3);
    expect(link.every((l) => [...l].length <= 20)).toBe(true);
    expect(link.join('').replace(/\s/g, '')).toContain('https://example.com/');
    // Emoji are not split.
    expect(wrapText('😀'.repeat(30), 10, 2).join('')).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(wrapText('   ')).toEqual([]);
  });
});
