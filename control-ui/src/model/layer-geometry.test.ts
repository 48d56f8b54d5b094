import { describe, expect, it } from 'vitest';
import { boxForKey, minimumSize, resizeFrom, snapMove, snapResize } from './layer-geometry.ts';

const canvas = { width: 1280, height: 720 };

describe('snapMove', () => {
  it('snaps a near edge to the canvas edge and reports the guide', () => {
    expect(snapMove({ x: 5, y: 100, width: 200, height: 100 }, canvas)).toEqual({
      box: { x: 0, y: 100, width: 200, height: 100 },
      guides: { vertical: [0], horizontal: [] },
    });
    expect(snapMove({ x: 1075, y: 614, width: 200, height: 100 }, canvas).box).toMatchObject({ x: 1080, y: 620 });
  });
  it('snaps the centre to the canvas centre', () => {
    const result = snapMove({ x: 543, y: 313, width: 200, height: 100 }, canvas);
    expect(result.box).toMatchObject({ x: 540, y: 310 });
    expect(result.guides).toEqual({ vertical: [640], horizontal: [360] });
  });
  it('leaves a box alone when nothing is within the threshold', () => {
    expect(snapMove({ x: 100, y: 100, width: 200, height: 100 }, canvas)).toEqual({
      box: { x: 100, y: 100, width: 200, height: 100 },
      guides: { vertical: [], horizontal: [] },
    });
  });
});

describe('resizing', () => {
  it('keeps the opposite corner fixed', () => {
    expect(resizeFrom({ x: 100, y: 100, width: 200, height: 100 }, 'se', 50, 20, minimumSize('webcam'))).toEqual({ x: 100, y: 100, width: 250, height: 120 });
    expect(resizeFrom({ x: 100, y: 100, width: 200, height: 100 }, 'nw', 50, 20, minimumSize('webcam'))).toEqual({ x: 150, y: 120, width: 150, height: 80 });
  });
  it('never shrinks a browser source below 852x480', () => {
    expect(resizeFrom({ x: 200, y: 36, width: 852, height: 480 }, 'se', -300, -300, minimumSize('webpage'))).toEqual({
      x: 200,
      y: 36,
      width: 852,
      height: 480,
    });
  });
  it('snaps the moving edge to the canvas edge', () => {
    const result = snapResize({ x: 100, y: 100, width: 1175, height: 100 }, 'se', canvas, minimumSize('webcam'));
    expect(result.box.width).toBe(1180);
    expect(result.guides.vertical).toEqual([1280]);
  });
});

describe('keyboard', () => {
  const box = { x: 40, y: 40, width: 640, height: 360 };
  it('moves by 1, or 10 with Shift', () => {
    expect(boxForKey(box, 'ArrowRight', { shift: false, alt: false }, minimumSize('webcam'))).toMatchObject({ x: 41, y: 40 });
    expect(boxForKey(box, 'ArrowUp', { shift: true, alt: false }, minimumSize('webcam'))).toMatchObject({ x: 40, y: 30 });
  });
  it('resizes with Alt and ignores other keys', () => {
    expect(boxForKey(box, 'ArrowLeft', { shift: true, alt: true }, minimumSize('webcam'))).toEqual({ x: 40, y: 40, width: 630, height: 360 });
    expect(boxForKey(box, 'a', { shift: false, alt: false }, minimumSize('webcam'))).toBeNull();
  });
});
