import { liveScenes, type SceneDocument } from '../scene/document.ts';
import { CANVAS } from '../scene/layout.ts';
import { RENDER_MAX_SIZE, RENDER_MIN_SIZE, type RenderPage } from './render-job.ts';

/** A web-page source the session must have rendered right now, at this size. */
export interface WantedRender {
  sourceId: string;
  page: RenderPage;
}

/**
 * Which web-page sources a session renders (spec §4 "Sources"): a page is loaded while a visible
 * layer of it is in the active scene, or at all times when its mode is keep-loaded (as long as some
 * scene shows it); a page without an address is never loaded. The session diffs this list against
 * what it has asked for on every scene change: new entries are requested, missing ones stopped,
 * changed ones updated (a new url reloads, a new size re-creates the page).
 *
 * Size: the largest of the page's counted layers, scaled from the 1280×720 canvas to the output
 * (`outputHeight`), within the render limits, rounded up to even numbers (H.264 4:2:0 needs them).
 * Pages are transparent like a streaming tool's browser source: where the page draws no
 * background, the scene below shows through.
 */
export function wantedRenders(doc: SceneDocument, outputHeight: number = CANVAS.height): WantedRender[] {
  const scale = outputHeight / CANVAS.height;
  const scenes = liveScenes(doc);
  const out: WantedRender[] = [];
  for (const source of doc.sources) {
    if (source.kind !== 'webpage' || source.settings.config.url === '') continue;
    const keepLoaded = source.settings.config.mode === 'keep-loaded';
    const layers = scenes.flatMap((scene) =>
      scene.layers.filter((l) => l.sourceId === source.id && (keepLoaded || (scene.id === doc.activeSceneId && l.visible))),
    );
    if (layers.length === 0) continue;
    const width = Math.max(...layers.map((l) => l.width));
    const height = Math.max(...layers.map((l) => l.height));
    out.push({
      sourceId: source.id,
      page: {
        url: source.settings.config.url,
        width: evenWithin(width * scale, RENDER_MIN_SIZE.width, RENDER_MAX_SIZE.width),
        height: evenWithin(height * scale, RENDER_MIN_SIZE.height, RENDER_MAX_SIZE.height),
        transparent: true,
      },
    });
  }
  return out;
}

function evenWithin(value: number, min: number, max: number): number {
  const v = Math.min(max, Math.max(min, Math.ceil(value)));
  return v % 2 === 0 ? v : Math.min(max, v + 1);
}
