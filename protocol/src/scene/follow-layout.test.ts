import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planEntitlements } from '../plans.ts';
import { applyAcceptedPatch, applyScenePatch } from './apply-patch.ts';
import { sceneDocumentSchema, type Layer, type SceneDocument } from './document.ts';
import { applyScenePatchFollowingLayouts, followLayoutOps, followLayouts, grownLayout, guestLeftOps } from './follow-layout.ts';
import { newProjectDocument } from './new-document.ts';
import { sceneOpSchema, type SceneOp } from './patch.ts';
import { sceneLayoutIds, type SceneLayoutId } from './scene-layout-ids.ts';
import { arrangeTiles, layoutTiles, type LayoutTile } from './scene-layouts.ts';
import type { SourceKind } from './sources.ts';
import { validateSceneDocument } from './validate.ts';
import { verticalLayout } from './vertical.ts';

const free = planEntitlements.Free;

function apply(doc: SceneDocument, ops: SceneOp[]): { doc: SceneDocument; ops: SceneOp[] } {
  const result = applyScenePatchFollowingLayouts(doc, { baseVersion: doc.version, ops }, free);
  if (!result.ok) throw new Error(`${result.rejection.code}: ${result.rejection.message}`);
  return { doc: result.document, ops: result.ops };
}

/** A new project (the host's camera and the logo in Scene 1), with `extra` sources of these kinds added to it. */
function project(extra: SourceKind[] = []): { doc: SceneDocument; sceneId: string; camera: string } {
  const ids = { projectId: randomUUID(), sceneId: randomUUID(), watermarkSourceId: randomUUID(), watermarkLayerId: randomUUID() };
  const camera = randomUUID();
  let doc = newProjectDocument({ ...ids, resolution: '720p', camera: { sourceId: randomUUID(), layerId: camera, userId: 'host' } });
  for (const kind of extra) doc = apply(doc, addOps(ids.sceneId, kind).ops).doc;
  return { doc, sceneId: ids.sceneId, camera };
}

/** The ops that add a new source of `kind` to a scene, and the new layer's id. */
function addOps(sceneId: string, kind: SourceKind): { ops: SceneOp[]; layerId: string } {
  const sourceId = randomUUID();
  const layerId = randomUUID();
  return {
    ops: [
      { op: 'addSource', source: { id: sourceId, kind } as Extract<SceneOp, { op: 'addSource' }>['source'] },
      { op: 'addLayer', sceneId, layer: { id: layerId, sourceId } },
    ],
    layerId,
  };
}

const layersOf = (doc: SceneDocument, sceneId: string) => doc.scenes.find((s) => s.id === sceneId)!.layers;
const layer = (doc: SceneDocument, sceneId: string, id: string): Layer => layersOf(doc, sceneId).find((l) => l.id === id)!;
const box = (l: Layer) => ({ x: l.x, y: l.y, width: l.width, height: l.height });
const follow = (doc: SceneDocument, sceneId: string, layout: SceneLayoutId, focusLayerId?: string) =>
  apply(doc, followLayoutOps(doc, sceneId, layout, focusLayerId ? { focusLayerId } : {})).doc;

/** Where `layout` puts each tile of the scene as it is, on both canvases. */
function expectArranged(doc: SceneDocument, sceneId: string, layout: SceneLayoutId, focusLayerId?: string): void {
  const scene = doc.scenes.find((s) => s.id === sceneId)!;
  const tiles = layoutTiles(scene, doc.sources);
  const { placed } = arrangeTiles(layout, tiles, focusLayerId ? { focusLayerId } : {});
  const vertical = verticalLayout(scene, doc.sources);
  for (const p of placed) {
    expect(box(layer(doc, sceneId, p.layerId)), `${layout}: ${p.layerId}`).toEqual(p.horizontal);
    expect(vertical.get(p.layerId)).toMatchObject(p.vertical);
  }
  expect(placed).toHaveLength(tiles.length);
}

describe('following a layout', () => {
  it('the layout bar applies a layout and follows it, built around the focused tile, in one version', () => {
    const { doc, sceneId, camera } = project(['participant']);
    const ops = followLayoutOps(doc, sceneId, 'side-by-side', { focusLayerId: camera });
    expect(ops.at(-1)).toEqual({ op: 'followLayout', sceneId, followedLayout: { layout: 'side-by-side', mainLayerId: camera } });
    const result = apply(doc, ops);
    expect(result.doc.version).toBe(doc.version + 1);
    expect(result.doc.scenes[0]!.followedLayout).toEqual({ layout: 'side-by-side', mainLayerId: camera });
    // The patch set the layout: nothing more is added to it.
    expect(result.ops).toEqual(ops);
    expect(box(layer(result.doc, sceneId, camera))).toEqual({ x: 0, y: 180, width: 640, height: 360 });
    expect(validateSceneDocument(result.doc)).toMatchObject({ ok: true });
    expect(sceneDocumentSchema.parse(result.doc).scenes[0]!.followedLayout).toEqual({ layout: 'side-by-side', mainLayerId: camera });
  });

  it('a guest added to a scene following Grid falls into place in the same version, on both canvases, the host first', () => {
    const { doc: start, sceneId, camera } = project(['participant']);
    let doc = follow(start, sceneId, 'grid', camera);
    const add = addOps(sceneId, 'participant');
    const result = apply(doc, add.ops);
    expect(result.doc.version).toBe(doc.version + 1);
    // The creator's ops first, then the re-flow.
    expect(result.ops.slice(0, 2).map((op) => op.op)).toEqual(['addSource', 'addLayer']);
    expect(result.ops.slice(2).some((op) => op.op === 'updateLayer' && op.layerId === add.layerId)).toBe(true);
    doc = result.doc;
    expectArranged(doc, sceneId, 'grid', camera);
    expect(layoutTiles(doc.scenes[0]!, doc.sources)[0]!.layerId).toBe(camera);
    expect(box(layer(doc, sceneId, camera))).toEqual({ x: 0, y: 0, width: 640, height: 360 });
    // The logo stays where the plan needs it, on top.
    const logo = layersOf(doc, sceneId).find((l) => doc.sources.find((s) => s.id === l.sourceId)?.kind === 'watermark')!;
    expect(logo).toMatchObject({ x: 30, y: 30, zIndex: layersOf(doc, sceneId).length - 1 });
    expect(validateSceneDocument(doc)).toMatchObject({ ok: true });
  });

  it('a guest leaving the scene re-flows the others; the main tile gone, the layout is built around the next', () => {
    const { doc: start, sceneId, camera } = project(['participant', 'participant']);
    let doc = follow(start, sceneId, 'speaker', camera);
    const guests = layoutTiles(doc.scenes[0]!, doc.sources).filter((t) => t.layerId !== camera);
    doc = apply(doc, [{ op: 'removeLayer', sceneId, layerId: guests[0]!.layerId }]).doc;
    expectArranged(doc, sceneId, 'speaker', camera);
    expect(box(layer(doc, sceneId, guests[1]!.layerId)).y).toBeGreaterThan(360);
    // The host's camera leaves too: the remaining guest is the speaker now, full frame.
    const cameraSource = layer(doc, sceneId, camera).sourceId;
    const result = apply(doc, [{ op: 'removeSource', sourceId: cameraSource }]);
    expect(result.doc.scenes[0]!.followedLayout).toEqual({ layout: 'speaker', mainLayerId: guests[1]!.layerId });
    expect(box(layer(result.doc, sceneId, guests[1]!.layerId))).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
    // Nothing left to arrange: the scene keeps following, around no tile.
    const empty = apply(result.doc, [{ op: 'removeLayer', sceneId, layerId: guests[1]!.layerId }]);
    expect(empty.doc.scenes[0]!.followedLayout).toEqual({ layout: 'speaker', mainLayerId: null });
    expect(validateSceneDocument(empty.doc)).toMatchObject({ ok: true });
  });

  it('Solo grows into Side by side with a second tile and into Grid with a third; Picture in picture into Screen + cameras', () => {
    const { doc: start, sceneId, camera } = project();
    let doc = follow(start, sceneId, 'solo');
    doc = apply(doc, addOps(sceneId, 'participant').ops).doc;
    expect(doc.scenes[0]!.followedLayout).toEqual({ layout: 'side-by-side', mainLayerId: camera });
    expectArranged(doc, sceneId, 'side-by-side', camera);
    doc = apply(doc, addOps(sceneId, 'participant').ops).doc;
    expect(doc.scenes[0]!.followedLayout?.layout).toBe('grid');
    expectArranged(doc, sceneId, 'grid', camera);

    const pip = project(['screenshare']);
    let withScreen = follow(pip.doc, pip.sceneId, 'picture-in-picture');
    const screen = withScreen.scenes[0]!.followedLayout!.mainLayerId!;
    expect(layer(withScreen, pip.sceneId, screen)).toMatchObject({ x: 0, y: 0, width: 1280, height: 720 });
    withScreen = apply(withScreen, addOps(pip.sceneId, 'participant').ops).doc;
    expect(withScreen.scenes[0]!.followedLayout).toEqual({ layout: 'screen-strip', mainLayerId: screen });
    expectArranged(withScreen, pip.sceneId, 'screen-strip', screen);
  });

  it('grownLayout: a layout that shows every tile stays; the others grow only as far as they must', () => {
    const tiles = (people: number, content = 0): LayoutTile[] =>
      Array.from({ length: people + content }, (_, i) => ({ layerId: `t${i}`, kind: i < people ? 'person' : 'content' }));
    for (const layout of sceneLayoutIds) expect(grownLayout(layout, tiles(1))).toBe(layout);
    expect(grownLayout('solo', tiles(2))).toBe('side-by-side');
    expect(grownLayout('solo', tiles(5))).toBe('grid');
    expect(grownLayout('side-by-side', tiles(3))).toBe('grid');
    expect(grownLayout('picture-in-picture', tiles(2, 1))).toBe('screen-strip');
    expect(grownLayout('picture-in-picture', tiles(3))).toBe('speaker');
    // Layouts with room for five or nine keep their limits.
    expect(grownLayout('grid', tiles(10))).toBe('grid');
    expect(grownLayout('speaker', tiles(7))).toBe('speaker');
  });

  it('hiding a tile by hand re-flows the others; moving the logo or renaming the scene re-flows nothing', () => {
    const { doc: start, sceneId, camera } = project(['participant', 'participant']);
    let doc = follow(start, sceneId, 'grid', camera);
    const [, second] = layoutTiles(doc.scenes[0]!, doc.sources);
    doc = apply(doc, [{ op: 'updateLayer', sceneId, layerId: second!.layerId, changes: { visible: false } }]).doc;
    expect(layer(doc, sceneId, second!.layerId).visible).toBe(false);
    expectArranged(doc, sceneId, 'grid', camera);
    expect(box(layer(doc, sceneId, camera))).toEqual({ x: 0, y: 180, width: 640, height: 360 });

    const logo = layersOf(doc, sceneId).find((l) => doc.sources.find((s) => s.id === l.sourceId)?.kind === 'watermark')!;
    const ops: SceneOp[] = [
      { op: 'updateLayer', sceneId, layerId: logo.id, changes: { x: 40 } },
      { op: 'renameScene', sceneId, name: 'Talk' },
    ];
    expect(apply(doc, ops).ops).toEqual(ops);
  });

  it('a scene arranged by hand is not re-flowed, and stopping to follow keeps the tiles where they are', () => {
    const { doc: start, sceneId, camera } = project(['participant']);
    const add = addOps(sceneId, 'participant');
    const names = (ops: SceneOp[]) => ops.map((op) => op.op);
    expect(names(apply(start, add.ops).ops)).toEqual(['addSource', 'addLayer']);

    let doc = follow(start, sceneId, 'side-by-side', camera);
    const before = layersOf(doc, sceneId);
    const stop = apply(doc, [{ op: 'followLayout', sceneId, followedLayout: null }]);
    expect(stop.doc.scenes[0]!.followedLayout).toBeUndefined();
    expect(layersOf(stop.doc, sceneId)).toEqual(before);
    doc = stop.doc;
    expect(names(apply(doc, add.ops).ops)).toEqual(['addSource', 'addLayer']);
    // A drag by hand: the studio stops following in the same patch, so the re-flow does not undo the drag.
    const moved: SceneOp[] = [
      { op: 'updateLayer', sceneId, layerId: camera, changes: { x: 100, y: 100 } },
      { op: 'followLayout', sceneId, followedLayout: null },
    ];
    expect(apply(follow(start, sceneId, 'grid'), moved).doc.scenes[0]!.followedLayout).toBeUndefined();
  });

  it('every following scene re-flows, not only the active one: a source removed from the project leaves both', () => {
    const { doc: start, sceneId, camera } = project(['participant', 'participant']);
    const second = randomUUID();
    const cameraSource = layer(start, sceneId, camera).sourceId;
    const guestSources = start.sources.filter((s) => s.kind === 'participant').map((s) => s.id);
    let doc = apply(start, [
      { op: 'addScene', sceneId: second, name: 'Panel' },
      { op: 'addLayer', sceneId: second, layer: { id: randomUUID(), sourceId: start.sources.find((s) => s.kind === 'watermark')!.id } },
      ...[cameraSource, ...guestSources].map((sourceId): SceneOp => ({ op: 'addLayer', sceneId: second, layer: { id: randomUUID(), sourceId } })),
    ]).doc;
    doc = follow(follow(doc, sceneId, 'grid'), second, 'speaker');
    const result = apply(doc, [{ op: 'removeSource', sourceId: guestSources[0]! }]);
    expect(result.ops.filter((op) => op.op === 'updateLayer').map((op) => (op as { sceneId: string }).sceneId)).toEqual(
      expect.arrayContaining([sceneId, second]),
    );
    expectArranged(result.doc, sceneId, 'grid');
    expectArranged(result.doc, second, 'speaker', result.doc.scenes.find((s) => s.id === second)!.followedLayout!.mainLayerId!);
  });

  it('the accepted ops replay to the same document (a worker, another studio)', () => {
    const { doc: start, sceneId, camera } = project(['participant']);
    const doc = follow(start, sceneId, 'solo', camera);
    const result = apply(doc, addOps(sceneId, 'screenshare').ops);
    const replay = applyAcceptedPatch(doc, { projectId: doc.projectId, version: doc.version + 1, ops: result.ops });
    expect(replay).toEqual({ ok: true, document: result.doc });
    // The re-flow's own ops find nothing more to do when replayed through the following apply.
    expect(followLayouts(result.doc, result.doc)).toEqual([]);
    for (const op of result.ops) expect(sceneOpSchema.safeParse(op).success).toBe(true);
  });

  it('a followed layout must be built around a tile of its own scene', () => {
    const { doc, sceneId } = project();
    const result = applyScenePatch(
      doc,
      { baseVersion: doc.version, ops: [{ op: 'followLayout', sceneId, followedLayout: { layout: 'grid', mainLayerId: randomUUID() } }] },
      free,
    );
    expect(result).toMatchObject({ ok: false, rejection: { code: 'layer-not-found', opIndex: 0 } });
    expect(sceneOpSchema.safeParse({ op: 'followLayout', sceneId, followedLayout: { layout: 'mosaic', mainLayerId: null } }).success).toBe(false);
  });

  it('a following scene the patch removes is not re-flowed', () => {
    const { doc: start, sceneId } = project(['participant']);
    const other = randomUUID();
    let doc = apply(start, [
      { op: 'addScene', sceneId: other, name: 'Other' },
      { op: 'addLayer', sceneId: other, layer: { id: randomUUID(), sourceId: start.sources.find((s) => s.kind === 'watermark')!.id } },
    ]).doc;
    doc = follow(doc, sceneId, 'grid');
    const add = addOps(sceneId, 'participant');
    const result = apply(doc, [...add.ops, { op: 'removeScene', sceneId }]);
    expect(result.ops.map((op) => op.op)).toEqual(['addSource', 'addLayer', 'removeScene']);
  });
});

describe('guestLeftOps: a guest who leaves the room', () => {
  function withGuest(following: boolean) {
    const { doc, sceneId, camera } = project();
    const guestSource = randomUUID();
    const guestLayer = randomUUID();
    let next = apply(doc, [
      {
        op: 'addSource',
        source: { id: guestSource, kind: 'participant', settings: { opacity: 1, volume: 1, muted: false, userId: 'guest-1', displayName: 'Grace' } } as Extract<
          SceneOp,
          { op: 'addSource' }
        >['source'],
      },
      { op: 'addLayer', sceneId, layer: { id: guestLayer, sourceId: guestSource } },
    ]).doc;
    if (following) next = follow(next, sceneId, 'side-by-side');
    return { doc: next, sceneId, camera, guestLayer };
  }

  it('hides their tile in a following scene, and the same patch re-flows the rest (Side by side back to the camera alone)', () => {
    const { doc, sceneId, camera, guestLayer } = withGuest(true);
    expectArranged(doc, sceneId, 'side-by-side');
    const ops = guestLeftOps(doc, 'guest-1');
    expect(ops).toEqual([{ op: 'updateLayer', sceneId, layerId: guestLayer, changes: { visible: false } }]);
    const after = apply(doc, ops).doc;
    expect(layer(after, sceneId, guestLayer).visible).toBe(false);
    // The camera alone fills the canvas again: the following layout re-flowed in the same version.
    expect(layer(after, sceneId, camera).width).toBeGreaterThan(layer(doc, sceneId, camera).width);
    expect(after.version).toBe(doc.version + 1);
    // Already hidden, or another guest: nothing to do.
    expect(guestLeftOps(after, 'guest-1')).toEqual([]);
    expect(guestLeftOps(doc, 'guest-2')).toEqual([]);
  });

  it('leaves a scene that does not follow a layout as the creator arranged it', () => {
    const { doc } = withGuest(false);
    expect(guestLeftOps(doc, 'guest-1')).toEqual([]);
  });
});
