import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newProjectDocument } from '../scene/new-document.ts';
import type { SceneDocument } from '../scene/document.ts';
import { cameraSendSize, MIN_SEND_SIZE } from './send-size.ts';

function project(resolution: SceneDocument['resolution'] = '720p') {
  const camera = { sourceId: randomUUID(), layerId: randomUUID(), userId: 'host' };
  const doc = newProjectDocument({
    projectId: randomUUID(),
    sceneId: randomUUID(),
    watermarkSourceId: randomUUID(),
    watermarkLayerId: randomUUID(),
    resolution,
    camera,
  });
  const layer = doc.scenes[0]!.layers.find((l) => l.sourceId === camera.sourceId)!;
  return { doc, layer, ids: new Set([camera.sourceId]) };
}

describe('cameraSendSize', () => {
  it('asks for the box the camera fills, in output pixels', () => {
    const { doc, layer, ids } = project();
    Object.assign(layer, { x: 0, y: 0, width: 640, height: 360 });
    expect(cameraSendSize(doc, ids, { vertical: false })).toEqual({ width: 640, height: 360 });
    Object.assign(layer, { width: 1280, height: 720 });
    expect(cameraSendSize(doc, ids, { vertical: false })).toMatchObject({ width: 1280, height: 720 });
  });

  it('scales to the resolution: a full-frame camera at 1080p needs 1920×1080, at 480p 1280×720 scene pixels are 854×480', () => {
    const big = project('1080p');
    Object.assign(big.layer, { x: 0, y: 0, width: 1280, height: 720 });
    expect(cameraSendSize(big.doc, big.ids, { vertical: false })).toEqual({ width: 1920, height: 1080 });
    const small = project('480p');
    Object.assign(small.layer, { x: 0, y: 0, width: 1280, height: 720 });
    expect(cameraSendSize(small.doc, small.ids, { vertical: false })).toEqual({ width: 854, height: 480 });
  });

  it('a hidden camera, or one in no layer of the active scene, gets the floor', () => {
    const { doc, layer, ids } = project();
    layer.visible = false;
    expect(cameraSendSize(doc, ids, { vertical: false })).toEqual(MIN_SEND_SIZE);
    expect(cameraSendSize(doc, new Set([randomUUID()]), { vertical: true })).toEqual(MIN_SEND_SIZE);
  });

  it('with the vertical canvas on, the larger of the two boxes is asked for', () => {
    const { doc, layer, ids } = project();
    Object.assign(layer, { x: 0, y: 0, width: 320, height: 180, vertical: { x: 0, y: 0, width: 720, height: 405, crop: layer.crop } });
    expect(cameraSendSize(doc, ids, { vertical: false })).toEqual({ width: 320, height: 180 });
    expect(cameraSendSize(doc, ids, { vertical: true })).toEqual({ width: 720, height: 406 });
  });

  it('a cropped layer needs the whole picture larger than its box', () => {
    const { doc, layer, ids } = project();
    // Edited on the horizontal canvas only: a vertical box of its own, as small as the floor.
    Object.assign(layer, { x: 0, y: 0, width: 360, height: 360, vertical: { x: 0, y: 0, width: 100, height: 100, crop: layer.crop } });
    expect(cameraSendSize(doc, ids, { vertical: false })).toEqual({ width: 360, height: 360 });
    // Cover fit of a 16:9 camera into a square: 280 px cut from each side of 1280.
    layer.crop = { top: 0, right: 280, bottom: 0, left: 280 };
    expect(cameraSendSize(doc, ids, { vertical: false })).toEqual({ width: 640, height: 360 });
  });
});
