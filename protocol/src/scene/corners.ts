import type { LayerBox } from './layout.ts';
import type { SourceKind } from './sources.ts';

/** Spec §9: a source's corner radius is 2 % of its width. */
export const SOURCE_CORNER_RADIUS_RATIO = 0.02;

/**
 * The kinds drawn as rounded tiles: people and the content they share (camera, guest, screen
 * share, game). The logo, images (logos, backgrounds, screens), overlays and web pages keep square
 * corners: their artwork is the creator's and may have corners of its own, and so do video files.
 * These are also the kinds drawn covering their box (layerFit).
 */
export const ROUNDED_SOURCE_KINDS: ReadonlySet<SourceKind> = new Set(['webcam', 'participant', 'screenshare', 'game']);

/**
 * The corner radius a layer of `kind` is drawn with on a canvas of `canvas` size, in the same
 * pixels as `box` (scene pixels in the editor, output pixels in the plan): 2 % of its width
 * (never more than half its height), or 0 when it is not a rounded kind or none of its corners
 * lies inside the canvas. A full-frame layer, a band from edge to edge, or a picture filling a
 * vertical cell and running off both sides has its corners on or beyond the canvas's edges:
 * rounding them would only show slivers of the background (or nothing) and cost a mask for it.
 * The editor's CSS and the media worker's mask both come from this function, so the program
 * matches what the creator sees.
 */
export function layerCornerRadius(kind: SourceKind, box: LayerBox, canvas: { width: number; height: number }): number {
  if (!ROUNDED_SOURCE_KINDS.has(kind) || box.width <= 0 || box.height <= 0) return 0;
  const inside = (x: number, y: number): boolean => x > 0 && x < canvas.width && y > 0 && y < canvas.height;
  const right = box.x + box.width;
  const bottom = box.y + box.height;
  if (!inside(box.x, box.y) && !inside(right, box.y) && !inside(box.x, bottom) && !inside(right, bottom)) return 0;
  return Math.min(box.width * SOURCE_CORNER_RADIUS_RATIO, box.height / 2);
}

/**
 * How a layer's picture fills its box, in the editor (CSS object-fit) and in the program (the
 * plan's `fit`): a camera, guest, screen or game covers it, centred, cut to the box's aspect after
 * the layer's own crop, so a face is never stretched whatever size or shape the sender's picture
 * has (a phone held upright, a 4:3 webcam, a camera that adapts its resolution). Other kinds are
 * stretched to their box, as the compositor has always drawn them.
 */
export function layerFit(kind: SourceKind): 'cover' | 'fill' {
  return ROUNDED_SOURCE_KINDS.has(kind) ? 'cover' : 'fill';
}
