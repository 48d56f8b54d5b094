import { z } from 'zod';
import { resolutionIdSchema } from '../plans.ts';
import { countdownSchema, cropSchema, layerChangesSchema, sceneKindSchema, sceneNameSchema, verticalChangesSchema } from './document.ts';
import { followedLayoutSchema } from './scene-layout-ids.ts';
import { newSourceSchema, sourceSettingsChangeSchema } from './sources.ts';

const id = z.uuid();

/** A new layer: anything left out takes the default placement of its source's kind (spec §9). */
export const newLayerSchema = z.strictObject({
  id,
  sourceId: id,
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(0).optional(),
  height: z.number().int().min(0).optional(),
  crop: cropSchema.optional(),
  /** Defaults to the top of the scene. */
  zIndex: z.number().int().min(0).optional(),
  opacity: z.number().min(0).max(1).optional(),
  visible: z.boolean().optional(),
});
export type NewLayer = z.infer<typeof newLayerSchema>;

/**
 * The operations a patch is made of. Ids of new things are chosen by the client (UUIDs) so the
 * studio can apply its own edit before the server answers and recognise it in the echo.
 */
export const sceneOpSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('addScene'), sceneId: id, name: sceneNameSchema, kind: sceneKindSchema.optional() }),
  /** `deletedAt` is set by the server; a client leaves it out. */
  z.strictObject({ op: z.literal('removeScene'), sceneId: id, deletedAt: z.iso.datetime().optional() }),
  z.strictObject({ op: z.literal('renameScene'), sceneId: id, name: sceneNameSchema }),
  /** Every live scene, in the new order. */
  z.strictObject({ op: z.literal('reorderScenes'), sceneIds: z.array(id).min(1).max(1000) }),
  z.strictObject({ op: z.literal('setActiveScene'), sceneId: id }),
  /** A countdown scene's time and the scene it goes to (null: the next in the list). */
  z.strictObject({ op: z.literal('setCountdown'), sceneId: id, countdown: countdownSchema }),
  z.strictObject({ op: z.literal('addSource'), source: newSourceSchema }),
  z.strictObject({ op: z.literal('removeSource'), sourceId: id }),
  z.strictObject({
    op: z.literal('updateSource'),
    sourceId: id,
    name: z.string().trim().min(1).max(100).optional(),
    settings: sourceSettingsChangeSchema.optional(),
  }),
  z.strictObject({ op: z.literal('addLayer'), sceneId: id, layer: newLayerSchema }),
  z.strictObject({ op: z.literal('removeLayer'), sceneId: id, layerId: id }),
  z.strictObject({ op: z.literal('updateLayer'), sceneId: id, layerId: id, changes: layerChangesSchema }),
  /**
   * Moves or resizes a layer on the vertical canvas only. The scene's first vertical edit fixes
   * the derived vertical layout of all its layers, so later horizontal edits no longer move them.
   */
  z.strictObject({ op: z.literal('updateLayerVertical'), sceneId: id, layerId: id, changes: verticalChangesSchema }),
  /** Every layer of the scene, bottom to top. */
  z.strictObject({ op: z.literal('reorderLayers'), sceneId: id, layerIds: z.array(id).max(1000) }),
  z.strictObject({ op: z.literal('setResolution'), resolution: resolutionIdSchema }),
  /**
   * The layout the scene follows from now on (null: none, the creator arranges it by hand). It
   * moves nothing by itself: the studio sends it with the layout's own ops (followLayoutOps), and
   * the server re-flows the scene when its tiles change later (followLayouts).
   */
  z.strictObject({ op: z.literal('followLayout'), sceneId: id, followedLayout: followedLayoutSchema.nullable() }),
]);
export type SceneOp = z.infer<typeof sceneOpSchema>;
export type SceneOpName = SceneOp['op'];

export const MAX_OPS_PER_PATCH = 200;

/** What the studio sends: ops made against `baseVersion`, applied all or nothing. */
export const scenePatchSchema = z.strictObject({
  baseVersion: z.number().int().min(0),
  ops: z.array(sceneOpSchema).min(1).max(MAX_OPS_PER_PATCH),
});
export type ScenePatch = z.infer<typeof scenePatchSchema>;

/** An accepted patch as the server publishes it: the ops normalised (defaults filled, volumes clamped). */
export const acceptedScenePatchSchema = z.strictObject({
  projectId: id,
  version: z.number().int().min(1),
  ops: z.array(sceneOpSchema),
});
export type AcceptedScenePatch = z.infer<typeof acceptedScenePatchSchema>;
