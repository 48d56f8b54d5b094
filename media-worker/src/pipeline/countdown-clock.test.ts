import { describe, expect, it } from 'vitest';
import { countdownSvg, formatRemaining } from './countdown-clock.ts';

describe('countdown time left', () => {
  it('shows whole seconds rounded up as mm:ss, 00:00 only when the time is up', () => {
    expect(formatRemaining(60_000)).toBe('01:00');
    expect(formatRemaining(59_001)).toBe('01:00');
    expect(formatRemaining(59_000)).toBe('00:59');
    expect(formatRemaining(1)).toBe('00:01');
    expect(formatRemaining(0)).toBe('00:00');
    expect(formatRemaining(-5000)).toBe('00:00');
    expect(formatRemaining(3_600_000)).toBe('60:00');
  });

  it('draws only digits and colons into the SVG', () => {
    const svg = countdownSvg('04:59', 360, 120);
    expect(svg).toContain('>04:59</text>');
    expect(svg).toContain('width="360" height="120"');
    expect(countdownSvg('<script>1</script>', 360, 120)).toContain('>1</text>');
  });
});
