import type { z } from 'zod';
import { canHideOrReplaceLogo, isEnabled, isResolutionAllowed, maximumScenes, type Entitlements } from '../plans.ts';
import { DEFAULT_COUNTDOWN, liveScenes, NO_CROP, plannedScenes, type Layer, type Scene, type SceneDocument } from './document.ts';
import { BROWSER_SOURCE_MIN_SIZE, CANVAS, WATERMARK_PLACEMENT } from './layout.ts';
import type { AcceptedScenePatch, SceneOp, ScenePatch } from './patch.ts';
import { sceneRejection, SceneRejectionError, type SceneRejection, type SceneRejectionCode } from './rejections.ts';
import {
  clampVolume,
  defaultPlacement,
  isPrivateUrl,
  sourceDefaults,
  sourceKindInfo,
  sourceSchema,
  stripGameParticipantPrefix,
  type Source,
  type SourceKind,
  type SourceSettingsChange,
} from './sources.ts';
import { verticalLayout } from './vertical.ts';

export type ApplyScenePatchResult = { ok: true; document: SceneDocument; ops: SceneOp[] } | { ok: false; rejection: SceneRejection };

/** Every entitlement granted: how an already accepted patch is replayed by a worker or another studio. */
export const ALL_ENTITLEMENTS: Entitlements = {
  'custom-logo': 'true',
  'custom-backgrounds': 'true',
  'custom-starting-ending-and-be-back-screens': 'true',
  '720p30fps': 'true',
  '1080p30fps': 'true',
  'maximum-scenes': 'Unlimited',
};

/**
 * Applies a patch to a scene document: all ops or none. Pure: the input document is not touched,
 * and the result carries the ops normalised (defaults filled in, volumes clamped, prefixes
 * stripped, deletion times set) so that whoever replays them ends with exactly this document.
 */
/**
 * Caps of one project's document whatever the plan (the api's SCENE_MAX_* settings), so a document
 * cannot grow without end: live scenes, sources, and layers in one scene. A patch that would go
 * over one is refused; a document already over (a lowered setting) can still shrink.
 */
export interface DocumentLimits {
  scenes: number;
  sources: number;
  layersPerScene: number;
}
export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = { scenes: 100, sources: 200, layersPerScene: 100 };
const NO_DOCUMENT_LIMITS: DocumentLimits = { scenes: Infinity, sources: Infinity, layersPerScene: Infinity };

/** Deleted scenes a document keeps (they are soft-deleted); removing one more drops the oldest for good. */
export const KEPT_DELETED_SCENES = 20;

export function applyScenePatch(
  doc: SceneDocument,
  patch: ScenePatch,
  entitlements: Entitlements,
  options: {
    now?: Date;
    limits?: DocumentLimits;
    /**
     * Origins whose pages a browser source may load even at a private or loopback address: OnAir's
     * own overlay pages (the alerts) where the deployment itself is on one (the one-machine stack).
     */
    pageUrlTrusted?: (url: string) => boolean;
    /** Whether the patch may add a `scheduled` scene: the api's own patch starting a scheduled broadcast, and replays. */
    scheduledScenes?: boolean;
  } = {},
): ApplyScenePatchResult {
  if (patch.baseVersion !== doc.version) {
    return { ok: false, rejection: sceneRejection('stale-version', { details: { currentVersion: doc.version, baseVersion: patch.baseVersion } }) };
  }
  const next = structuredClone(doc);
  const ctx: PatchContext = {
    doc: next,
    entitlements,
    now: (options.now ?? new Date()).toISOString(),
    addedScenes: new Set(),
    pageUrlTrusted: options.pageUrlTrusted ?? (() => false),
    scheduledScenes: options.scheduledScenes ?? false,
  };
  const ops: SceneOp[] = [];
  try {
    patch.ops.forEach((op, index) => ops.push(applyOp(ctx, op, index)));
    checkLogoKept(doc, ctx);
    checkDocumentLimits(doc, ctx.doc, options.limits ?? DEFAULT_DOCUMENT_LIMITS);
  } catch (err) {
    if (err instanceof SceneRejectionError) return { ok: false, rejection: err.rejection };
    throw err;
  }
  next.version = doc.version + 1;
  return { ok: true, document: next, ops };
}

/**
 * Replays a patch the server accepted (from the WebSocket or Redis). A version that does not follow
 * the document's means a patch was missed: the caller must fetch the whole document instead.
 */
export function applyAcceptedPatch(
  doc: SceneDocument,
  accepted: AcceptedScenePatch,
): { ok: true; document: SceneDocument } | { ok: false; reason: 'gap' | 'already-applied' | 'rejected'; rejection?: SceneRejection } {
  if (accepted.version <= doc.version) return { ok: false, reason: 'already-applied' };
  if (accepted.version !== doc.version + 1) return { ok: false, reason: 'gap' };
  // The server already applied its limits: a replay must never refuse what it accepted.
  const result = applyScenePatch(doc, { baseVersion: doc.version, ops: accepted.ops }, ALL_ENTITLEMENTS, {
    limits: NO_DOCUMENT_LIMITS,
    pageUrlTrusted: () => true,
    scheduledScenes: true,
  });
  return result.ok ? { ok: true, document: result.document } : { ok: false, reason: 'rejected', rejection: result.rejection };
}

interface PatchContext {
  doc: SceneDocument;
  entitlements: Entitlements;
  now: string;
  addedScenes: Set<string>;
  pageUrlTrusted: (url: string) => boolean;
  scheduledScenes: boolean;
}

function reject(code: SceneRejectionCode, opIndex: number, extra: { details?: Record<string, unknown>; vars?: Record<string, string | number> } = {}): never {
  throw new SceneRejectionError(sceneRejection(code, { opIndex, ...extra }));
}

function applyOp(ctx: PatchContext, op: SceneOp, i: number): SceneOp {
  const { doc } = ctx;
  switch (op.op) {
    case 'addScene': {
      if (doc.scenes.some((s) => s.id === op.sceneId)) reject('duplicate-id', i, { details: { id: op.sceneId } });
      const kind = op.kind ?? 'standard';
      if (kind === 'scheduled' && !ctx.scheduledScenes) reject('scene-kind-reserved', i);
      const limit = maximumScenes(ctx.entitlements);
      if (kind !== 'scheduled' && plannedScenes(doc).length >= limit) reject('scene-limit-reached', i, { vars: { limit }, details: { limit } });
      doc.scenes.push({
        id: op.sceneId,
        name: op.name,
        order: Number.MAX_SAFE_INTEGER,
        kind,
        ...(kind === 'countdown' ? { countdown: { ...DEFAULT_COUNTDOWN } } : {}),
        deletedAt: null,
        layers: [],
      });
      renumberScenes(doc);
      doc.activeSceneId ??= op.sceneId;
      ctx.addedScenes.add(op.sceneId);
      return op;
    }
    case 'removeScene': {
      const scene = liveScene(doc, op.sceneId, i);
      if (liveScenes(doc).length === 1) reject('last-scene', i);
      scene.deletedAt = op.deletedAt ?? ctx.now;
      dropOldestDeletedScenes(doc);
      renumberScenes(doc);
      if (doc.activeSceneId === scene.id) doc.activeSceneId = liveScenes(doc)[0]?.id ?? null;
      return { ...op, deletedAt: scene.deletedAt };
    }
    case 'setCountdown': {
      const scene = liveScene(doc, op.sceneId, i);
      if (scene.kind !== 'countdown') reject('not-a-countdown', i);
      if (op.countdown.nextSceneId !== null && (op.countdown.nextSceneId === scene.id || !liveScenes(doc).some((s) => s.id === op.countdown.nextSceneId)))
        reject('scene-not-found', i, { details: { id: op.countdown.nextSceneId } });
      scene.countdown = { ...op.countdown };
      return op;
    }
    case 'renameScene': {
      liveScene(doc, op.sceneId, i).name = op.name;
      return op;
    }
    case 'reorderScenes': {
      const live = liveScenes(doc);
      if (
        !isPermutation(
          op.sceneIds,
          live.map((s) => s.id),
        )
      )
        reject('invalid-order', i);
      op.sceneIds.forEach((id, order) => {
        const scene = live.find((s) => s.id === id);
        if (scene) scene.order = order;
      });
      renumberScenes(doc);
      return op;
    }
    case 'setActiveScene': {
      doc.activeSceneId = liveScene(doc, op.sceneId, i).id;
      return op;
    }
    case 'addSource': {
      const { id, kind, name } = op.source;
      if (doc.sources.some((s) => s.id === id)) reject('duplicate-id', i, { details: { id } });
      const change = normaliseSettingsChange({ kind, ...op.source.settings } as SourceSettingsChange);
      const source = buildSource(ctx, { id, kind, name: name ?? sourceKindInfo[kind].label, settings: mergeSettings(kind, sourceDefaults[kind], change) }, i);
      doc.sources.push(source);
      return { op: 'addSource', source: { id, kind, name: source.name, settings: source.settings } } as SceneOp;
    }
    case 'removeSource': {
      findSource(doc, op.sourceId, i);
      doc.sources = doc.sources.filter((s) => s.id !== op.sourceId);
      for (const scene of doc.scenes) {
        scene.layers = scene.layers.filter((l) => l.sourceId !== op.sourceId);
        renumberLayers(scene);
      }
      return op;
    }
    case 'updateSource': {
      const current = findSource(doc, op.sourceId, i);
      let change: SourceSettingsChange | undefined;
      if (op.settings) {
        if (op.settings.kind !== current.kind) reject('source-kind-mismatch', i, { details: { sourceKind: current.kind, settingsKind: op.settings.kind } });
        change = normaliseSettingsChange(op.settings);
      }
      const updated = buildSource(
        ctx,
        {
          id: current.id,
          kind: current.kind,
          name: op.name ?? current.name,
          settings: change ? mergeSettings(current.kind, current.settings, change) : current.settings,
        },
        i,
      );
      doc.sources = doc.sources.map((s) => (s.id === current.id ? updated : s));
      return { ...op, ...(change ? { settings: change } : {}) } as SceneOp;
    }
    case 'addLayer': {
      const scene = liveScene(doc, op.sceneId, i);
      const { layer: input } = op;
      if (doc.scenes.some((s) => s.layers.some((l) => l.id === input.id))) reject('duplicate-id', i, { details: { id: input.id } });
      const source = findSource(doc, input.sourceId, i);
      if (scene.layers.some((l) => l.sourceId === source.id)) reject('source-in-scene', i);
      if (source.kind === 'game' && scene.layers.some((l) => sourceKind(doc, l) === 'game')) reject('one-game-source-per-scene', i);
      const placement = defaultPlacement(source.kind);
      const layer: Layer = {
        id: input.id,
        sourceId: source.id,
        x: input.x ?? placement.x,
        y: input.y ?? placement.y,
        width: input.width ?? placement.width,
        height: input.height ?? placement.height,
        crop: input.crop ?? { ...NO_CROP },
        zIndex: Math.min(input.zIndex ?? scene.layers.length, scene.layers.length),
        opacity: input.opacity ?? 1,
        visible: input.visible ?? true,
      };
      checkLayerSize(source.kind, layer, i);
      // Insert below whatever sits at the requested position, then number the stack 0..n-1.
      const stack = [...scene.layers].sort((a, b) => a.zIndex - b.zIndex);
      stack.splice(layer.zIndex, 0, layer);
      scene.layers = stack.map((l, zIndex) => ({ ...l, zIndex }));
      return { ...op, layer: { ...layer } };
    }
    case 'removeLayer': {
      const scene = liveScene(doc, op.sceneId, i);
      findLayer(scene, op.layerId, i);
      scene.layers = scene.layers.filter((l) => l.id !== op.layerId);
      renumberLayers(scene);
      return op;
    }
    case 'updateLayer': {
      const scene = liveScene(doc, op.sceneId, i);
      const layer = findLayer(scene, op.layerId, i);
      const changed: Layer = { ...layer, ...stripUndefined(op.changes) };
      checkLayerSize(sourceKind(doc, layer), changed, i);
      scene.layers = scene.layers.map((l) => (l.id === layer.id ? changed : l));
      return op;
    }
    case 'updateLayerVertical': {
      const scene = liveScene(doc, op.sceneId, i);
      findLayer(scene, op.layerId, i);
      const boxes = verticalLayout(scene, doc.sources);
      scene.layers = scene.layers.map((l) => {
        const box = boxes.get(l.id)!;
        return { ...l, vertical: l.id === op.layerId ? { ...box, ...stripUndefined(op.changes) } : box };
      });
      const changed = findLayer(scene, op.layerId, i);
      const kind = sourceKind(doc, changed);
      // Vertical frames are the horizontal canvas's own, scaled: a page's minimum render size does not apply.
      if (kind !== undefined && sourceKindInfo[kind].hasVideo && (changed.vertical!.width < 1 || changed.vertical!.height < 1)) reject('layer-too-small', i);
      return op;
    }
    case 'reorderLayers': {
      const scene = liveScene(doc, op.sceneId, i);
      if (
        !isPermutation(
          op.layerIds,
          scene.layers.map((l) => l.id),
        )
      )
        reject('invalid-order', i);
      scene.layers = op.layerIds.map((id, zIndex) => ({ ...findLayer(scene, id, i), zIndex }));
      return op;
    }
    case 'followLayout': {
      const scene = liveScene(doc, op.sceneId, i);
      if (op.followedLayout === null) {
        delete scene.followedLayout;
        return op;
      }
      if (op.followedLayout.mainLayerId !== null) findLayer(scene, op.followedLayout.mainLayerId, i);
      scene.followedLayout = { ...op.followedLayout };
      return op;
    }
    case 'setResolution': {
      if (!isResolutionAllowed(ctx.entitlements, op.resolution)) {
        reject('resolution-not-in-plan', i, { vars: { resolution: op.resolution }, details: { resolution: op.resolution } });
      }
      doc.resolution = op.resolution;
      return op;
    }
  }
}

// ─── Lookups ───

function liveScene(doc: SceneDocument, id: string, i: number): Scene {
  const scene = doc.scenes.find((s) => s.id === id);
  if (!scene) return reject('scene-not-found', i, { details: { sceneId: id } });
  if (scene.deletedAt !== null) return reject('scene-deleted', i, { details: { sceneId: id } });
  return scene;
}

function findSource(doc: SceneDocument, id: string, i: number): Source {
  return doc.sources.find((s) => s.id === id) ?? reject('source-not-found', i, { details: { sourceId: id } });
}

function findLayer(scene: Scene, id: string, i: number): Layer {
  return scene.layers.find((l) => l.id === id) ?? reject('layer-not-found', i, { details: { layerId: id } });
}

function sourceKind(doc: SceneDocument, layer: Layer): SourceKind | undefined {
  return doc.sources.find((s) => s.id === layer.sourceId)?.kind;
}

// ─── Rules ───

/** Volume is clamped to 0..1 and a game participant id loses its 'source-' prefix (spec §5). */
function normaliseSettingsChange(change: SourceSettingsChange): SourceSettingsChange {
  const out = stripUndefined({ ...change }) as SourceSettingsChange & { volume?: number; participantId?: string | null };
  if ('volume' in out && typeof out.volume === 'number') out.volume = clampVolume(out.volume);
  if (out.kind === 'game' && typeof out.participantId === 'string') out.participantId = stripGameParticipantPrefix(out.participantId);
  return out;
}

function mergeSettings(kind: SourceKind, base: object, change: SourceSettingsChange): unknown {
  const { kind: _kind, ...fields } = change;
  if (kind === 'webpage') {
    const baseConfig = (base as { config?: object }).config ?? {};
    const changeConfig = (fields as { config?: object }).config ?? {};
    return { ...base, ...fields, config: { ...baseConfig, ...changeConfig } };
  }
  return { ...base, ...fields };
}

function buildSource(ctx: PatchContext, candidate: { id: string; kind: SourceKind; name: string; settings: unknown }, i: number): Source {
  const parsed = sourceSchema.safeParse(candidate);
  if (!parsed.success) reject('invalid-settings', i, { details: { issues: issuesOf(parsed.error) } });
  const source = parsed.data;
  if (
    source.kind === 'webpage' &&
    source.settings.config.url !== '' &&
    isPrivateUrl(source.settings.config.url) &&
    !ctx.pageUrlTrusted(source.settings.config.url)
  ) {
    reject('private-address', i);
  }
  if (source.kind === 'image') {
    if (source.settings.purpose === 'logo' && !canHideOrReplaceLogo(ctx.entitlements)) reject('custom-logo-not-in-plan', i);
    if (source.settings.purpose === 'background' && !isEnabled(ctx.entitlements, 'custom-backgrounds')) reject('custom-background-not-in-plan', i);
    // The built-in screens are in every plan; a screen of the creator's own is not.
    if (source.settings.purpose === 'screen' && !source.settings.screen && !isEnabled(ctx.entitlements, 'custom-starting-ending-and-be-back-screens'))
      reject('custom-screen-not-in-plan', i);
  }
  if (source.kind === 'video' && !isEnabled(ctx.entitlements, 'custom-backgrounds')) reject('custom-video-not-in-plan', i);
  return source;
}

function checkLayerSize(kind: SourceKind | undefined, layer: Layer, i: number): void {
  if (kind === 'webpage' && (layer.width < BROWSER_SOURCE_MIN_SIZE.width || layer.height < BROWSER_SOURCE_MIN_SIZE.height)) {
    reject('browser-source-too-small', i, { details: { minWidth: BROWSER_SOURCE_MIN_SIZE.width, minHeight: BROWSER_SOURCE_MIN_SIZE.height } });
  }
  if (kind !== undefined && sourceKindInfo[kind].hasVideo && (layer.width < 1 || layer.height < 1)) reject('layer-too-small', i);
}

/**
 * The logo is shown in a scene when a watermark layer is visible, opaque, at least its default
 * size and entirely on the canvas.
 */
export function sceneShowsLogo(doc: SceneDocument, scene: Scene): boolean {
  return scene.layers.some(
    (l) =>
      sourceKind(doc, l) === 'watermark' &&
      l.visible &&
      l.opacity === 1 &&
      l.width >= WATERMARK_PLACEMENT.width &&
      l.height >= WATERMARK_PLACEMENT.height &&
      l.x >= 0 &&
      l.y >= 0 &&
      l.x + l.width <= CANVAS.width &&
      l.y + l.height <= CANVAS.height,
  );
}

/**
 * Without `custom-logo` the logo stays on every stream (spec §6): a patch may not take it out of
 * a scene that shows it, and every scene it adds must show it. Scenes that lack it already (a
 * plan that changed) are left as they are rather than blocking every edit.
 */
function checkLogoKept(before: SceneDocument, ctx: PatchContext): void {
  if (canHideOrReplaceLogo(ctx.entitlements)) return;
  for (const scene of liveScenes(ctx.doc)) {
    const previous = before.scenes.find((s) => s.id === scene.id);
    const required = ctx.addedScenes.has(scene.id) || (previous !== undefined && sceneShowsLogo(before, previous));
    if (required && !sceneShowsLogo(ctx.doc, scene)) {
      throw new SceneRejectionError(sceneRejection('logo-required', { details: { sceneId: scene.id } }));
    }
  }
}

function checkDocumentLimits(before: SceneDocument, after: SceneDocument, limits: DocumentLimits): void {
  const over = (
    code: 'document-scene-limit' | 'document-source-limit' | 'document-layer-limit',
    limit: number,
    details: Record<string, unknown> = {},
  ): never => {
    throw new SceneRejectionError(sceneRejection(code, { vars: { limit }, details: { limit, ...details } }));
  };
  const scenesAfter = liveScenes(after).length;
  if (scenesAfter > limits.scenes && scenesAfter > liveScenes(before).length) over('document-scene-limit', limits.scenes);
  if (after.sources.length > limits.sources && after.sources.length > before.sources.length) over('document-source-limit', limits.sources);
  for (const scene of liveScenes(after)) {
    const was = before.scenes.find((s) => s.id === scene.id)?.layers.length ?? 0;
    if (scene.layers.length > limits.layersPerScene && scene.layers.length > was) over('document-layer-limit', limits.layersPerScene, { sceneId: scene.id });
  }
}

/** Keeps the newest KEPT_DELETED_SCENES deleted scenes (by deletion time, then order); deterministic, so a replay drops the same ones. */
function dropOldestDeletedScenes(doc: SceneDocument): void {
  const deleted = doc.scenes
    .filter((s) => s.deletedAt !== null)
    .sort((a, b) => (a.deletedAt! < b.deletedAt! ? -1 : a.deletedAt! > b.deletedAt! ? 1 : a.order - b.order));
  const drop = new Set(deleted.slice(0, Math.max(0, deleted.length - KEPT_DELETED_SCENES)).map((s) => s.id));
  if (drop.size > 0) doc.scenes = doc.scenes.filter((s) => !drop.has(s.id));
}

// ─── Helpers ───

/** Live scenes first in their order, then deleted ones; orders renumbered 0..n-1. */
function renumberScenes(doc: SceneDocument): void {
  const live = doc.scenes.filter((s) => s.deletedAt === null).sort((a, b) => a.order - b.order);
  const deleted = doc.scenes.filter((s) => s.deletedAt !== null).sort((a, b) => a.order - b.order);
  doc.scenes = [...live, ...deleted].map((s, order) => ({ ...s, order }));
}

function renumberLayers(scene: Scene): void {
  scene.layers = [...scene.layers].sort((a, b) => a.zIndex - b.zIndex).map((l, zIndex) => ({ ...l, zIndex }));
}

function isPermutation(ids: readonly string[], expected: readonly string[]): boolean {
  return ids.length === expected.length && new Set(ids).size === ids.length && ids.every((id) => expected.includes(id));
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function issuesOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}
