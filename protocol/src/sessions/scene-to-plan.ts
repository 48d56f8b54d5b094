import { outputProfiles, type OutputProfile, type PlanInput, type PlanOutput, type RenderPlan } from '../pipeline/render-plan.ts';
import type { ResolutionId } from '../plans.ts';
import { layerCornerRadius, layerFit } from '../scene/corners.ts';
import { liveScenes, type SceneDocument } from '../scene/document.ts';
import { sceneWithoutAbsent } from '../scene/follow-layout.ts';
import { CANVAS } from '../scene/layout.ts';
import type { Source, SourceKind } from '../scene/sources.ts';
import { VERTICAL_CANVAS, verticalLayout } from '../scene/vertical.ts';

const PROFILE_OF: Record<ResolutionId, OutputProfile> = {
  '480p': outputProfiles['480p30'],
  '720p': outputProfiles['720p30'],
  '1080p': outputProfiles['1080p30'],
};

/** Scene used when a project has no live scene yet: the program is the black background alone. */
export const EMPTY_SCENE_ID = 'empty';

/**
 * Where a source's media comes from on this worker right now: an RTP port pair fed by the WebRTC
 * endpoint or a render worker, a local image file, or nothing yet (a camera that is off, a page not
 * rendered yet), in which case its layers are left out and the program shows what is under them.
 */
export type InputResolver = (source: Source) => PlanInput | undefined;

/**
 * The source kinds a person feeds from a studio or guest page (their camera, screen, microphone,
 * and a guest's camera). Such a source is *present* while one of the session's connected people
 * feeds it; a game source (the ingest's), pages, images and files are not a person's.
 */
export const PERSON_FED_KINDS: ReadonlySet<SourceKind> = new Set<SourceKind>(['webcam', 'participant', 'screenshare', 'microphone']);

export interface SceneToPlanOptions {
  /**
   * The sources whose sender is there now: person-fed sources whose person is in the session (the
   * worker's connected peers), and the game sources while an ingest feed is accepted. Every other
   * person-fed input is listed in `absentInputs`: it draws nothing while it sends nothing; scenes
   * that follow a layout re-flow without those and without a game whose feed is not there
   * (media-worker/README.md "An arriving feed is always seen"). Absent: nobody is told apart,
   * every placeholder shows and nothing re-flows (as tests of single parts plan it).
   */
  present?: ReadonlySet<string>;
}

/**
 * The scene document as the pipeline plays it. Every source that has media is an input, attached
 * once; every live scene places its layers' inputs, scaled from the 1280×720 scene canvas to the
 * output resolution. Switching scenes or editing a layer therefore changes only placements.
 */
export function sceneToRenderPlan(doc: SceneDocument, resolveInput: InputResolver, outputs: PlanOutput[], options: SceneToPlanOptions = {}): RenderPlan {
  const profile = PROFILE_OF[doc.resolution];
  const sx = profile.width / CANVAS.width;
  const sy = profile.height / CANVAS.height;

  const inputs: PlanInput[] = [];
  const sourceOpacity = new Map<string, number>();
  const kindOf = new Map<string, SourceKind>();
  const audio: RenderPlan['audio'] = [];
  for (const source of doc.sources) {
    const input = resolveInput(source);
    if (!input) continue;
    inputs.push({ ...input, id: source.id });
    kindOf.set(source.id, source.kind);
    const settings = source.settings as { opacity?: number; volume?: number; muted?: boolean };
    sourceOpacity.set(source.id, settings.opacity ?? 1);
    if (settings.volume !== undefined) audio.push({ inputId: source.id, volume: settings.volume, muted: settings.muted ?? false });
  }

  // Scenes that follow a layout re-flow without the people who are not in the session, and without
  // a game whose feed is not there (a scene arranged by hand keeps its 'Game Source Offline' card).
  const absent = new Set(absentInputs(doc, new Set(inputs.map((i) => i.id)), options.present));
  const away = new Set([...absent, ...doc.sources.filter((s) => s.kind === 'game' && options.present && !options.present.has(s.id)).map((s) => s.id)]);
  const planned = liveScenes(doc).map((scene) => sceneWithoutAbsent(scene, doc.sources, away));
  const scenes: RenderPlan['scenes'] = planned.map((scene) => ({
    id: scene.id,
    placements: scene.layers
      .filter((layer) => sourceOpacity.has(layer.sourceId) && layer.width > 0 && layer.height > 0)
      .map((layer) => ({
        inputId: layer.sourceId,
        x: Math.round(layer.x * sx),
        y: Math.round(layer.y * sy),
        width: Math.max(1, Math.round(layer.width * sx)),
        height: Math.max(1, Math.round(layer.height * sy)),
        // zorder 0 is the pipeline's own background.
        zorder: Math.min(10_000, layer.zIndex + 1),
        alpha: layer.opacity * (sourceOpacity.get(layer.sourceId) ?? 1),
        visible: layer.visible,
        // Decided on the scene canvas, as the editor does, then scaled with the width.
        cornerRadius: layerCornerRadius(kindOf.get(layer.sourceId)!, layer, CANVAS) * sx,
        crop: { ...layer.crop },
        fit: layerFit(kindOf.get(layer.sourceId)!),
      })),
  }));
  // The vertical canvas is 720×1280 scene pixels, scaled to the output as the horizontal one is.
  const vk = profile.height / VERTICAL_CANVAS.width;
  const vertical: RenderPlan['vertical'] = {
    width: profile.height,
    height: Math.round((VERTICAL_CANVAS.height * vk) / 2) * 2,
    scenes: planned.map((scene) => {
      const boxes = verticalLayout(scene, doc.sources);
      return {
        id: scene.id,
        placements: scene.layers
          .map((layer) => ({ layer, box: boxes.get(layer.id)! }))
          .filter(({ layer, box }) => sourceOpacity.has(layer.sourceId) && box.width > 0 && box.height > 0)
          .map(({ layer, box }) => ({
            inputId: layer.sourceId,
            x: Math.round(box.x * vk),
            y: Math.round(box.y * vk),
            width: Math.max(1, Math.round(box.width * vk)),
            height: Math.max(1, Math.round(box.height * vk)),
            zorder: Math.min(10_000, layer.zIndex + 1),
            alpha: layer.opacity * (sourceOpacity.get(layer.sourceId) ?? 1),
            visible: layer.visible,
            cornerRadius: layerCornerRadius(kindOf.get(layer.sourceId)!, box, VERTICAL_CANVAS) * vk,
            crop: { ...box.crop },
            fit: layerFit(kindOf.get(layer.sourceId)!),
          })),
      };
    }),
  };
  const active = doc.activeSceneId !== null && scenes.some((s) => s.id === doc.activeSceneId) ? doc.activeSceneId : scenes[0]?.id;
  if (active === undefined) {
    scenes.push({ id: EMPTY_SCENE_ID, placements: [] });
    vertical.scenes.push({ id: EMPTY_SCENE_ID, placements: [] });
  }

  return {
    profile,
    inputs,
    scenes,
    activeSceneId: active ?? EMPTY_SCENE_ID,
    audio,
    outputs,
    vertical,
    absentInputs: [...absent],
  };
}

/** The inputs of person-fed sources whose person is not in `present` (none when presence is not known). */
export function absentInputs(doc: SceneDocument, inputIds: ReadonlySet<string>, present: ReadonlySet<string> | undefined): string[] {
  if (!present) return [];
  return doc.sources.filter((s) => PERSON_FED_KINDS.has(s.kind) && inputIds.has(s.id) && !present.has(s.id)).map((s) => s.id);
}
