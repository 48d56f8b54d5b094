import { describe, expect, it } from 'vitest';
import { roundedRectMask } from './corner-mask.ts';

describe('roundedRectMask', () => {
  it('is 0 outside the quarter circles, 255 inside, the same at all four corners, rows padded to 4 bytes', () => {
    const [width, height] = [30, 20];
    const stride = 32;
    const mask = roundedRectMask(width, height, 8, 8);
    expect(mask.length).toBe(stride * height);
    const at = (x: number, y: number) => mask[y * stride + x];
    for (const [x, y] of [
      [0, 0],
      [width - 1, 0],
      [0, height - 1],
      [width - 1, height - 1],
      [1, 1],
    ] as const)
      expect(at(x, y)).toBe(0);
    for (const [x, y] of [
      [8, 8],
      [15, 10],
      [0, 10],
      [15, 0],
      [4, 4],
    ] as const)
      expect(at(x, y)).toBe(255);
    // Anti-aliased on the arc.
    expect(at(2, 2)).toBeGreaterThan(0);
    expect(at(2, 2)).toBeLessThan(255);
    expect(at(2, 2)).toBe(at(width - 3, height - 3));
  });

  it('draws ellipses for a picture scaled to another aspect, and nothing with no radius', () => {
    const mask = roundedRectMask(40, 10, 8, 2);
    expect(mask[0]).toBeLessThan(64);
    expect(mask[5 * 40 + 0]).toBe(255);
    expect(mask[12]).toBe(255);
    expect(roundedRectMask(8, 8, 0, 0).every((v) => v === 255)).toBe(true);
  });
});
