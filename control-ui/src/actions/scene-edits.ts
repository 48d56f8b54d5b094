import {
  CANVAS,
  COUNTDOWN_MAX_SECONDS,
  DEFAULT_COUNTDOWN,
  canHideOrReplaceLogo,
  maximumScenes,
  plannedScenes,
  sceneRejection,
  followLayoutOps,
  layoutTiles,
  patchSceneEndpoint,
  sourceKindInfo,
  type LayerChanges,
  type NewSource,
  type ResolutionId,
  type SceneDocument,
  type SceneLayoutId,
  type SceneOp,
  type SourceKind,
  type SourceSettingsChange,
  type BuiltInScreen,
  type CanvasKind,
  type Upload,
} from '@onair/protocol';
import { NetworkError, RequestAbortedError, UnauthorizedError } from '../api/http-errors.ts';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { tryEdit } from '../model/optimistic-scene.ts';
import { useDeviceStore, useStudioStore } from '../stores/index.ts';
import { apiErrorOf } from './api-errors.ts';
import { receivePatch, refetchDocument, setConfirmed } from './scene-document.ts';
import { showToast } from './toasts.ts';

/** After this many 409s in a row an edit is given up: someone else keeps changing the same thing. */
const MAX_ATTEMPTS = 5;
const NETWORK_RETRY_MS = 2000;

let nextEditId = 1;

/**
 * Every change to the scene goes through here: it is checked and shown at once (optimistic), then
 * sent; the server's answer or another studio's echo confirms it. A 409 reloads the document and
 * replays the edit on the new version; a refusal undoes it and says why. Returns false when the
 * edit was refused before sending (the toast says why).
 */
export function editScene(ops: SceneOp[], client: HttpClient = httpClient): boolean {
  const state = useStudioStore.getState();
  if (!state.document || state.status !== 'ready') return false;
  const attempt = tryEdit(state.document, ops);
  if (!attempt.ok) {
    showToast({ kind: 'warning', title: attempt.rejection.message });
    return false;
  }
  const edit = { id: `edit-${nextEditId++}`, ops, attempts: 0 };
  useStudioStore.setState({ pending: [...state.pending, edit], document: attempt.document });
  void flush(client);
  return true;
}

async function flush(client: HttpClient): Promise<void> {
  const state = useStudioStore.getState();
  const edit = state.pending[0];
  if (state.sending || !edit || !state.confirmed || !state.projectId) return;
  const projectId = state.projectId;
  useStudioStore.setState({ sending: edit.id });
  try {
    const accepted = await call(patchSceneEndpoint, { params: { projectId }, body: { baseVersion: state.confirmed.version, ops: edit.ops } }, client);
    if (useStudioStore.getState().projectId !== projectId) return;
    settle(edit.id);
    const confirmed = useStudioStore.getState().confirmed;
    // The echo over /ws may have come first; otherwise the answer advances the document.
    if (confirmed && confirmed.version < accepted.version) {
      receivePatch({ type: 'scene.patched', projectId, version: accepted.version, ops: accepted.ops }, client);
    } else if (confirmed) {
      setConfirmed(confirmed);
    }
  } catch (err) {
    if (useStudioStore.getState().projectId !== projectId) return;
    const error = apiErrorOf(err);
    if (error?.code === 'CONFLICT' && edit.attempts + 1 < MAX_ATTEMPTS) {
      useStudioStore.setState((s) => ({ sending: null, pending: s.pending.map((p) => (p.id === edit.id ? { ...p, attempts: p.attempts + 1 } : p)) }));
      await refetchDocument(client);
    } else if (err instanceof NetworkError || err instanceof RequestAbortedError) {
      useStudioStore.setState({ sending: null });
      setTimeout(() => void flush(client), NETWORK_RETRY_MS);
      return;
    } else if (err instanceof UnauthorizedError) {
      useStudioStore.setState({ sending: null, status: 'unauthenticated' });
      return;
    } else {
      settle(edit.id);
      const confirmed = useStudioStore.getState().confirmed;
      if (confirmed) setConfirmed(confirmed);
      showToast({ kind: 'warning', title: error?.message ?? 'Your change could not be saved', description: 'It was undone.' });
    }
  }
  void flush(client);
}

function settle(editId: string): void {
  useStudioStore.setState((s) => ({ sending: null, pending: s.pending.filter((p) => p.id !== editId) }));
}

// ─── Named edits: what the studio's controls call ───

function shown(): SceneDocument | null {
  return useStudioStore.getState().document;
}

function activeSceneId(): string | null {
  return shown()?.activeSceneId ?? null;
}

function uuid(): string {
  return crypto.randomUUID();
}

/** A new scene, with the logo when the plan keeps it on every stream. */
export function addScene(name: string, client: HttpClient = httpClient): boolean {
  const doc = shown();
  if (!doc) return false;
  // The plan's scene limit is the server's to enforce; saying it here spares a round trip.
  const limit = maximumScenes(useStudioStore.getState().entitlements);
  if (plannedScenes(doc).length >= limit) {
    showToast({ kind: 'warning', title: sceneRejection('scene-limit-reached', { vars: { limit } }).message });
    return false;
  }
  const sceneId = uuid();
  const ops: SceneOp[] = [{ op: 'addScene', sceneId, name }];
  const watermark = doc.sources.find((s) => s.kind === 'watermark');
  if (!canHideOrReplaceLogo(useStudioStore.getState().entitlements)) {
    if (watermark) {
      ops.push({ op: 'addLayer', sceneId, layer: { id: uuid(), sourceId: watermark.id } });
    } else {
      const sourceId = uuid();
      ops.push({ op: 'addSource', source: { id: sourceId, kind: 'watermark' } }, { op: 'addLayer', sceneId, layer: { id: uuid(), sourceId } });
    }
  }
  return editScene(ops, client);
}

export const renameScene = (sceneId: string, name: string) => editScene([{ op: 'renameScene', sceneId, name }]);
export const deleteScene = (sceneId: string) => editScene([{ op: 'removeScene', sceneId }]);
export const switchScene = (sceneId: string) => editScene([{ op: 'setActiveScene', sceneId }]);

/** Moves a scene one place up (-1) or down (+1) in the list. */
export function moveScene(sceneId: string, direction: -1 | 1): boolean {
  const doc = shown();
  if (!doc) return false;
  const ids = doc.scenes.filter((s) => s.deletedAt === null).map((s) => s.id);
  const from = ids.indexOf(sceneId);
  const to = from + direction;
  if (from < 0 || to < 0 || to >= ids.length) return false;
  [ids[from], ids[to]] = [ids[to]!, ids[from]!];
  return editScene([{ op: 'reorderScenes', sceneIds: ids }]);
}

/**
 * Adds a source of `kind` to the active scene. A watermark reuses the project's logo source; a
 * camera starts on the camera and microphone this browser remembers (spec §4).
 */
/** `name`: the source's name in the list and on its tile; the kind's label ('Camera', 'Guest') without it. */
export function addSourceToScene(kind: SourceKind, settings?: Record<string, unknown>, name?: string): boolean {
  const doc = shown();
  const sceneId = activeSceneId();
  if (!doc || !sceneId) return false;
  const layerId = uuid();
  const ops: SceneOp[] = [];
  let sourceId: string;
  const existingWatermark = kind === 'watermark' ? doc.sources.find((s) => s.kind === 'watermark') : undefined;
  if (existingWatermark) {
    sourceId = existingWatermark.id;
  } else {
    sourceId = uuid();
    const devices = useDeviceStore.getState();
    const userId = useStudioStore.getState().userId;
    const defaults: Record<string, unknown> =
      kind === 'webcam'
        ? { webcamDeviceId: devices.rememberedCamera ?? 'default', microphoneDeviceId: devices.rememberedMicrophone ?? 'default', userId }
        : kind === 'microphone'
          ? { microphoneDeviceId: devices.rememberedMicrophone ?? 'default', userId }
          : {};
    const source = { id: sourceId, kind, name: name || sourceKindInfo[kind].label, settings: { ...defaults, ...settings } } as NewSource;
    ops.push({ op: 'addSource', source });
  }
  ops.push({ op: 'addLayer', sceneId, layer: { id: layerId, sourceId } });
  const ok = editScene(ops);
  if (ok) useStudioStore.setState({ selectedLayerId: layerId });
  return ok;
}

/** Places an upload in the active scene: a logo or background image, or a video file (a background full frame). */
export function addUploadToScene(upload: Upload, screenKind: BuiltInScreen = 'brb'): boolean {
  // A screen picture becomes a screen scene of its own; a video screen plays in the scene like any video.
  if (upload.purpose === 'screen' && upload.kind === 'image') return addScreen({ uploadId: upload.id, kind: screenKind }, upload.name);
  const doc = shown();
  const sceneId = activeSceneId();
  if (!doc || !sceneId) return false;
  const sourceId = uuid();
  const layerId = uuid();
  const fullFrame = upload.purpose === 'background';
  const source: NewSource =
    upload.kind === 'video'
      ? { id: sourceId, kind: 'video', name: upload.name.slice(0, 100), settings: { uploadId: upload.id } }
      : {
          id: sourceId,
          kind: 'image',
          name: upload.name.slice(0, 100),
          settings: { uploadId: upload.id, url: '', purpose: upload.purpose === 'logo' ? 'logo' : 'background' },
        };
  const ops: SceneOp[] = [
    { op: 'addSource', source },
    { op: 'addLayer', sceneId, layer: { id: layerId, sourceId, ...(fullFrame ? { x: 0, y: 0, width: CANVAS.width, height: CANVAS.height } : {}) } },
  ];
  const ok = editScene(ops);
  if (ok) useStudioStore.setState({ selectedLayerId: layerId });
  return ok;
}

const SCREEN_NAMES: Record<BuiltInScreen, string> = { starting: 'Starting soon', brb: 'Be right back', ending: 'Ending' };

/**
 * A screen as a scene of its own kind: its picture full frame (built in, or the creator's upload, a
 * Premium feature the server checks), and the logo on top where the plan shows it.
 */
export function addScreen(picture: { screen: BuiltInScreen } | { uploadId: string; kind: BuiltInScreen }, name?: string): boolean {
  const doc = shown();
  if (!doc) return false;
  const limit = maximumScenes(useStudioStore.getState().entitlements);
  if (plannedScenes(doc).length >= limit) {
    showToast({ kind: 'warning', title: sceneRejection('scene-limit-reached', { vars: { limit } }).message });
    return false;
  }
  const kind = 'screen' in picture ? picture.screen : picture.kind;
  const sceneId = uuid();
  const sourceId = uuid();
  const ops: SceneOp[] = [
    { op: 'addScene', sceneId, name: (name ?? SCREEN_NAMES[kind]).slice(0, 100), kind },
    {
      op: 'addSource',
      source: {
        id: sourceId,
        kind: 'image',
        name: SCREEN_NAMES[kind],
        settings: { url: '', purpose: 'screen', ...('screen' in picture ? { screen: picture.screen } : { uploadId: picture.uploadId }) },
      },
    },
    { op: 'addLayer', sceneId, layer: { id: uuid(), sourceId, x: 0, y: 0, width: CANVAS.width, height: CANVAS.height } },
  ];
  const watermark = doc.sources.find((s) => s.kind === 'watermark');
  if (!canHideOrReplaceLogo(useStudioStore.getState().entitlements) && watermark)
    ops.push({ op: 'addLayer', sceneId, layer: { id: uuid(), sourceId: watermark.id } });
  return editScene(ops);
}

/**
 * A countdown (issue 19): a scene of its own showing the Starting Soon picture, which the server
 * switches back to the scene shown now when its time is up.
 */
export function addCountdownScene(seconds = DEFAULT_COUNTDOWN.seconds): boolean {
  const doc = shown();
  if (!doc) return false;
  const limit = maximumScenes(useStudioStore.getState().entitlements);
  if (plannedScenes(doc).length >= limit) {
    showToast({ kind: 'warning', title: sceneRejection('scene-limit-reached', { vars: { limit } }).message });
    return false;
  }
  const sceneId = uuid();
  const sourceId = uuid();
  const ops: SceneOp[] = [
    { op: 'addScene', sceneId, name: 'Countdown', kind: 'countdown' },
    { op: 'setCountdown', sceneId, countdown: { seconds, nextSceneId: doc.activeSceneId } },
    { op: 'addSource', source: { id: sourceId, kind: 'image', name: 'Starting soon', settings: { url: '', purpose: 'screen', screen: 'starting' } } },
    { op: 'addLayer', sceneId, layer: { id: uuid(), sourceId, x: 0, y: 0, width: CANVAS.width, height: CANVAS.height } },
  ];
  const watermark = doc.sources.find((s) => s.kind === 'watermark');
  if (!canHideOrReplaceLogo(useStudioStore.getState().entitlements) && watermark)
    ops.push({ op: 'addLayer', sceneId, layer: { id: uuid(), sourceId: watermark.id } });
  return editScene(ops);
}

/** A countdown scene's time, in whole seconds (1 to an hour); its next scene stays as it is. */
export function setCountdownSeconds(sceneId: string, seconds: number): boolean {
  const scene = shown()?.scenes.find((s) => s.id === sceneId);
  if (!scene?.countdown || !Number.isInteger(seconds) || seconds < 1 || seconds > COUNTDOWN_MAX_SECONDS) return false;
  return editScene([{ op: 'setCountdown', sceneId, countdown: { ...scene.countdown, seconds } }]);
}

export function updateLayer(sceneId: string, layerId: string, changes: LayerChanges): boolean {
  return editScene([{ op: 'updateLayer', sceneId, layerId, changes }]);
}

export function removeLayer(sceneId: string, layerId: string): boolean {
  return editScene([{ op: 'removeLayer', sceneId, layerId }]);
}

/** Moves a layer one step up (+1, towards the front) or down (-1) in its scene's stack. */
export function restackLayer(sceneId: string, layerId: string, direction: -1 | 1): boolean {
  const scene = shown()?.scenes.find((s) => s.id === sceneId);
  if (!scene) return false;
  const ids = [...scene.layers].sort((a, b) => a.zIndex - b.zIndex).map((l) => l.id);
  const from = ids.indexOf(layerId);
  const to = from + direction;
  if (from < 0 || to < 0 || to >= ids.length) return false;
  [ids[from], ids[to]] = [ids[to]!, ids[from]!];
  return editScene([{ op: 'reorderLayers', sceneId, layerIds: ids }]);
}

/** Drag and drop in the source list: puts a layer where another one is in the stack. */
export function moveLayerTo(sceneId: string, layerId: string, targetLayerId: string): boolean {
  const scene = shown()?.scenes.find((s) => s.id === sceneId);
  if (!scene || layerId === targetLayerId) return false;
  const ids = [...scene.layers].sort((a, b) => a.zIndex - b.zIndex).map((l) => l.id);
  const to = ids.indexOf(targetLayerId);
  if (!ids.includes(layerId) || to < 0) return false;
  const rest = ids.filter((id) => id !== layerId);
  rest.splice(to, 0, layerId);
  return editScene([{ op: 'reorderLayers', sceneId, layerIds: rest }]);
}

export function updateSource(sourceId: string, change: { name?: string; settings?: SourceSettingsChange }): boolean {
  return editScene([{ op: 'updateSource', sourceId, ...change }]);
}

/**
 * Arranges the active scene's cameras, guests, screens and game in one of the layouts (issue 38),
 * on both canvases, as one edit, and has the scene follow it: from then on the server re-flows the
 * scene in this layout whenever a camera, guest, screen or game joins or leaves it. The selected
 * source, when it is one of them, is the one Solo shows and the main picture of the layouts that
 * have one.
 */
export function applyLayout(layout: SceneLayoutId): boolean {
  const doc = shown();
  const sceneId = activeSceneId();
  if (!doc || !sceneId) return false;
  const selected = useStudioStore.getState().selectedLayerId;
  const ops = followLayoutOps(doc, sceneId, layout, selected ? { focusLayerId: selected } : {});
  if (ops.length === 0) {
    showToast({ kind: 'info', title: 'Nothing to arrange yet', description: 'Add a camera, a guest or a screen share to this scene first.' });
    return false;
  }
  return editScene(ops);
}

/** The scene stops following its layout: its sources stay where they are, and are arranged by hand from now on. */
export function stopFollowingLayout(sceneId: string): boolean {
  if (!shown()?.scenes.find((s) => s.id === sceneId)?.followedLayout) return false;
  return editScene([{ op: 'followLayout', sceneId, followedLayout: null }]);
}

/**
 * A layer moved or resized by hand (dragged, resized or nudged with the keys) on one canvas. Moving
 * one of the tiles of a scene that follows its layout stops following in the same edit: otherwise
 * the next guest to arrive would put it back.
 */
export function moveLayerByHand(canvas: CanvasKind, sceneId: string, layerId: string, box: { x: number; y: number; width: number; height: number }): boolean {
  const doc = shown();
  const scene = doc?.scenes.find((s) => s.id === sceneId);
  const ops: SceneOp[] = [
    canvas === 'vertical' ? { op: 'updateLayerVertical', sceneId, layerId, changes: box } : { op: 'updateLayer', sceneId, layerId, changes: box },
  ];
  if (doc && scene?.followedLayout && layoutTiles(scene, doc.sources).some((t) => t.layerId === layerId))
    ops.push({ op: 'followLayout', sceneId, followedLayout: null });
  return editScene(ops);
}

/** The output resolution is part of the document, so the worker and every studio follow it. */
export const setResolution = (resolution: ResolutionId) => editScene([{ op: 'setResolution', resolution }]);
