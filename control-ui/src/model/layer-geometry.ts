import { BROWSER_SOURCE_MIN_SIZE, type SourceKind } from '@onair/protocol';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CanvasSize {
  width: number;
  height: number;
}

/** A corner being dragged to resize: north-west, north-east, south-west, south-east. */
export type ResizeHandle = 'nw' | 'ne' | 'sw' | 'se';
export const RESIZE_HANDLES: readonly ResizeHandle[] = ['nw', 'ne', 'sw', 'se'];

/** Canvas pixels within which an edge or centre line snaps to the canvas's edges or centre. */
export const SNAP_THRESHOLD = 8;

/** Lines currently snapped to, in canvas pixels, for drawing guides. */
export interface SnapGuides {
  vertical: number[];
  horizontal: number[];
}

export interface SnapResult {
  box: Box;
  guides: SnapGuides;
}

/** The smallest box a layer of this kind may have: browser sources keep 852x480 (spec §5). */
export function minimumSize(kind: SourceKind | undefined): CanvasSize {
  return kind === 'webpage' ? { ...BROWSER_SOURCE_MIN_SIZE } : { width: 16, height: 16 };
}

/** The nearest target within the threshold for any of the given lines: the shift to apply and the line hit. */
function nearest(lines: number[], targets: number[], threshold: number): { shift: number; at: number } | null {
  let best: { shift: number; at: number } | null = null;
  for (const line of lines) {
    for (const target of targets) {
      const shift = target - line;
      if (Math.abs(shift) <= threshold && (best === null || Math.abs(shift) < Math.abs(best.shift))) best = { shift, at: target };
    }
  }
  return best;
}

/** Moves a box so its left, centre or right (top, centre, bottom) lands on a canvas edge or centre when close. */
export function snapMove(box: Box, canvas: CanvasSize, threshold = SNAP_THRESHOLD): SnapResult {
  const xTargets = [0, canvas.width / 2, canvas.width];
  const yTargets = [0, canvas.height / 2, canvas.height];
  const sx = nearest([box.x, box.x + box.width / 2, box.x + box.width], xTargets, threshold);
  const sy = nearest([box.y, box.y + box.height / 2, box.y + box.height], yTargets, threshold);
  return {
    box: { ...box, x: Math.round(box.x + (sx?.shift ?? 0)), y: Math.round(box.y + (sy?.shift ?? 0)) },
    guides: { vertical: sx ? [sx.at] : [], horizontal: sy ? [sy.at] : [] },
  };
}

/** Resizes from a corner by a pointer delta, keeping the opposite corner fixed and the minimum size. */
export function resizeFrom(box: Box, handle: ResizeHandle, dx: number, dy: number, min: CanvasSize): Box {
  let { x, y, width, height } = box;
  if (handle.includes('e')) width = Math.max(min.width, box.width + dx);
  if (handle.includes('w')) {
    width = Math.max(min.width, box.width - dx);
    x = box.x + box.width - width;
  }
  if (handle.includes('s')) height = Math.max(min.height, box.height + dy);
  if (handle.includes('n')) {
    height = Math.max(min.height, box.height - dy);
    y = box.y + box.height - height;
  }
  return { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) };
}

/** Snaps the edges a corner drag moves to the canvas's edges and centre, never below the minimum size. */
export function snapResize(box: Box, handle: ResizeHandle, canvas: CanvasSize, min: CanvasSize, threshold = SNAP_THRESHOLD): SnapResult {
  const xTargets = [0, canvas.width / 2, canvas.width];
  const yTargets = [0, canvas.height / 2, canvas.height];
  const next = { ...box };
  const guides: SnapGuides = { vertical: [], horizontal: [] };
  if (handle.includes('e')) {
    const s = nearest([box.x + box.width], xTargets, threshold);
    if (s && box.width + s.shift >= min.width) {
      next.width = box.width + s.shift;
      guides.vertical.push(s.at);
    }
  } else {
    const s = nearest([box.x], xTargets, threshold);
    if (s && box.width - s.shift >= min.width) {
      next.x = box.x + s.shift;
      next.width = box.width - s.shift;
      guides.vertical.push(s.at);
    }
  }
  if (handle.includes('s')) {
    const s = nearest([box.y + box.height], yTargets, threshold);
    if (s && box.height + s.shift >= min.height) {
      next.height = box.height + s.shift;
      guides.horizontal.push(s.at);
    }
  } else {
    const s = nearest([box.y], yTargets, threshold);
    if (s && box.height - s.shift >= min.height) {
      next.y = box.y + s.shift;
      next.height = box.height - s.shift;
      guides.horizontal.push(s.at);
    }
  }
  return { box: { x: Math.round(next.x), y: Math.round(next.y), width: Math.round(next.width), height: Math.round(next.height) }, guides };
}

/**
 * The keyboard on a selected layer: arrows move it by 1 px (10 with Shift); with Alt they resize it
 * from its bottom-right corner instead. Anything else is not a transform key.
 */
export function boxForKey(box: Box, key: string, modifiers: { shift: boolean; alt: boolean }, min: CanvasSize): Box | null {
  const step = modifiers.shift ? 10 : 1;
  const delta: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  const d = delta[key];
  if (!d) return null;
  if (modifiers.alt) return resizeFrom(box, 'se', d[0], d[1], min);
  return { ...box, x: box.x + d[0], y: box.y + d[1] };
}
