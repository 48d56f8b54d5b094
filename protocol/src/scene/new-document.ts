import type { ResolutionId } from '../plans.ts';
import type { SceneDocument } from './document.ts';
import { NO_CROP } from './document.ts';
import { WATERMARK_PLACEMENT } from './layout.ts';
import { sourceKindInfo } from './sources.ts';

export const DEFAULT_SCENE_NAME = 'Scene 1';

/**
 * The document of a new project: one scene, active, showing the OnAir logo (spec §6: Free streams
 * carry it; paid plans may remove it later).
 */
export function newProjectDocument(ids: {
  projectId: string;
  sceneId: string;
  watermarkSourceId: string;
  watermarkLayerId: string;
  resolution: ResolutionId;
}): SceneDocument {
  return {
    projectId: ids.projectId,
    version: 0,
    resolution: ids.resolution,
    activeSceneId: ids.sceneId,
    sources: [{ id: ids.watermarkSourceId, kind: 'watermark', name: sourceKindInfo.watermark.label, settings: {} }],
    scenes: [
      {
        id: ids.sceneId,
        name: DEFAULT_SCENE_NAME,
        order: 0,
        deletedAt: null,
        layers: [{ id: ids.watermarkLayerId, sourceId: ids.watermarkSourceId, ...WATERMARK_PLACEMENT, crop: { ...NO_CROP }, zIndex: 0, opacity: 1, visible: true }],
      },
    ],
  };
}
