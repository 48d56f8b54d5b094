import { describe, expect, it } from 'vitest';
import { cutToWidth, lowerThirdSvg, textWidth, wrapText, xmlText } from './lower-third.ts';

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

  it('wraps a long message between words in three lines at most, each within the column, the last cut with an ellipsis', () => {
    expect(wrapText('one two three', textWidth('one two', 25), 3, 25)).toEqual(['one two', 'three']);
    for (const text of ['word '.repeat(60), 'WWWW MMMM '.repeat(30), 'iiii llll '.repeat(40)]) {
      const lines = wrapText(text, 694, 3, 25);
      expect(lines).toHaveLength(3);
      expect(lines.every((l) => textWidth(l, 25) <= 694)).toBe(true);
      expect(lines[2]!.endsWith('…')).toBe(true);
    }
    // Wide letters take fewer per line than narrow ones.
    expect([...wrapText('W'.repeat(200))[0]!].length).toBeLessThan([...wrapText('i'.repeat(200))[0]!].length);
    // A word longer than a line (a link) is broken where it must.
    const link = wrapText(`see https://example.com/${'a'.repeat(80)}`, 694, 3, 25);
    expect(link.every((l) => textWidth(l, 25) <= 694)).toBe(true);
    expect(link.join('')).toContain('https://example.com/');
    // Emoji are not split.
    expect(wrapText('😀'.repeat(100), 300, 2, 25).join('')).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(wrapText('   ')).toEqual([]);
  });

  it('cuts a long name to fit beside the platform label', () => {
    expect(cutToWidth('short', 500, 27, true)).toBe('short');
    const cut = cutToWidth('M'.repeat(80), 500, 27, true);
    expect(cut.endsWith('…')).toBe(true);
    expect(textWidth(cut, 27, true)).toBeLessThanOrEqual(500);
  });
});
