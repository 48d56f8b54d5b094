import { z } from 'zod';
import { NO_CROP, type Layer, type Scene, type VerticalTransform } from './document.ts';
import { CANVAS } from './layout.ts';
import type { Source, SourceKind } from './sources.ts';

/**
 * The two canvases a scene is drawn on: the horizontal one (16:9, today's layout) and the vertical
 * one (9:16) that TikTok, Instagram and vertical YouTube/Twitch streams take. Each destination
 * gets one of them; the session composites and encodes each canvas in use once.
 */
export const canvasKinds = ['horizontal', 'vertical'] as const;
export const canvasKindSchema = z.enum(canvasKinds);
export type CanvasKind = z.infer<typeof canvasKindSchema>;
export const canvasLabels: Record<CanvasKind, string> = { horizontal: 'Horizontal 16:9', vertical: 'Vertical 9:16' };

/**
 * Scene pixels of the vertical canvas: the horizontal canvas turned on its side, so at 720p it is
 * output 1:1 (720×1280) and at 1080p scaled by 1.5 (1080×1920), as the horizontal canvas is.
 */
export const VERTICAL_CANVAS = { width: CANVAS.height, height: CANVAS.width } as const;

export function canvasSize(canvas: CanvasKind): { width: number; height: number } {
  return canvas === 'vertical' ? VERTICAL_CANVAS : CANVAS;
}

/**
 * Height of the top band a derived vertical layout gives the people (camera, guests) when the
 * scene also shows content (game, screen, page): the content fills the 720×720 square below,
 * where a 16:9 picture scaled to its height overflows only sideways, off the canvas.
 */
export const VERTICAL_PEOPLE_BAND = 560;

/** The path under which OnAir serves its chat on screen overlay page (chat/on-screen.ts), one per project. */
export const CHAT_ON_SCREEN_PAGE_PREFIX = '/overlay/chat-on-screen/';

/**
 * Whether a page is OnAir's chat on screen overlay: a page the size of the canvas that draws a lower
 * third at its bottom. It is not content to give room to on the vertical canvas: it goes over the
 * others in CHAT_ON_SCREEN_VERTICAL_BOX.
 */
export function isChatOnScreenOverlayUrl(url: string): boolean {
  try {
    const path = new URL(url).pathname;
    return path.startsWith(CHAT_ON_SCREEN_PAGE_PREFIX) && /^[0-9a-f-]{36}$/.test(path.slice(CHAT_ON_SCREEN_PAGE_PREFIX.length));
  } catch {
    return false;
  }
}

/**
 * The chat on screen overlay's box on the vertical canvas: a full-width 16:9 band at the bottom, so
 * its lower third sits low on the 9:16 picture too, undistorted (the page is rendered once, 16:9).
 */
export const CHAT_ON_SCREEN_VERTICAL_BOX = { x: 0, y: 1280 - 405, width: 720, height: 405 } as const;

/** What the derived layout reads of a source: its kind, and a page's address (OnAir's own overlays are placed apart). */
export type LayoutSource = Pick<Source, 'id' | 'kind'> & { settings?: unknown };

function isChatOnScreenSource(source: LayoutSource | undefined): boolean {
  if (source?.kind !== 'webpage') return false;
  const url = (source as { settings?: { config?: { url?: unknown } } }).settings?.config?.url;
  return typeof url === 'string' && isChatOnScreenOverlayUrl(url);
}

const PEOPLE: ReadonlySet<SourceKind> = new Set(['webcam', 'participant']);
const CONTENT: ReadonlySet<SourceKind> = new Set(['game', 'screenshare', 'webpage']);

interface Cell {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A picture of `aspect` (width / height) filling a full-width cell: scaled to the cell's height and
 * centred, so a picture wider than the cell runs off both sides of the canvas ("cropped to fill")
 * and never into a neighbouring cell. A cell wider than the picture gets it whole, centred.
 */
function fill(cell: Cell, aspect: number): VerticalTransform {
  const height = cell.height;
  const width = Math.max(1, Math.round(height * aspect));
  return { x: cell.x + Math.round((cell.width - width) / 2), y: cell.y, width, height, crop: { ...NO_CROP } };
}

/** Full-width cells stacked top to bottom in the band [top, top + height). */
function stack(count: number, top: number, height: number): Cell[] {
  return Array.from({ length: count }, (_, i) => {
    const y = top + Math.round((height * i) / count);
    const next = top + Math.round((height * (i + 1)) / count);
    return { x: 0, y, width: VERTICAL_CANVAS.width, height: next - y };
  });
}

function aspectOf(layer: Layer): number {
  return layer.width > 0 && layer.height > 0 ? layer.width / layer.height : 16 / 9;
}

/**
 * The vertical layout a scene gets before anyone edits it, from its horizontal layout: the
 * biggest content layer (game, screen share or page) fills the bottom square, the people (camera,
 * guests) share the band above it, each filling its own full-width cell; with no content the people
 * share the whole canvas, and with no people the content does. Everything else (logo, images,
 * further content) keeps its corner of the canvas at the vertical canvas's scale; the logo keeps
 * its size so it stays legible; OnAir's chat on screen overlay takes its band at the bottom
 * (CHAT_ON_SCREEN_VERTICAL_BOX) and counts as neither people nor content. Stacking is the horizontal one.
 */
export function deriveVerticalLayout(scene: Pick<Scene, 'layers'>, sources: readonly LayoutSource[]): Map<string, VerticalTransform> {
  const kindOf = new Map(sources.map((s) => [s.id, s.kind]));
  const byId = new Map(sources.map((s) => [s.id, s]));
  const overlays = scene.layers.filter((l) => isChatOnScreenSource(byId.get(l.sourceId)));
  const layers = [...scene.layers].filter((l) => !overlays.includes(l)).sort((a, b) => a.zIndex - b.zIndex);
  const people = layers.filter((l) => PEOPLE.has(kindOf.get(l.sourceId) ?? 'microphone'));
  const content = layers
    .filter((l) => CONTENT.has(kindOf.get(l.sourceId) ?? 'microphone'))
    .sort((a, b) => Number(b.visible) - Number(a.visible) || b.width * b.height - a.width * a.height);
  const main = content[0];
  const out = new Map<string, VerticalTransform>();

  if (main && people.length > 0) {
    out.set(
      main.id,
      fill({ x: 0, y: VERTICAL_PEOPLE_BAND, width: VERTICAL_CANVAS.width, height: VERTICAL_CANVAS.height - VERTICAL_PEOPLE_BAND }, aspectOf(main)),
    );
    stack(people.length, 0, VERTICAL_PEOPLE_BAND).forEach((cell, i) => out.set(people[i]!.id, fill(cell, aspectOf(people[i]!))));
  } else if (main) {
    out.set(main.id, fill({ x: 0, y: 0, ...VERTICAL_CANVAS }, aspectOf(main)));
  } else {
    stack(people.length, 0, VERTICAL_CANVAS.height).forEach((cell, i) => out.set(people[i]!.id, fill(cell, aspectOf(people[i]!))));
  }

  for (const layer of overlays) out.set(layer.id, { ...CHAT_ON_SCREEN_VERTICAL_BOX, crop: { ...layer.crop } });
  const k = VERTICAL_CANVAS.width / CANVAS.width;
  for (const layer of layers) {
    if (out.has(layer.id)) continue;
    const keepSize = kindOf.get(layer.sourceId) === 'watermark';
    const width = keepSize ? layer.width : Math.round(layer.width * k);
    const height = keepSize ? layer.height : Math.round(layer.height * k);
    out.set(layer.id, {
      x: Math.round(layer.x * k),
      y: Math.round(layer.y * k),
      width: Math.max(layer.width > 0 ? 1 : 0, width),
      height: Math.max(layer.height > 0 ? 1 : 0, height),
      crop: { ...layer.crop },
    });
  }
  return out;
}

/**
 * Every layer's box on the vertical canvas: the one the creator set, or the derived one for a
 * layer that has none yet (a scene never edited vertically, or a layer added since).
 */
export function verticalLayout(scene: Pick<Scene, 'layers'>, sources: readonly LayoutSource[]): Map<string, VerticalTransform> {
  const derived = scene.layers.every((l) => l.vertical) ? new Map<string, VerticalTransform>() : deriveVerticalLayout(scene, sources);
  return new Map(scene.layers.map((l) => [l.id, l.vertical ?? derived.get(l.id)!]));
}

/** A layer with the box of `canvas` in place of x, y, width, height and crop: what the editor draws. */
export function layerOnCanvas(layer: Layer, canvas: CanvasKind, vertical: ReadonlyMap<string, VerticalTransform>): Layer {
  if (canvas === 'horizontal') return layer;
  const box = vertical.get(layer.id);
  return box ? { ...layer, ...box } : layer;
}
