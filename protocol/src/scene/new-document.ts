import type { ResolutionId } from '../plans.ts';
import type { SceneDocument } from './document.ts';
import { NO_CROP } from './document.ts';
import { WATERMARK_PLACEMENT } from './layout.ts';
import { defaultPlacement, sourceDefaults, sourceKindInfo, type Source } from './sources.ts';

export const DEFAULT_SCENE_NAME = 'Scene 1';

/**
 * The document of a new project: one scene, active, showing the OnAir logo (spec §6: Free streams
 * carry it; paid plans may remove it later) and, when `camera` is given, the host's camera with its
 * microphone below it at the spec's default place and size (§9: 40,40, 640x360), so a new project's
 * program is not black. The camera is the owner's first webcam and default microphone (§4 "Sources").
 */
export function newProjectDocument(ids: {
  projectId: string;
  sceneId: string;
  watermarkSourceId: string;
  watermarkLayerId: string;
  resolution: ResolutionId;
  camera?: { sourceId: string; layerId: string; userId: string };
}): SceneDocument {
  const watermark: Source = { id: ids.watermarkSourceId, kind: 'watermark', name: sourceKindInfo.watermark.label, settings: {} };
  const layer = (id: string, sourceId: string, zIndex: number, box: { x: number; y: number; width: number; height: number }) => ({
    id,
    sourceId,
    ...box,
    crop: { ...NO_CROP },
    zIndex,
    opacity: 1,
    visible: true,
  });
  const camera = ids.camera;
  if (!camera) {
    return {
      projectId: ids.projectId,
      version: 0,
      resolution: ids.resolution,
      activeSceneId: ids.sceneId,
      sources: [watermark],
      scenes: [
        {
          id: ids.sceneId,
          name: DEFAULT_SCENE_NAME,
          order: 0,
          kind: 'standard',
          deletedAt: null,
          layers: [layer(ids.watermarkLayerId, ids.watermarkSourceId, 0, WATERMARK_PLACEMENT)],
        },
      ],
    };
  }
  const cameraSource: Source = {
    id: camera.sourceId,
    kind: 'webcam',
    name: sourceKindInfo.webcam.label,
    settings: { ...sourceDefaults.webcam, webcamDeviceId: 'default', userId: camera.userId },
  };
  return {
    projectId: ids.projectId,
    version: 0,
    resolution: ids.resolution,
    activeSceneId: ids.sceneId,
    sources: [cameraSource, watermark],
    scenes: [
      {
        id: ids.sceneId,
        name: DEFAULT_SCENE_NAME,
        order: 0,
        kind: 'standard',
        deletedAt: null,
        layers: [
          layer(camera.layerId, camera.sourceId, 0, defaultPlacement('webcam')),
          layer(ids.watermarkLayerId, ids.watermarkSourceId, 1, WATERMARK_PLACEMENT),
        ],
      },
    ],
  };
}
