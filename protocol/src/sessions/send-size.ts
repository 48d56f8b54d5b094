import { CANVAS } from '../scene/layout.ts';
import type { SceneDocument } from '../scene/document.ts';
import { layerOnCanvas, verticalLayout } from '../scene/vertical.ts';
import { resolutions } from '../plans.ts';
import type { SendSize } from '../signaling/messages.ts';

/**
 * The smallest size a camera is asked for: what the host's Guests tab and a small tile still show
 * well, and what a camera not on air is sent at, so that it is there at once when a scene shows it
 * (the page scales up again within a few frames, not after a new negotiation).
 */
export const MIN_SEND_SIZE: SendSize = { width: 320, height: 180 };

/** The camera picture the studio asks the browser for (control-ui actions/media.ts): what crops are measured on. */
const CAMERA_CAPTURE = { width: 1280, height: 720 } as const;

/**
 * The size a publisher's camera needs (issue 41): the largest box the sources it feeds fill in the
 * active scene, on the horizontal canvas and (when the session renders it) the vertical one, in pixels of the output (scene
 * coordinates are of a 1280×720 canvas, scaled to the resolution as the pipeline does), rounded
 * up to even numbers, and never under MIN_SEND_SIZE; capped at nothing: the page never scales up. Hidden layers count for nothing.
 */
export function cameraSendSize(
  doc: Pick<SceneDocument, 'scenes' | 'sources' | 'activeSceneId' | 'resolution'>,
  sourceIds: ReadonlySet<string>,
  canvases: { vertical: boolean },
): SendSize {
  const scale = resolutions[doc.resolution].height / CANVAS.height;
  const scene = doc.scenes.find((s) => s.id === doc.activeSceneId);
  let width = MIN_SEND_SIZE.width;
  let height = MIN_SEND_SIZE.height;
  if (scene) {
    const shown = scene.layers.filter((l) => l.visible && sourceIds.has(l.sourceId));
    const vertical = canvases.vertical && shown.length > 0 ? verticalLayout(scene, doc.sources) : undefined;
    for (const layer of shown) {
      for (const box of vertical ? [layer, layerOnCanvas(layer, 'vertical', vertical)] : [layer]) {
        // A cropped layer shows part of the picture (crop in pixels of the camera as the studio
        // captures it), so the whole picture must be that much larger.
        const shownWidth = Math.max(1, CAMERA_CAPTURE.width - box.crop.left - box.crop.right) / CAMERA_CAPTURE.width;
        const shownHeight = Math.max(1, CAMERA_CAPTURE.height - box.crop.top - box.crop.bottom) / CAMERA_CAPTURE.height;
        width = Math.max(width, Math.ceil((box.width * scale) / shownWidth / 2) * 2);
        height = Math.max(height, Math.ceil((box.height * scale) / shownHeight / 2) * 2);
      }
    }
  }
  return { width, height };
}
