import { z } from 'zod';
import { resolutionIdSchema } from '../plans.ts';
import { MAX_COORDINATE } from './layout.ts';
import { followedLayoutSchema } from './scene-layout-ids.ts';
import { sourceSchema } from './sources.ts';

const coordinate = z.number().int().min(-MAX_COORDINATE).max(MAX_COORDINATE);
const size = z.number().int().min(0).max(MAX_COORDINATE);
const cropEdge = z.number().int().min(0).max(MAX_COORDINATE);

/** Pixels cut from each edge of the source before it is scaled into the layer's box. */
export const cropSchema = z.strictObject({ top: cropEdge, right: cropEdge, bottom: cropEdge, left: cropEdge });
export type Crop = z.infer<typeof cropSchema>;
export const NO_CROP: Crop = { top: 0, right: 0, bottom: 0, left: 0 };

/**
 * Where a layer sits on the vertical canvas (720×1280 scene pixels, see vertical.ts). Stacking,
 * opacity and visibility are the layer's own, shared by both canvases; only the box differs.
 */
export const verticalTransformSchema = z.strictObject({ x: coordinate, y: coordinate, width: size, height: size, crop: cropSchema });
export type VerticalTransform = z.infer<typeof verticalTransformSchema>;
export const verticalChangesSchema = verticalTransformSchema.partial();
export type VerticalChanges = z.infer<typeof verticalChangesSchema>;

/**
 * A source placed in a scene. Position and size are canvas pixels (see layout.ts); zIndex orders
 * layers bottom (0) to top. `opacity` is the layer's own alpha: the compositor multiplies it with
 * the source's `settings.opacity`, so a source used in two scenes can fade in one of them only.
 */
export const layerSchema = z.strictObject({
  id: z.uuid(),
  sourceId: z.uuid(),
  x: coordinate,
  y: coordinate,
  width: size,
  height: size,
  crop: cropSchema,
  zIndex: z.number().int().min(0),
  opacity: z.number().min(0).max(1),
  visible: z.boolean(),
  /**
   * Its box on the vertical canvas. Absent until the creator first edits the scene's vertical
   * layout: until then it is derived from the horizontal layout (deriveVerticalLayout).
   */
  vertical: verticalTransformSchema.optional(),
});
export type Layer = z.infer<typeof layerSchema>;

/** The editable part of a layer's transform. */
export const layerChangesSchema = layerSchema.pick({ x: true, y: true, width: true, height: true, crop: true, opacity: true, visible: true }).partial();
export type LayerChanges = z.infer<typeof layerChangesSchema>;

export const sceneNameSchema = z.string().trim().min(1).max(100);

/**
 * What a scene is for (issue 19): an ordinary scene, or one of the screens a show opens, pauses and
 * closes with, or (`scheduled`) the scene the api makes to play a scheduled video broadcast: only
 * the api adds one, it does not count against the plan's scene limit, and it is removed when that
 * broadcast ends. A screen is a scene like any other (its picture is a full-frame image layer, built in
 * or the creator's own upload); the kind lets the studio list them and the holding slate use the
 * creator's Be Right Back screen. A countdown scene switches to the scene after it when its time
 * is up (the api times it; see `countdown`).
 */
export const sceneKinds = ['standard', 'starting', 'brb', 'ending', 'countdown', 'scheduled'] as const;
export const sceneKindSchema = z.enum(sceneKinds);
export type SceneKind = z.infer<typeof sceneKindSchema>;

export const COUNTDOWN_MAX_SECONDS = 3600;
/** A countdown scene's time and where it goes when the time is up (null: the next scene in the list). */
export const countdownSchema = z.strictObject({
  seconds: z.number().int().min(1).max(COUNTDOWN_MAX_SECONDS),
  nextSceneId: z.uuid().nullable(),
});
export type Countdown = z.infer<typeof countdownSchema>;
export const DEFAULT_COUNTDOWN: Countdown = { seconds: 60, nextSceneId: null };

/**
 * Where a running countdown's time left is drawn on the 1280×720 scene canvas, in the program and
 * in the studio's canvas alike: centred, under the Starting Soon screen's words.
 */
export const COUNTDOWN_PLATE = { x: 460, y: 470, width: 360, height: 120 } as const;

/** `mm:ss` of a countdown's time left, whole seconds rounded up (so 00:00 shows only when the time is up). */
export function formatCountdown(remainingMs: number): string {
  const seconds = Math.max(0, Math.ceil(remainingMs / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

export const sceneSchema = z.strictObject({
  id: z.uuid(),
  name: sceneNameSchema,
  order: z.number().int().min(0),
  kind: sceneKindSchema.default('standard'),
  /** Only on a countdown scene. */
  countdown: countdownSchema.optional(),
  /** Deleted scenes are kept (soft delete) so a late patch on one is told it was deleted. */
  deletedAt: z.iso.datetime().nullable(),
  layers: z.array(layerSchema),
  /** The layout the scene follows as its cameras, guests, screens and game come and go; absent when it is arranged by hand. */
  followedLayout: followedLayoutSchema.optional(),
});
export type Scene = z.infer<typeof sceneSchema>;

/**
 * The scene document of a project: what the studio edits and the media worker plays. Scenes are
 * sorted by `order`; sources are project-wide and reach a scene through its layers.
 */
export const sceneDocumentSchema = z.strictObject({
  projectId: z.uuid(),
  /** Bumped by every accepted patch; patches name the version they were made against. */
  version: z.number().int().min(0),
  resolution: resolutionIdSchema,
  activeSceneId: z.uuid().nullable(),
  scenes: z.array(sceneSchema),
  sources: z.array(sourceSchema),
});
export type SceneDocument = z.infer<typeof sceneDocumentSchema>;

export function liveScenes(doc: SceneDocument): Scene[] {
  return doc.scenes.filter((s) => s.deletedAt === null);
}

/** The live scenes the plan's scene limit counts: all but the api's own scenes of scheduled broadcasts. */
export function plannedScenes(doc: SceneDocument): Scene[] {
  return liveScenes(doc).filter((s) => s.kind !== 'scheduled');
}

/**
 * Where a countdown scene goes when its time is up: the scene it names while that one exists, else
 * the next scene in the list that is not a countdown (wrapping round), or null when there is none.
 */
export function nextSceneAfterCountdown(doc: SceneDocument, countdownSceneId: string): string | null {
  const live = liveScenes(doc);
  const scene = live.find((s) => s.id === countdownSceneId);
  const named = scene?.countdown?.nextSceneId;
  if (named && named !== countdownSceneId && live.some((s) => s.id === named)) return named;
  const at = live.findIndex((s) => s.id === countdownSceneId);
  for (let step = 1; step < live.length; step++) {
    const candidate = live[(at + step) % live.length]!;
    if (candidate.kind !== 'countdown') return candidate.id;
  }
  return null;
}
