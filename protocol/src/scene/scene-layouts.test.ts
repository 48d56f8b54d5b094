import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planEntitlements } from '../plans.ts';
import { applyScenePatch } from './apply-patch.ts';
import type { SceneDocument } from './document.ts';
import { CANVAS, type LayerBox } from './layout.ts';
import { newProjectDocument } from './new-document.ts';
import type { SceneOp } from './patch.ts';
import { sceneLayoutIds, type SceneLayoutId } from './scene-layout-ids.ts';
import { arrangeTiles, gridCells, layoutTiles, MAX_LAYOUT_TILES, sceneLayoutOps, TILE_ASPECT, type LayoutTile } from './scene-layouts.ts';
import type { SourceKind } from './sources.ts';
import { validateSceneDocument } from './validate.ts';
import { VERTICAL_CANVAS, verticalLayout } from './vertical.ts';

const free = planEntitlements.Free;

/** A new project's document with `people` cameras/guests and `content` screen shares added to Scene 1. */
function scene(people: number, content: number): { doc: SceneDocument; sceneId: string } {
  const ids = { projectId: randomUUID(), sceneId: randomUUID(), watermarkSourceId: randomUUID(), watermarkLayerId: randomUUID() };
  let doc = newProjectDocument({ ...ids, resolution: '720p', camera: { sourceId: randomUUID(), layerId: randomUUID(), userId: 'host' } });
  const ops: SceneOp[] = [];
  const add = (kind: SourceKind) => {
    const sourceId = randomUUID();
    ops.push({ op: 'addSource', source: { id: sourceId, kind } as Extract<SceneOp, { op: 'addSource' }>['source'] });
    ops.push({ op: 'addLayer', sceneId: ids.sceneId, layer: { id: randomUUID(), sourceId } });
  };
  for (let i = 1; i < people; i++) add('participant');
  for (let i = 0; i < content; i++) add(i === 0 ? 'screenshare' : 'game');
  if (ops.length > 0) {
    const result = applyScenePatch(doc, { baseVersion: 0, ops }, free);
    if (!result.ok) throw new Error(result.rejection.message);
    doc = result.document;
  }
  if (people === 0) {
    // No camera at all: drop the host's.
    const camera = doc.sources.find((s) => s.kind === 'webcam')!;
    const result = applyScenePatch(doc, { baseVersion: doc.version, ops: [{ op: 'removeSource', sourceId: camera.id }] }, free);
    if (!result.ok) throw new Error(result.rejection.message);
    doc = result.document;
  }
  return { doc, sceneId: ids.sceneId };
}

function tiles(count: number, people = count): LayoutTile[] {
  return Array.from({ length: count }, (_, i) => ({ layerId: `t${i}`, kind: i < people ? 'person' : 'content' }));
}

const inside = (box: LayerBox, area: { width: number; height: number }) =>
  box.x >= 0 && box.y >= 0 && box.x + box.width <= area.width && box.y + box.height <= area.height;
const overlap = (a: LayerBox, b: LayerBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
/** 16:9 within a pixel of rounding. */
const sixteenByNine = (box: LayerBox) => Math.abs(box.width / TILE_ASPECT - box.height) <= 1;

describe('arrangeTiles: every layout with 1 to 9 tiles on both canvases', () => {
  for (const layout of sceneLayoutIds) {
    for (let count = 1; count <= MAX_LAYOUT_TILES; count++) {
      for (const content of [0, 1]) {
        if (content > count) continue;
        it(`${layout}, ${count} tile(s), ${content} screen`, () => {
          const all = tiles(count, count - content);
          const { placed, hidden } = arrangeTiles(layout, all);
          // Every tile is either placed or hidden, once.
          expect([...placed.map((p) => p.layerId), ...hidden].sort()).toEqual(all.map((t) => t.layerId).sort());
          expect(placed.length).toBeGreaterThan(0);
          for (const { horizontal, vertical } of placed) {
            // Undistorted: every box is 16:9 on both canvases.
            expect(sixteenByNine(horizontal), JSON.stringify(horizontal)).toBe(true);
            expect(sixteenByNine(vertical), JSON.stringify(vertical)).toBe(true);
            // Horizontal tiles stay on the canvas; vertical ones may run off its sides only (covering a row).
            expect(inside(horizontal, CANVAS), JSON.stringify(horizontal)).toBe(true);
            expect(vertical.y >= 0 && vertical.y + vertical.height <= VERTICAL_CANVAS.height, JSON.stringify(vertical)).toBe(true);
            expect(vertical.x + vertical.width > 0 && vertical.x < VERTICAL_CANVAS.width).toBe(true);
          }
          // Tiles do not cover each other, except picture in picture's corner camera over its main picture.
          for (const canvas of ['horizontal', 'vertical'] as const) {
            const boxes = placed.map((p) => p[canvas]);
            for (let a = 0; a < boxes.length; a++) {
              for (let b = a + 1; b < boxes.length; b++) {
                if (layout === 'picture-in-picture' && a === 0) continue;
                expect(overlap(boxes[a]!, boxes[b]!), `${canvas} ${a} ${b}: ${JSON.stringify(boxes)}`).toBe(false);
              }
            }
          }
          // What each layout shows.
          const shown = placed.length;
          const expected: Record<SceneLayoutId, number> = {
            solo: 1,
            'side-by-side': Math.min(2, count),
            grid: count,
            'picture-in-picture': Math.min(2, content === 1 ? 1 + Math.min(1, count - 1) : Math.min(2, count)),
            'screen-strip': Math.min(count, 5),
            speaker: Math.min(count, 5),
          };
          expect(shown).toBe(expected[layout]);
        });
      }
    }
  }

  it('a single tile fills each canvas: the whole 1280×720, and the whole height of the vertical canvas', () => {
    for (const layout of sceneLayoutIds) {
      const { placed } = arrangeTiles(layout, tiles(1));
      expect(placed[0]!.horizontal).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
      expect(placed[0]!.vertical).toMatchObject({ y: 0, height: 1280 });
    }
  });

  it('side by side is two half-width tiles; a 4-grid is 2×2 quarters; picture in picture puts the camera in the lower right corner over the screen', () => {
    expect(arrangeTiles('side-by-side', tiles(2)).placed.map((p) => p.horizontal)).toEqual([
      { x: 0, y: 180, width: 640, height: 360 },
      { x: 640, y: 180, width: 640, height: 360 },
    ]);
    expect(arrangeTiles('grid', tiles(4)).placed.map((p) => p.horizontal)).toEqual([
      { x: 0, y: 0, width: 640, height: 360 },
      { x: 640, y: 0, width: 640, height: 360 },
      { x: 0, y: 360, width: 640, height: 360 },
      { x: 640, y: 360, width: 640, height: 360 },
    ]);
    const pip = arrangeTiles('picture-in-picture', tiles(2, 1)).placed;
    expect(pip[0]).toMatchObject({ layerId: 't1', horizontal: { x: 0, y: 0, width: 1280, height: 720 } });
    expect(pip[1]).toMatchObject({ layerId: 't0', horizontal: { x: 936, y: 516, width: 320, height: 180 } });
  });

  it('the vertical canvas stacks two people in full-width rows, each covering its row', () => {
    const placed = arrangeTiles('side-by-side', tiles(2)).placed.map((p) => p.vertical);
    expect(placed.map((b) => [b.y, b.height])).toEqual([
      [0, 640],
      [640, 640],
    ]);
    expect(placed.every((b) => b.x < 0 && b.x + b.width > VERTICAL_CANVAS.width)).toBe(true);
  });

  it('the focused tile is the one Solo shows and the main one of Speaker + guests', () => {
    expect(arrangeTiles('solo', tiles(3), { focusLayerId: 't2' }).placed.map((p) => p.layerId)).toEqual(['t2']);
    expect(arrangeTiles('speaker', tiles(3), { focusLayerId: 't1' }).placed[0]!.layerId).toBe('t1');
  });

  it('grid cells: a short last row is centred', () => {
    const cells = gridCells(3, { x: 0, y: 0, width: 1280, height: 720 });
    expect(cells.map((c) => [c.x, c.y])).toEqual([
      [0, 0],
      [640, 0],
      [320, 360],
    ]);
  });
});

describe('sceneLayoutOps: one patch the scene rules accept', () => {
  for (const layout of sceneLayoutIds) {
    for (const [people, content] of [
      [1, 0],
      [2, 0],
      [3, 1],
      [9, 0],
      [0, 1],
    ] as const) {
      it(`${layout} with ${people} camera(s)/guest(s) and ${content} screen(s)`, () => {
        const { doc, sceneId } = scene(people, content);
        const before = doc.scenes[0]!;
        const ops = sceneLayoutOps(doc, sceneId, layout);
        const result = applyScenePatch(doc, { baseVersion: doc.version, ops }, free);
        if (!result.ok) throw new Error(result.rejection.message);
        // One version, the logo kept (Free), the document valid.
        expect(result.document.version).toBe(doc.version + 1);
        expect(validateSceneDocument(result.document)).toMatchObject({ ok: true });
        const after = result.document.scenes[0]!;
        const watermark = after.layers.find((l) => result.document.sources.find((s) => s.id === l.sourceId)?.kind === 'watermark')!;
        expect(watermark).toMatchObject({ x: 30, y: 30, width: 237, height: 62, visible: true });
        // The logo stays on top of every tile.
        expect(watermark.zIndex).toBe(after.layers.length - 1);
        // Crops are kept.
        for (const layer of after.layers) expect(layer.crop).toEqual(before.layers.find((l) => l.id === layer.id)!.crop);
        // Every visible tile has its place on the vertical canvas too.
        const vertical = verticalLayout(after, result.document.sources);
        for (const tile of layoutTiles(after, result.document.sources)) expect(vertical.get(tile.layerId)!.height).toBeGreaterThan(0);
      });
    }
  }

  it('picture in picture draws the corner camera over the screen, and the camera comes back full frame with Solo', () => {
    const { doc, sceneId } = scene(1, 1);
    const pip = applyScenePatch(doc, { baseVersion: doc.version, ops: sceneLayoutOps(doc, sceneId, 'picture-in-picture') }, free);
    if (!pip.ok) throw new Error(pip.rejection.message);
    const kinds = new Map(pip.document.sources.map((s) => [s.id, s.kind]));
    const layers = pip.document.scenes[0]!.layers;
    const camera = layers.find((l) => kinds.get(l.sourceId) === 'webcam')!;
    const screen = layers.find((l) => kinds.get(l.sourceId) === 'screenshare')!;
    expect(camera.zIndex).toBeGreaterThan(screen.zIndex);
    expect(screen).toMatchObject({ x: 0, y: 0, width: 1280, height: 720 });
    const solo = applyScenePatch(pip.document, { baseVersion: pip.document.version, ops: sceneLayoutOps(pip.document, sceneId, 'solo') }, free);
    if (!solo.ok) throw new Error(solo.rejection.message);
    const after = solo.document.scenes[0]!.layers;
    expect(after.find((l) => l.id === camera.id)).toMatchObject({ x: 0, y: 0, width: 1280, height: 720, visible: true });
    expect(after.find((l) => l.id === screen.id)).toMatchObject({ visible: false });
  });

  it('gives no ops for a scene without cameras, guests, screens or games', () => {
    const { doc, sceneId } = scene(0, 0);
    expect(sceneLayoutOps(doc, sceneId, 'grid')).toEqual([]);
  });
});
