import type { Layer, Scene, SceneDocument } from './document.ts';
import { CANVAS, type LayerBox } from './layout.ts';
import type { SceneOp } from './patch.ts';
import type { Source, SourceKind } from './sources.ts';
import type { SceneLayoutId } from './scene-layout-ids.ts';
import { VERTICAL_CANVAS, VERTICAL_PEOPLE_BAND, type CanvasKind } from './vertical.ts';

/**
 * One-click layouts (issue 38): an arrangement of the scene's tiles (its visible cameras, guests,
 * screen shares and game) computed here, for both canvases, and applied as one patch. A layout
 * moves and shows or hides tiles only: crops, stacking of everything else, overlays and the logo
 * stay as they are.
 */
/** The most tiles a layout arranges; further tiles are hidden. */
export const MAX_LAYOUT_TILES = 9;

/**
 * Every tile is given a 16:9 box. The document does not know a source's picture size, cameras,
 * screens and games are 16:9 in practice, and the program scales a source into its box without
 * keeping its aspect: a box of any other shape would stretch faces. Where a tile owns a whole
 * row of a canvas it covers the row instead (scaled to the row's height and centred, its sides
 * running off the canvas), which fills the vertical canvas without distortion.
 */
export const TILE_ASPECT = 16 / 9;

const PEOPLE: ReadonlySet<SourceKind> = new Set(['webcam', 'participant']);
const CONTENT: ReadonlySet<SourceKind> = new Set(['screenshare', 'game']);

/** Room around the picture-in-picture camera and between strip tiles, in scene pixels. */
const PIP_MARGIN = 24;
const PIP_WIDTH = 320;
/** Screen + cameras: the cameras' column on the horizontal canvas. */
const STRIP_WIDTH = 320;
/** Speaker + guests: the guests' row under the speaker on the horizontal canvas. */
const GUEST_ROW_HEIGHT = 180;

export interface LayoutTile {
  layerId: string;
  kind: 'person' | 'content';
}

/** Where each tile goes on both canvases; a tile the layout does not use is hidden (absent from `placed`). */
export interface SceneArrangement {
  placed: { layerId: string; horizontal: LayerBox; vertical: LayerBox }[];
  hidden: string[];
}

/** The tiles of a scene, in the order layouts fill them: cameras first, then guests, then content, each by stacking order. */
export function layoutTiles(scene: Pick<Scene, 'layers'>, sources: readonly Pick<Source, 'id' | 'kind'>[]): LayoutTile[] {
  const kindOf = new Map(sources.map((s) => [s.id, s.kind]));
  const rank = (kind: SourceKind | undefined) => (kind === 'webcam' ? 0 : kind === 'participant' ? 1 : 2);
  return [...scene.layers]
    .filter((l) => l.visible && (PEOPLE.has(kindOf.get(l.sourceId) ?? 'microphone') || CONTENT.has(kindOf.get(l.sourceId) ?? 'microphone')))
    .sort((a, b) => rank(kindOf.get(a.sourceId)) - rank(kindOf.get(b.sourceId)) || a.zIndex - b.zIndex)
    .map((l) => ({ layerId: l.id, kind: PEOPLE.has(kindOf.get(l.sourceId)!) ? 'person' : 'content' }));
}

// ─── Geometry ───

interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The biggest 16:9 box inside `cell`, centred. */
function contain(cell: Area): LayerBox {
  const width = Math.max(1, Math.min(cell.width, Math.floor(cell.height * TILE_ASPECT)));
  const height = Math.max(1, Math.min(cell.height, Math.floor(width / TILE_ASPECT)));
  return { x: cell.x + Math.round((cell.width - width) / 2), y: cell.y + Math.round((cell.height - height) / 2), width, height };
}

/**
 * A tile in its cell on `canvas`: a cell that spans the canvas's whole width and is no wider than
 * 16:9 is covered (the picture scaled to the cell's height, running off both sides of the canvas,
 * never into another cell); any other cell gets the biggest 16:9 box that fits, centred.
 */
function fit(cell: Area, canvas: { width: number }): LayerBox {
  const width = Math.round(cell.height * TILE_ASPECT);
  if (cell.x !== 0 || cell.width !== canvas.width || width < cell.width) return contain(cell);
  return { x: Math.round((cell.width - width) / 2), y: cell.y, width, height: cell.height };
}

/**
 * `count` equal cells in `area`: the number of columns that gives 16:9 tiles the most room (more
 * columns on a tie), rows filled left to right, a short last row centred.
 */
export function gridCells(count: number, area: Area): Area[] {
  if (count <= 0) return [];
  let best = { columns: 1, size: -1 };
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    const box = contain({ x: 0, y: 0, width: Math.floor(area.width / columns), height: Math.floor(area.height / rows) });
    if (box.width * box.height >= best.size) best = { columns, size: box.width * box.height };
  }
  const columns = best.columns;
  const rows = Math.ceil(count / columns);
  const cellWidth = Math.floor(area.width / columns);
  const cells: Area[] = [];
  for (let row = 0; row < rows; row++) {
    const inRow = Math.min(columns, count - row * columns);
    // A full row spans the area exactly; a short one is centred.
    const rowWidth = inRow === columns ? area.width : inRow * cellWidth;
    const left = area.x + Math.round((area.width - rowWidth) / 2);
    const top = area.y + Math.round((area.height * row) / rows);
    const bottom = area.y + Math.round((area.height * (row + 1)) / rows);
    for (let i = 0; i < inRow; i++) {
      const x = left + Math.round((rowWidth * i) / inRow);
      const next = left + Math.round((rowWidth * (i + 1)) / inRow);
      cells.push({ x, y: top, width: next - x, height: bottom - top });
    }
  }
  return cells;
}

function canvasArea(canvas: CanvasKind): Area {
  const size = canvas === 'vertical' ? VERTICAL_CANVAS : CANVAS;
  return { x: 0, y: 0, width: size.width, height: size.height };
}

/** A tile grid in `area`, each tile fitted to its cell. */
function tiled(count: number, area: Area, canvas: CanvasKind): LayerBox[] {
  const size = canvasArea(canvas);
  return gridCells(count, area).map((cell) => fit(cell, size));
}

/** Cells `count` high, stacked in a column of `width` at `x`, centred vertically in [top, top + height). */
function column(count: number, x: number, width: number, top: number, height: number): Area[] {
  const tileHeight = Math.min(Math.floor(width / TILE_ASPECT), Math.floor(height / Math.max(1, count)));
  const start = top + Math.round((height - tileHeight * count) / 2);
  return Array.from({ length: count }, (_, i) => ({ x, y: start + i * tileHeight, width, height: tileHeight }));
}

/** The boxes of `main` and `rest` on one canvas for a layout with a main tile. */
function mainAndRest(layout: 'picture-in-picture' | 'screen-strip' | 'speaker', restCount: number, canvas: CanvasKind): { main: LayerBox; rest: LayerBox[] } {
  const full = canvasArea(canvas);
  if (restCount === 0) return { main: fit(full, full), rest: [] };
  if (canvas === 'horizontal') {
    switch (layout) {
      case 'picture-in-picture': {
        const height = Math.round(PIP_WIDTH / TILE_ASPECT);
        return { main: fit(full, full), rest: [{ x: full.width - PIP_MARGIN - PIP_WIDTH, y: full.height - PIP_MARGIN - height, width: PIP_WIDTH, height }] };
      }
      case 'screen-strip': {
        const mainArea = { x: 0, y: 0, width: full.width - STRIP_WIDTH, height: full.height };
        return { main: contain(mainArea), rest: column(restCount, full.width - STRIP_WIDTH, STRIP_WIDTH, 0, full.height).map(contain) };
      }
      case 'speaker': {
        const mainArea = { x: 0, y: 0, width: full.width, height: full.height - GUEST_ROW_HEIGHT };
        const row = gridCells(restCount, { x: 0, y: full.height - GUEST_ROW_HEIGHT, width: full.width, height: GUEST_ROW_HEIGHT });
        return { main: contain(mainArea), rest: row.map(contain) };
      }
    }
  }
  // The vertical canvas: the main tile on top, the others share the rest (as deriveVerticalLayout does).
  switch (layout) {
    case 'picture-in-picture': {
      // The content fills the canvas's middle row; the camera sits below it, in the lower corner.
      const width = Math.round(full.width / 2);
      const height = Math.round(width / TILE_ASPECT);
      const main = fit({ x: 0, y: 0, width: full.width, height: full.height - VERTICAL_PEOPLE_BAND }, full);
      return { main, rest: [{ x: full.width - PIP_MARGIN - width, y: full.height - PIP_MARGIN - height, width, height }] };
    }
    case 'screen-strip': {
      // Content in the bottom square, the people sharing the band above it.
      const main = fit({ x: 0, y: VERTICAL_PEOPLE_BAND, width: full.width, height: full.height - VERTICAL_PEOPLE_BAND }, full);
      return { main, rest: tiled(restCount, { x: 0, y: 0, width: full.width, height: VERTICAL_PEOPLE_BAND }, canvas) };
    }
    case 'speaker': {
      const main = fit({ x: 0, y: 0, width: full.width, height: full.height - VERTICAL_PEOPLE_BAND }, full);
      return { main, rest: tiled(restCount, { x: 0, y: full.height - VERTICAL_PEOPLE_BAND, width: full.width, height: VERTICAL_PEOPLE_BAND }, canvas) };
    }
  }
}

/** Which tiles a layout uses, main first, and how many of the others it shows. */
function pick(layout: SceneLayoutId, tiles: readonly LayoutTile[], focusLayerId: string | undefined): LayoutTile[] {
  const focus = tiles.find((t) => t.layerId === focusLayerId);
  const people = tiles.filter((t) => t.kind === 'person');
  const content = tiles.filter((t) => t.kind === 'content');
  const firstPerson = focus?.kind === 'person' ? focus : people[0];
  const firstContent = focus?.kind === 'content' ? focus : content[0];
  const without = (list: LayoutTile[], tile: LayoutTile | undefined) => list.filter((t) => t !== tile);
  switch (layout) {
    case 'solo':
      return [focus ?? people[0] ?? tiles[0]].filter((t): t is LayoutTile => t !== undefined);
    case 'side-by-side': {
      const first = focus ?? tiles[0];
      return first ? [first, ...without([...people, ...content], first).slice(0, 1)] : [];
    }
    case 'grid':
      return (focus ? [focus, ...without([...tiles], focus)] : [...tiles]).slice(0, MAX_LAYOUT_TILES);
    case 'picture-in-picture': {
      const main = firstContent ?? firstPerson;
      const corner = without(people, main)[0];
      return [main, corner].filter((t): t is LayoutTile => t !== undefined);
    }
    case 'screen-strip': {
      const main = firstContent ?? firstPerson;
      return [main, ...without(people, main).slice(0, 4)].filter((t): t is LayoutTile => t !== undefined);
    }
    case 'speaker': {
      const main = firstPerson ?? firstContent;
      return [main, ...without([...people, ...content], main).slice(0, 4)].filter((t): t is LayoutTile => t !== undefined);
    }
  }
}

/**
 * The arrangement of `layout` for these tiles on both canvases. `focusLayerId` (the tile the
 * creator selected) is the one Solo shows, and the main tile of the layouts that have one.
 */
export function arrangeTiles(layout: SceneLayoutId, tiles: readonly LayoutTile[], options: { focusLayerId?: string } = {}): SceneArrangement {
  const used = pick(layout, tiles, options.focusLayerId);
  const hidden = tiles.filter((t) => !used.includes(t)).map((t) => t.layerId);
  const boxes = (canvas: CanvasKind): LayerBox[] => {
    if (used.length === 0) return [];
    switch (layout) {
      case 'solo':
      case 'side-by-side':
      case 'grid':
        return tiled(used.length, canvasArea(canvas), canvas);
      case 'picture-in-picture':
      case 'screen-strip':
      case 'speaker': {
        const { main, rest } = mainAndRest(layout, used.length - 1, canvas);
        return [main, ...rest];
      }
    }
  };
  const horizontal = boxes('horizontal');
  const vertical = boxes('vertical');
  return { placed: used.map((t, i) => ({ layerId: t.layerId, horizontal: horizontal[i]!, vertical: vertical[i]! })), hidden };
}

/**
 * The ops that apply `layout` to a scene: every used tile moved on both canvases and shown, the
 * others hidden, and the tiles restacked among themselves (main lowest, so a corner camera is
 * drawn over the screen) in the stack places they held, so overlays stay over them, and the logo
 * goes to the top.
 * Crops, opacity and every other layer are left alone. Empty when the scene has no tiles.
 */
export function sceneLayoutOps(doc: SceneDocument, sceneId: string, layout: SceneLayoutId, options: { focusLayerId?: string } = {}): SceneOp[] {
  return arrangeScene(doc, sceneId, layout, options)?.ops ?? [];
}

/**
 * `layout` applied to a scene (sceneLayoutOps) with the tile it was built around: the first one
 * placed, which a scene following the layout keeps in the main place. Null when the scene has no tiles.
 */
export function arrangeScene(
  doc: SceneDocument,
  sceneId: string,
  layout: SceneLayoutId,
  options: { focusLayerId?: string } = {},
): { ops: SceneOp[]; mainLayerId: string } | null {
  const scene = doc.scenes.find((s) => s.id === sceneId && s.deletedAt === null);
  if (!scene) return null;
  const tiles = layoutTiles(scene, doc.sources);
  if (tiles.length === 0) return null;
  const arrangement = arrangeTiles(layout, tiles, options);
  const ops: SceneOp[] = [];
  for (const { layerId, horizontal, vertical } of arrangement.placed) {
    ops.push({ op: 'updateLayer', sceneId, layerId, changes: { ...horizontal, visible: true } });
    ops.push({ op: 'updateLayerVertical', sceneId, layerId, changes: { ...vertical } });
  }
  for (const layerId of arrangement.hidden) ops.push({ op: 'updateLayer', sceneId, layerId, changes: { visible: false } });
  const kindOf = new Map(doc.sources.map((s) => [s.id, s.kind]));
  const logos = scene.layers.filter((l) => kindOf.get(l.sourceId) === 'watermark').map((l) => l.id);
  const order = restack(
    scene.layers,
    arrangement.placed.map((p) => p.layerId),
    logos,
  );
  if (order) ops.push({ op: 'reorderLayers', sceneId, layerIds: order });
  return { ops, mainLayerId: arrangement.placed[0]!.layerId };
}

/**
 * The scene's stack with `tiles` (bottom first) in the places the tiles held and the logo on top
 * (a full-frame tile must not hide it); null when nothing moves.
 */
function restack(layers: readonly Layer[], tiles: readonly string[], logos: readonly string[]): string[] | null {
  const stack = [...layers].sort((a, b) => a.zIndex - b.zIndex).map((l) => l.id);
  const wanted = new Set(tiles);
  const queue = [...tiles];
  const tilesPlaced = stack.map((id) => (wanted.has(id) ? queue.shift()! : id));
  const next = [...tilesPlaced.filter((id) => !logos.includes(id)), ...tilesPlaced.filter((id) => logos.includes(id))];
  return next.every((id, i) => id === stack[i]) ? null : next;
}
