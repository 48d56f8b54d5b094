import type { Entitlements } from '../plans.ts';
import { applyScenePatch, type ApplyScenePatchResult } from './apply-patch.ts';
import { liveScenes, NO_CROP, type Layer, type Scene, type SceneDocument } from './document.ts';
import { CANVAS } from './layout.ts';
import type { SceneOp, ScenePatch } from './patch.ts';
import type { FollowedLayout, SceneLayoutId } from './scene-layout-ids.ts';
import { arrangeScene, arrangeTiles, layoutTiles, type LayoutTile } from './scene-layouts.ts';
import { sourceDefaults, sourceKindInfo, type Source } from './sources.ts';
import { verticalLayout } from './vertical.ts';

/**
 * Scenes that follow their layout (issue 38): when a patch adds, removes, shows or hides one of a
 * following scene's cameras, guests, screens or game, the same patch re-flows the scene with the
 * layout functions the studio's layout bar uses, so guests fall into place as they arrive and the
 * change is one version (one undo step, one program change).
 */

/**
 * The layout a scene that follows `layout` takes for these tiles. A layout that would hide a tile
 * grows into the next one that shows more (Solo → Side by side → Grid; Picture in picture →
 * Screen + cameras with a screen or game, Speaker + guests without): a creator who follows Solo
 * and adds a guest means to show the guest. The others keep their limits (Grid shows nine).
 */
export function grownLayout(layout: SceneLayoutId, tiles: readonly LayoutTile[], focusLayerId?: string): SceneLayoutId {
  let current = layout;
  for (;;) {
    const { hidden } = arrangeTiles(current, tiles, focusLayerId === undefined ? {} : { focusLayerId });
    if (hidden.length === 0) return current;
    const next = growsInto(current, tiles);
    if (next === current) return current;
    current = next;
  }
}

function growsInto(layout: SceneLayoutId, tiles: readonly LayoutTile[]): SceneLayoutId {
  switch (layout) {
    case 'solo':
      return tiles.length === 2 ? 'side-by-side' : 'grid';
    case 'side-by-side':
      return 'grid';
    case 'picture-in-picture':
      return tiles.some((t) => t.kind === 'content') ? 'screen-strip' : 'speaker';
    case 'grid':
    case 'screen-strip':
    case 'speaker':
      return layout;
  }
}

const tileSet = (scene: Scene, doc: SceneDocument) =>
  layoutTiles(scene, doc.sources)
    .map((t) => t.layerId)
    .sort()
    .join(',');

/**
 * The ops that re-flow every scene of `after` following a layout whose tiles differ from `before`'s
 * (a patch turned `before` into `after`). A scene whose followed layout the patch itself set or
 * stopped is left alone: the studio sent that layout's ops with it.
 */
export function followLayouts(before: SceneDocument, after: SceneDocument): SceneOp[] {
  const ops: SceneOp[] = [];
  for (const scene of liveScenes(after)) {
    const followed = scene.followedLayout;
    const previous = before.scenes.find((s) => s.id === scene.id && s.deletedAt === null);
    if (!followed || !previous || JSON.stringify(previous.followedLayout) !== JSON.stringify(followed)) continue;
    if (tileSet(previous, before) === tileSet(scene, after)) continue;
    const tiles = layoutTiles(scene, after.sources);
    const focus = tiles.some((t) => t.layerId === followed.mainLayerId) ? followed.mainLayerId! : undefined;
    const layout = grownLayout(followed.layout, tiles, focus);
    const arranged = arrangeScene(after, scene.id, layout, focus === undefined ? {} : { focusLayerId: focus });
    ops.push(...(arranged?.ops ?? []));
    const next: FollowedLayout = { layout, mainLayerId: arranged?.mainLayerId ?? null };
    if (next.layout !== followed.layout || next.mainLayerId !== followed.mainLayerId) ops.push({ op: 'followLayout', sceneId: scene.id, followedLayout: next });
  }
  return ops;
}

/**
 * The ops the layout bar sends: `layout` applied to the scene and followed from now on, built
 * around `focusLayerId` when it is one of the scene's tiles. Empty when the scene has no tiles.
 */
export function followLayoutOps(doc: SceneDocument, sceneId: string, layout: SceneLayoutId, options: { focusLayerId?: string } = {}): SceneOp[] {
  const arranged = arrangeScene(doc, sceneId, layout, options);
  if (!arranged) return [];
  return [...arranged.ops, { op: 'followLayout', sceneId, followedLayout: { layout, mainLayerId: arranged.mainLayerId } }];
}

/**
 * applyScenePatch, then the re-flow of the scenes that follow their layout (followLayouts), as one
 * patch: the result's ops are the patch's followed by the re-flow's, so a replay of them ends with
 * the same document. What the api applies, and the studio shows while it waits for the answer.
 * A re-flow the rules refuse is left out rather than refusing the creator's own change.
 */
export function applyScenePatchFollowingLayouts(
  doc: SceneDocument,
  patch: ScenePatch,
  entitlements: Entitlements,
  options: Parameters<typeof applyScenePatch>[3] = {},
): ApplyScenePatchResult {
  const result = applyScenePatch(doc, patch, entitlements, options);
  if (!result.ok) return result;
  const reflow = followLayouts(doc, result.document);
  if (reflow.length === 0) return result;
  const following = applyScenePatch(doc, { baseVersion: patch.baseVersion, ops: [...result.ops, ...reflow] }, entitlements, options);
  return following.ok ? following : result;
}

/**
 * A guest left the room: in the live scenes that follow their layout, the tiles of the guest's
 * sources are hidden, so the scene re-flows without an empty "Camera Offline" tile. Applied as a
 * patch, the re-flow follows (applyScenePatchFollowingLayouts). Scenes that do not follow a layout
 * are the creator's arrangement and are left alone; a guest who comes back is shown again by the
 * host, as a guest is added. Empty when no following scene shows such a tile.
 */
export function guestLeftOps(doc: SceneDocument, guestId: string): SceneOp[] {
  const guestSources = new Set(doc.sources.filter((s) => s.kind === 'participant' && s.settings.userId === guestId).map((s) => s.id));
  if (guestSources.size === 0) return [];
  return liveScenes(doc)
    .filter((scene) => scene.followedLayout)
    .flatMap((scene) =>
      scene.layers
        .filter((layer) => guestSources.has(layer.sourceId) && layer.visible)
        .map((layer): SceneOp => ({ op: 'updateLayer', sceneId: scene.id, layerId: layer.id, changes: { visible: false } })),
    );
}

/**
 * An ingest feed arrived (RTMP ingest, WHIP, Auto Live) at a project without a game source: the
 * ops that put it in the program (issue 51; media-worker/README.md "An arriving feed is always
 * seen"). A 'Game Source' is added to the active scene, or, when that is a screen (Starting soon,
 * Be right back, Ending, a countdown), to the first ordinary scene, which becomes the active one:
 * a screen shows no tiles, and with nobody in the studio nobody could switch away from it. The
 * scene is arranged around the game and follows that layout from then on: picture in picture (the
 * game full frame, the host's camera in the lower right corner), grown to Screen + cameras when
 * more people share the scene, so cameras and guests that come later fall into place beside it.
 * Nothing when the project has a game source already (where the creator put it stays theirs) or
 * no ordinary scene. `newId` makes the source's and the layer's ids.
 */
export function feedArrivedOps(doc: SceneDocument, newId: () => string): SceneOp[] {
  if (doc.sources.some((s) => s.kind === 'game')) return [];
  const scenes = liveScenes(doc).sort((a, b) => a.order - b.order);
  const active = scenes.find((s) => s.id === doc.activeSceneId);
  const target = active?.kind === 'standard' ? active : scenes.find((s) => s.kind === 'standard');
  if (!target) return [];
  const sourceId = newId();
  const layerId = newId();
  const full = { x: 0, y: 0, width: CANVAS.width, height: CANVAS.height };
  const game: Source = { id: sourceId, kind: 'game', name: sourceKindInfo.game.label, settings: { ...sourceDefaults.game } };
  // The document as the two first ops leave it (the game at the bottom), to arrange it.
  const layer: Layer = { id: layerId, sourceId, ...full, crop: { ...NO_CROP }, zIndex: -1, opacity: 1, visible: true };
  const withGame: SceneDocument = {
    ...doc,
    sources: [...doc.sources, game],
    scenes: doc.scenes.map((s) => (s.id === target.id ? { ...s, layers: [...s.layers, layer] } : s)),
  };
  const tiles = layoutTiles(withGame.scenes.find((s) => s.id === target.id)!, withGame.sources);
  const layout = grownLayout('picture-in-picture', tiles, layerId);
  return [
    { op: 'addSource', source: { id: sourceId, kind: 'game', name: game.name } },
    { op: 'addLayer', sceneId: target.id, layer: { id: layerId, sourceId, ...full, zIndex: 0 } },
    ...followLayoutOps(withGame, target.id, layout, { focusLayerId: layerId }),
    ...(target.id === doc.activeSceneId ? [] : [{ op: 'setActiveScene', sceneId: target.id } as const]),
  ];
}

/**
 * A scene that follows its layout as the program plays it while the people (or the game's feed) of
 * `absentSourceIds` are not in the session (issue 51): their tiles are left out and the others re-flow as if they
 * had never been added (the scene's layout, grown as a patch would grow it), on both canvases; the
 * tiles are restacked among their own places, the main one lowest. With none of its tiles there it
 * is left as arranged (a dropped feed then stays where the slate covers it). The document is not changed:
 * when the person comes back, the program is the document's arrangement again. A scene arranged by
 * hand, or with none of its tiles away, is returned as it is.
 */
export function sceneWithoutAbsent(scene: Scene, sources: readonly Pick<Source, 'id' | 'kind'>[], absentSourceIds: ReadonlySet<string>): Scene {
  const followed = scene.followedLayout;
  if (!followed || absentSourceIds.size === 0) return scene;
  const sourceOf = new Map(scene.layers.map((l) => [l.id, l.sourceId]));
  const all = layoutTiles(scene, sources);
  const tiles = all.filter((t) => !absentSourceIds.has(sourceOf.get(t.layerId)!));
  // Nobody and nothing there (a console's feed dropped, nobody in the studio): the scene stays as
  // arranged, so the dropped feed stays in it and the holding slate covers it (planSlateSchema).
  if (tiles.length === all.length || tiles.length === 0) return scene;
  const focus = tiles.some((t) => t.layerId === followed.mainLayerId) ? followed.mainLayerId! : undefined;
  const layout = grownLayout(followed.layout, tiles, focus);
  const { placed } = arrangeTiles(layout, tiles, focus === undefined ? {} : { focusLayerId: focus });
  const vertical = verticalLayout(scene, sources);
  const zOf = new Map(scene.layers.map((l) => [l.id, l.zIndex]));
  const places = placed.map((p) => zOf.get(p.layerId)!).sort((a, b) => a - b);
  const at = new Map(placed.map((p, i) => [p.layerId, { ...p, zIndex: places[i]! }]));
  const tileIds = new Set(all.map((t) => t.layerId));
  return {
    ...scene,
    layers: scene.layers.map((layer) => {
      const place = at.get(layer.id);
      if (place)
        return { ...layer, ...place.horizontal, zIndex: place.zIndex, visible: true, vertical: { ...place.vertical, crop: vertical.get(layer.id)!.crop } };
      return tileIds.has(layer.id) ? { ...layer, visible: false } : layer;
    }),
  };
}
