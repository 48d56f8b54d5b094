import { describe, expect, it } from 'vitest';
import { layerCornerRadius, layerFit, ROUNDED_SOURCE_KINDS } from './corners.ts';
import { CANVAS } from './layout.ts';
import { sourceKinds } from './sources.ts';
import { VERTICAL_CANVAS } from './vertical.ts';

const tile = { x: 40, y: 40, width: 640, height: 360 };

describe('layerCornerRadius', () => {
  it('is 2% of the width for a camera, guest, screen or game tile', () => {
    for (const kind of ['webcam', 'participant', 'screenshare', 'game'] as const) expect(layerCornerRadius(kind, tile, CANVAS)).toBeCloseTo(12.8);
    expect(layerCornerRadius('webcam', { x: 0, y: 0, width: 1920, height: 1080 }, { width: 3840, height: 2160 })).toBeCloseTo(38.4);
  });

  it('is 0 for the logo, images, web pages, video files and sound', () => {
    for (const kind of sourceKinds.filter((k) => !ROUNDED_SOURCE_KINDS.has(k))) expect(layerCornerRadius(kind, tile, CANVAS)).toBe(0);
    expect([...ROUNDED_SOURCE_KINDS].sort()).toEqual(['game', 'participant', 'screenshare', 'webcam']);
  });

  it('is 0 for a layer none of whose corners lies inside the canvas, on either canvas', () => {
    expect(layerCornerRadius('webcam', { x: 0, y: 0, ...CANVAS }, CANVAS)).toBe(0);
    expect(layerCornerRadius('webcam', { x: -20, y: -20, width: 1320, height: 760 }, CANVAS)).toBe(0);
    // Vertical "fills": a 16:9 picture scaled to its cell's height, running off both sides.
    expect(layerCornerRadius('game', { x: -778, y: 0, width: 2276, height: 1280 }, VERTICAL_CANVAS)).toBe(0);
    expect(layerCornerRadius('webcam', { x: -209, y: 0, width: 1138, height: 640 }, VERTICAL_CANVAS)).toBe(0);
    // A band from edge to edge.
    expect(layerCornerRadius('webcam', { x: 0, y: 0, width: 720, height: 640 }, VERTICAL_CANVAS)).toBe(0);
  });

  it('rounds a layer as soon as one of its corners is inside the canvas', () => {
    expect(layerCornerRadius('webcam', { x: 10, y: 10, width: 1260, height: 700 }, CANVAS)).toBeCloseTo(25.2);
    // Picture in picture docked to the left edge, and a tile partly off the canvas.
    expect(layerCornerRadius('webcam', { x: 0, y: 400, width: 320, height: 180 }, CANVAS)).toBeCloseTo(6.4);
    expect(layerCornerRadius('participant', { x: 1100, y: 600, width: 640, height: 360 }, CANVAS)).toBeCloseTo(12.8);
    expect(layerCornerRadius('webcam', { x: 60, y: 700, width: 600, height: 338 }, VERTICAL_CANVAS)).toBeCloseTo(12);
  });

  it('is 0 for an empty box and never more than half the height', () => {
    expect(layerCornerRadius('webcam', { x: 0, y: 0, width: 0, height: 0 }, CANVAS)).toBe(0);
    expect(layerCornerRadius('webcam', { x: 10, y: 10, width: 1000, height: 10 }, CANVAS)).toBe(5);
  });
});

describe('layerFit', () => {
  it('covers for the rounded kinds, stretches the others as before', () => {
    for (const kind of sourceKinds) expect(layerFit(kind)).toBe(ROUNDED_SOURCE_KINDS.has(kind) ? 'cover' : 'fill');
  });
});
