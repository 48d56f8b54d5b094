import { describe, expect, it } from 'vitest';
import { clampCrop, frameCrop } from './crop.ts';

const NONE = { top: 0, right: 0, bottom: 0, left: 0 };

describe('clampCrop', () => {
  it('keeps a crop that fits the frame, on even pixels', () => {
    expect(clampCrop({ top: 10, right: 21, bottom: 30, left: 40 }, { width: 640, height: 360 })).toEqual({ top: 10, right: 20, bottom: 30, left: 40 });
  });

  it('gives way in proportion when the frame is smaller than the crop (a sender that lowered its resolution)', () => {
    const crop = clampCrop({ top: 0, right: 300, bottom: 0, left: 100 }, { width: 320, height: 180 });
    expect(crop.left + crop.right).toBeLessThanOrEqual(320 - 16);
    expect(crop.right).toBe(crop.left * 3);
    expect(clampCrop({ top: 500, right: 0, bottom: 500, left: 0 }, { width: 8, height: 8 })).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
  });
});

describe('frameCrop', () => {
  it('cuts a 4:3 frame to a 16:9 box top and bottom, centred, and a 16:9 frame to a 4:3 box left and right', () => {
    expect(frameCrop({ width: 640, height: 480 }, NONE, { width: 640, height: 360 }, 'cover')).toEqual({ top: 60, right: 0, bottom: 60, left: 0 });
    expect(frameCrop({ width: 1280, height: 720 }, NONE, { width: 400, height: 300 }, 'cover')).toEqual({ top: 0, right: 160, bottom: 0, left: 160 });
    // An upright phone's picture in a 16:9 tile: its middle, but never more than half cut away (a
    // sender halving its size before the cut is recomputed would otherwise stop).
    const phone = frameCrop({ width: 360, height: 640 }, NONE, { width: 1280, height: 720 }, 'cover');
    expect(phone.left + phone.right).toBe(0);
    expect(phone.top + phone.bottom).toBeLessThan(320);
    expect(phone.top + phone.bottom).toBeGreaterThanOrEqual(314);
    expect(Math.abs(phone.top - phone.bottom)).toBeLessThanOrEqual(2);
  });

  it("cuts the layer's own crop first, then covers what is left (within half the frame)", () => {
    // 800×480 less 160 on the left is 640×480; covered in 16:9, 60 more off the top and the bottom.
    expect(frameCrop({ width: 800, height: 480 }, { top: 0, right: 0, bottom: 0, left: 160 }, { width: 640, height: 360 }, 'cover')).toEqual({
      top: 60,
      right: 0,
      bottom: 60,
      left: 160,
    });
  });

  it('only crops for fill, and nothing for a frame already of the box aspect', () => {
    expect(frameCrop({ width: 640, height: 480 }, { top: 2, right: 0, bottom: 0, left: 0 }, { width: 640, height: 360 }, 'fill')).toEqual({
      top: 2,
      right: 0,
      bottom: 0,
      left: 0,
    });
    expect(frameCrop({ width: 960, height: 540 }, NONE, { width: 640, height: 360 }, 'cover')).toEqual(NONE);
  });
});
