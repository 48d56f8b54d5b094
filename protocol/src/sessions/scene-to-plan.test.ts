import { describe, expect, it } from 'vitest';
import { renderPlanSchema, type PlanInput } from '../pipeline/render-plan.ts';
import type { SceneDocument } from '../scene/document.ts';
import { newProjectDocument } from '../scene/new-document.ts';
import type { Source } from '../scene/sources.ts';
import {
  cameraInputCores,
  canAdmit,
  DECODED_SOURCE_CORES,
  decodedInputCores,
  DESTINATION_CORES,
  SESSION_BASE_CORES,
  sessionCost,
  VERTICAL_CANVAS_CORES,
} from './cost.ts';
import { EMPTY_SCENE_ID, sceneToRenderPlan } from './scene-to-plan.ts';

const ids = {
  projectId: '00000000-0000-4000-8000-000000000001',
  sceneId: '00000000-0000-4000-8000-000000000002',
  watermarkSourceId: '00000000-0000-4000-8000-000000000003',
  watermarkLayerId: '00000000-0000-4000-8000-000000000004',
};
const cameraId = '00000000-0000-4000-8000-000000000005';
const secondSceneId = '00000000-0000-4000-8000-000000000006';

const logo: PlanInput = { id: 'x', kind: 'image', path: '/opt/onair/logo.png' };
const camera: PlanInput = {
  id: 'x',
  kind: 'rtp',
  video: { codecs: [{ encoding: 'VP8', port: 40000, payloadType: 96 }] },
  audio: { port: 40002, encoding: 'OPUS', payloadType: 111 },
};

function studioDocument(resolution: SceneDocument['resolution']): SceneDocument {
  const doc = newProjectDocument({ ...ids, resolution });
  doc.sources.push({
    id: cameraId,
    kind: 'webcam',
    name: 'Camera',
    settings: { opacity: 0.5, volume: 0.7, muted: true, webcamDeviceId: null, microphoneDeviceId: null, displayName: '', userId: null, mirrorCamera: false },
  } as Source);
  doc.scenes[0]!.layers.push({
    id: '00000000-0000-4000-8000-000000000007',
    sourceId: cameraId,
    x: 640,
    y: 360,
    width: 640,
    height: 360,
    crop: { top: 0, right: 0, bottom: 0, left: 0 },
    zIndex: 1,
    opacity: 0.8,
    visible: true,
  });
  doc.scenes.push({ id: secondSceneId, name: 'Second', order: 1, kind: 'standard', deletedAt: null, layers: [] });
  return doc;
}

const resolveAll = (s: Source) => (s.kind === 'watermark' ? logo : s.kind === 'webcam' ? camera : undefined);

describe('sceneToRenderPlan', () => {
  it('attaches every source with media once and scales the 1280x720 canvas to the output', () => {
    const plan = renderPlanSchema.parse(sceneToRenderPlan(studioDocument('1080p'), resolveAll, []));
    expect(plan.profile).toMatchObject({ width: 1920, height: 1080, fps: 30 });
    expect(plan.inputs.map((i) => i.id)).toEqual([ids.watermarkSourceId, cameraId]);
    expect(plan.activeSceneId).toBe(ids.sceneId);
    const placements = plan.scenes.find((s) => s.id === ids.sceneId)!.placements;
    // Watermark 237x62 at 30,30 on the canvas; x1.5 at 1080p.
    expect(placements[0]).toMatchObject({ inputId: ids.watermarkSourceId, x: 45, y: 45, width: 356, height: 93, zorder: 1, alpha: 1 });
    // The layer's opacity multiplies the source's.
    expect(placements[1]).toMatchObject({ inputId: cameraId, x: 960, y: 540, width: 960, height: 540, zorder: 2, alpha: 0.4 });
    expect(plan.audio).toEqual([{ inputId: cameraId, volume: 0.7, muted: true }]);
    expect(plan.scenes.map((s) => s.id)).toEqual([ids.sceneId, secondSceneId]);
  });

  it('rounds the camera tile (2% of its width, at the output scale) and not the logo, on both canvases', () => {
    const plan = renderPlanSchema.parse(sceneToRenderPlan(studioDocument('1080p'), resolveAll, []));
    const [logoPlacement, cameraPlacement] = plan.scenes.find((s) => s.id === ids.sceneId)!.placements;
    expect(logoPlacement!.cornerRadius).toBe(0);
    expect(cameraPlacement!.cornerRadius).toBeCloseTo(19.2);
    // The camera covers its box (cut to its aspect), the logo is stretched to its own as before.
    expect([logoPlacement!.fit, cameraPlacement!.fit]).toEqual(['fill', 'cover']);
    // Alone with the logo, the camera fills the vertical canvas: its corners are the canvas's own.
    expect(plan.vertical!.scenes.find((s) => s.id === ids.sceneId)!.placements.map((p) => p.cornerRadius)).toEqual([0, 0]);
  });

  it("passes each canvas's crop of a layer, in the source's own pixels, unscaled", () => {
    const doc = studioDocument('1080p');
    const layer = doc.scenes[0]!.layers.find((l) => l.sourceId === cameraId)!;
    layer.crop = { top: 10, right: 20, bottom: 30, left: 40 };
    layer.vertical = { x: 60, y: 700, width: 600, height: 338, crop: { top: 1, right: 2, bottom: 3, left: 4 } };
    const plan = renderPlanSchema.parse(sceneToRenderPlan(doc, resolveAll, []));
    expect(plan.scenes[0]!.placements.find((p) => p.inputId === cameraId)!.crop).toEqual({ top: 10, right: 20, bottom: 30, left: 40 });
    expect(plan.vertical!.scenes[0]!.placements.find((p) => p.inputId === cameraId)!.crop).toEqual({ top: 1, right: 2, bottom: 3, left: 4 });
  });

  it('leaves out the layers of sources without media yet', () => {
    const plan = renderPlanSchema.parse(sceneToRenderPlan(studioDocument('720p'), (s) => (s.kind === 'watermark' ? logo : undefined), []));
    expect(plan.inputs).toHaveLength(1);
    expect(plan.scenes[0]!.placements.map((p) => p.inputId)).toEqual([ids.watermarkSourceId]);
    expect(plan.audio).toEqual([]);
  });

  it('plays the black background alone when there is no live scene', () => {
    const doc = studioDocument('480p');
    for (const scene of doc.scenes) scene.deletedAt = '2026-01-01T00:00:00.000Z';
    const plan = renderPlanSchema.parse(sceneToRenderPlan(doc, resolveAll, []));
    expect(plan.activeSceneId).toBe(EMPTY_SCENE_ID);
    expect(plan.scenes).toEqual([{ id: EMPTY_SCENE_ID, placements: [] }]);
    expect(plan.profile.width).toBe(854);
  });

  it('passes the outputs through', () => {
    const outputs = [{ id: 'd1', url: 'rtmp://127.0.0.1:1935/live', key: 'k' }];
    expect(sceneToRenderPlan(studioDocument('720p'), resolveAll, outputs).outputs).toEqual(outputs);
  });
});

describe('admission cost model', () => {
  it('costs a base by resolution, and each decoded source by the pixels it is sent at', () => {
    const doc = studioDocument('720p');
    // The camera fills 640×360 of the 720p canvas: it is sent, decoded and scaled at that size.
    expect(sessionCost(doc)).toBeCloseTo(SESSION_BASE_CORES['720p'] + cameraInputCores(640, 360));
    expect(sessionCost({ ...doc, resolution: '1080p' })).toBeCloseTo(SESSION_BASE_CORES['1080p'] + cameraInputCores(960, 540));
    expect(sessionCost({ ...doc, sources: doc.sources.filter((s) => s.kind === 'watermark') })).toBeCloseTo(SESSION_BASE_CORES['720p']);
    // Without its scenes a camera is charged whole; a hidden one at the floor it is sent at.
    expect(sessionCost({ resolution: '720p', sources: doc.sources })).toBeCloseTo(SESSION_BASE_CORES['720p'] + DECODED_SOURCE_CORES);
    const hidden = structuredClone(doc);
    for (const layer of hidden.scenes[0]!.layers) layer.visible = false;
    expect(sessionCost(hidden)).toBeCloseTo(SESSION_BASE_CORES['720p'] + cameraInputCores(320, 180));
  });

  it('charges a larger picture more, a screen at the canvas, and each destination after the first a little', () => {
    expect(decodedInputCores(1280, 720)).toBeGreaterThan(decodedInputCores(640, 360));
    // A camera or guest comes with its microphone: more than a picture alone of its size.
    expect(cameraInputCores(640, 360)).toBeGreaterThan(decodedInputCores(640, 360));
    const doc = studioDocument('720p');
    const withScreen = { ...doc, sources: [...doc.sources, { id: '00000000-0000-4000-8000-000000000099', kind: 'screenshare' as const }] };
    expect(sessionCost(withScreen) - sessionCost(doc)).toBeCloseTo(decodedInputCores(1280, 720));
    expect(sessionCost(doc, { destinations: 10 }) - sessionCost(doc)).toBeCloseTo(9 * DESTINATION_CORES);
  });

  it('admits up to 80 % of the cores, and always one session on an idle worker', () => {
    expect(canAdmit(2, 0.8, 0.8)).toBe(true);
    expect(canAdmit(2, 0.95, 0.8)).toBe(false);
    expect(canAdmit(1, 0, 1.35)).toBe(true);
    expect(canAdmit(8, 5.6, 0.8)).toBe(true);
    expect(canAdmit(8, 5.7, 0.8)).toBe(false);
  });
});

describe('sessionCost: the vertical canvas', () => {
  it('costs a second canvas when a destination takes it, whatever the number of vertical destinations', () => {
    const doc = studioDocument('720p');
    expect(sessionCost(doc, { vertical: true })).toBeGreaterThan(sessionCost(doc));
    expect(sessionCost(doc, { vertical: true }) - sessionCost(doc)).toBeCloseTo(VERTICAL_CANVAS_CORES['720p']);
    expect(sessionCost(doc, { vertical: true, destinations: 3 }) - sessionCost(doc, { destinations: 3 })).toBeCloseTo(VERTICAL_CANVAS_CORES['720p']);
  });
});
