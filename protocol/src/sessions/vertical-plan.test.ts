import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planEntitlements } from '../plans.ts';
import { renderPlanSchema } from '../pipeline/render-plan.ts';
import { sceneToRenderPlan } from './scene-to-plan.ts';
import { applyAcceptedPatch, applyScenePatch, type ApplyScenePatchResult } from '../scene/apply-patch.ts';
import type { SceneDocument } from '../scene/document.ts';
import { newProjectDocument } from '../scene/new-document.ts';
import { scenePatchSchema, type SceneOp } from '../scene/patch.ts';
import { validateSceneDocument } from '../scene/validate.ts';
import { deriveVerticalLayout, VERTICAL_CANVAS, VERTICAL_PEOPLE_BAND, verticalLayout } from '../scene/vertical.ts';

const free = planEntitlements.Free;

function ok(result: ApplyScenePatchResult): Extract<ApplyScenePatchResult, { ok: true }> {
  if (!result.ok) throw new Error(`patch rejected: ${result.rejection.code} ${result.rejection.message}`);
  expect(validateSceneDocument(result.document)).toMatchObject({ ok: true });
  return result;
}
const apply = (doc: SceneDocument, ops: SceneOp[]) => applyScenePatch(doc, { baseVersion: doc.version, ops }, free);

/** A new project (camera + logo) with a game source placed over the whole canvas. */
function gameScene() {
  const ids = { projectId: randomUUID(), sceneId: randomUUID(), watermarkSourceId: randomUUID(), watermarkLayerId: randomUUID() };
  const camera = { sourceId: randomUUID(), layerId: randomUUID(), userId: 'u1' };
  const gameSourceId = randomUUID();
  const gameLayerId = randomUUID();
  const doc = ok(
    apply(newProjectDocument({ ...ids, resolution: '720p', camera }), [
      { op: 'addSource', source: { id: gameSourceId, kind: 'game' } },
      { op: 'addLayer', sceneId: ids.sceneId, layer: { id: gameLayerId, sourceId: gameSourceId, x: 0, y: 0, width: 1280, height: 720, zIndex: 0 } },
    ]),
  ).document;
  return { doc, ...ids, camera, gameSourceId, gameLayerId };
}

describe('deriveVerticalLayout', () => {
  it('puts the camera in the top band and the game below it, each filling the width, the logo kept in its corner', () => {
    const { doc, camera, gameLayerId, watermarkLayerId } = gameScene();
    const boxes = deriveVerticalLayout(doc.scenes[0]!, doc.sources);
    const cam = boxes.get(camera.layerId)!;
    const game = boxes.get(gameLayerId)!;
    expect(cam).toMatchObject({ y: 0, height: VERTICAL_PEOPLE_BAND });
    // Filled: at least as wide as the canvas, centred, so the sides run off the canvas.
    expect(cam.width).toBeGreaterThanOrEqual(VERTICAL_CANVAS.width);
    expect(cam.x * 2 + cam.width).toBe(VERTICAL_CANVAS.width);
    expect(game).toMatchObject({ y: VERTICAL_PEOPLE_BAND, height: VERTICAL_CANVAS.height - VERTICAL_PEOPLE_BAND, width: 1280, x: -280 });
    expect(boxes.get(watermarkLayerId)).toMatchObject({ x: 17, y: 17, width: 237, height: 62 });
  });

  it('gives a camera alone the whole canvas, and two people a half each', () => {
    const { doc, camera } = gameScene();
    const scene = doc.scenes[0]!;
    const alone = deriveVerticalLayout({ layers: scene.layers.filter((l) => l.sourceId !== doc.sources.find((s) => s.kind === 'game')!.id) }, doc.sources);
    expect(alone.get(camera.layerId)).toMatchObject({ y: 0, height: VERTICAL_CANVAS.height });
    const guestLayer = { ...scene.layers[0]!, id: randomUUID(), sourceId: randomUUID(), zIndex: 9 };
    const two = deriveVerticalLayout({ layers: [scene.layers.find((l) => l.id === camera.layerId)!, guestLayer] }, [
      ...doc.sources,
      { id: guestLayer.sourceId, kind: 'participant' },
    ]);
    expect(two.get(camera.layerId)).toMatchObject({ y: 0, height: 640 });
    expect(two.get(guestLayer.id)).toMatchObject({ y: 640, height: 640 });
  });
});

describe('updateLayerVertical', () => {
  it('is a valid patch op and moves the layer on the vertical canvas only', () => {
    const { doc, sceneId, camera } = gameScene();
    const op: SceneOp = { op: 'updateLayerVertical', sceneId, layerId: camera.layerId, changes: { x: 100, y: 700, width: 400, height: 225 } };
    expect(scenePatchSchema.safeParse({ baseVersion: doc.version, ops: [op] }).success).toBe(true);
    const before = doc.scenes[0]!.layers.find((l) => l.id === camera.layerId)!;
    const next = ok(apply(doc, [op])).document;
    const after = next.scenes[0]!.layers.find((l) => l.id === camera.layerId)!;
    expect(after.vertical).toEqual({ x: 100, y: 700, width: 400, height: 225, crop: { top: 0, right: 0, bottom: 0, left: 0 } });
    expect({ x: after.x, y: after.y, width: after.width, height: after.height }).toEqual({
      x: before.x,
      y: before.y,
      width: before.width,
      height: before.height,
    });
  });

  it('fixes the derived layout of the other layers on the first vertical edit, so horizontal moves no longer move them', () => {
    const { doc, sceneId, camera, gameLayerId } = gameScene();
    const derivedGame = verticalLayout(doc.scenes[0]!, doc.sources).get(gameLayerId);
    const edited = ok(apply(doc, [{ op: 'updateLayerVertical', sceneId, layerId: camera.layerId, changes: { y: 900 } }])).document;
    expect(edited.scenes[0]!.layers.every((l) => l.vertical !== undefined)).toBe(true);
    expect(edited.scenes[0]!.layers.find((l) => l.id === gameLayerId)!.vertical).toEqual(derivedGame);
    const movedHorizontally = ok(
      apply(edited, [{ op: 'updateLayer', sceneId, layerId: gameLayerId, changes: { x: 300, y: 200, width: 640, height: 360 } }]),
    ).document;
    expect(verticalLayout(movedHorizontally.scenes[0]!, movedHorizontally.sources).get(gameLayerId)).toEqual(derivedGame);
  });

  it('refuses an empty box for a video source and an unknown layer', () => {
    const { doc, sceneId, camera } = gameScene();
    const small = apply(doc, [{ op: 'updateLayerVertical', sceneId, layerId: camera.layerId, changes: { width: 0 } }]);
    expect(small).toMatchObject({ ok: false, rejection: { code: 'layer-too-small' } });
    const missing = apply(doc, [{ op: 'updateLayerVertical', sceneId, layerId: randomUUID(), changes: { x: 1 } }]);
    expect(missing).toMatchObject({ ok: false, rejection: { code: 'layer-not-found' } });
  });

  it('replays the same on a worker or another studio', () => {
    const { doc, projectId, sceneId, camera } = gameScene();
    const result = ok(apply(doc, [{ op: 'updateLayerVertical', sceneId, layerId: camera.layerId, changes: { x: -50 } }]));
    const replay = applyAcceptedPatch(doc, { projectId, version: doc.version + 1, ops: result.ops });
    expect(replay).toMatchObject({ ok: true, document: result.document });
  });

  it('a document whose vertical box is empty does not validate', () => {
    const { doc, sceneId, camera } = gameScene();
    const next = ok(apply(doc, [{ op: 'updateLayerVertical', sceneId, layerId: camera.layerId, changes: { x: 5 } }])).document;
    next.scenes[0]!.layers.find((l) => l.id === camera.layerId)!.vertical!.height = 0;
    expect(validateSceneDocument(next)).toMatchObject({ ok: false, problems: [{ path: expect.stringContaining('vertical') as string }] });
  });
});

describe('sceneToRenderPlan: vertical canvas', () => {
  it('places each scene on the vertical canvas at the output scale (720×1280 at 720p, 1080×1920 at 1080p)', () => {
    const { doc, sceneId, camera, gameSourceId } = gameScene();
    const next = ok(
      apply(doc, [{ op: 'updateLayerVertical', sceneId, layerId: camera.layerId, changes: { x: 100, y: 800, width: 400, height: 226 } }]),
    ).document;
    const resolve = () => ({ id: 'x', kind: 'test-pattern' as const, width: 64, height: 36, pattern: 'smpte' as const, color: 0 });
    const plan720 = renderPlanSchema.parse(sceneToRenderPlan(next, resolve, [{ id: 'o', url: 'rtmp://example.com/live', canvas: 'vertical' }]));
    expect(plan720.vertical).toMatchObject({ width: 720, height: 1280 });
    expect(plan720.vertical!.scenes[0]!.placements.find((p) => p.inputId === camera.sourceId)).toMatchObject({ x: 100, y: 800, width: 400, height: 226 });
    expect(plan720.scenes[0]!.placements.find((p) => p.inputId === camera.sourceId)).toMatchObject({ x: 40, y: 40, width: 640, height: 360 });
    expect(plan720.vertical!.scenes[0]!.placements.find((p) => p.inputId === gameSourceId)).toMatchObject({ y: VERTICAL_PEOPLE_BAND, height: 720 });
    const plan1080 = renderPlanSchema.parse(sceneToRenderPlan({ ...next, resolution: '1080p' }, resolve, []));
    expect(plan1080.vertical).toMatchObject({ width: 1080, height: 1920 });
    expect(plan1080.vertical!.scenes[0]!.placements.find((p) => p.inputId === camera.sourceId)).toMatchObject({ x: 150, y: 1200, width: 600, height: 339 });
  });

  it('a plan whose output takes the vertical canvas must carry it', () => {
    const { doc } = gameScene();
    const plan = sceneToRenderPlan(doc, () => undefined, [{ id: 'o', url: 'rtmp://example.com/live', canvas: 'vertical' }]);
    expect(renderPlanSchema.safeParse({ ...plan, vertical: undefined }).success).toBe(false);
  });
});
