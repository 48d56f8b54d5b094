import {
  getChatOnScreenEndpoint,
  hideChatOnScreenEndpoint,
  isChatOnScreenOverlayUrl,
  liveScenes,
  showChatOnScreenEndpoint,
  type ChatOnScreen,
  type ChatOnScreenKind,
  type SceneDocument,
  type SceneOp,
  type ServerMessage,
} from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import {
  browserStorage,
  initialChatOnScreenState,
  useChatOnScreenStore,
  useStudioStore,
  writeOnScreenDuration,
  type FlagStorage,
  type OnScreenDuration,
} from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { editScene } from './scene-edits.ts';
import { showToast } from './toasts.ts';

/** Past a message's time, the studio clears it itself if the server's word has not come (its replica gone). */
const END_GRACE_MS = 1500;
let endTimer: ReturnType<typeof setTimeout> | null = null;

function setOnScreen(onScreen: ChatOnScreen | null): void {
  if (endTimer) clearTimeout(endTimer);
  endTimer = null;
  useChatOnScreenStore.setState({ onScreen });
  if (onScreen && onScreen.remainingMs !== null) {
    const { messageId, shownAt } = onScreen;
    endTimer = setTimeout(() => {
      const current = useChatOnScreenStore.getState().onScreen;
      if (current?.messageId === messageId && current.shownAt === shownAt) useChatOnScreenStore.setState({ onScreen: null });
    }, onScreen.remainingMs + END_GRACE_MS);
  }
}

/** The studio opened a project (or its channel came back): what is on screen now, and the overlay's address. */
export async function loadChatOnScreen(projectId: string, client: HttpClient = httpClient): Promise<void> {
  if (useChatOnScreenStore.getState().projectId !== projectId) {
    useChatOnScreenStore.setState({ ...initialChatOnScreenState(browserStorage()), projectId });
  }
  try {
    const view = await call(getChatOnScreenEndpoint, { params: { projectId } }, client);
    if (useChatOnScreenStore.getState().projectId !== projectId) return;
    useChatOnScreenStore.setState({ overlayUrl: view.overlayUrl });
    setOnScreen(view.onScreen);
  } catch (err) {
    if (useChatOnScreenStore.getState().projectId === projectId) useChatOnScreenStore.setState({ error: messageOf(err) });
  }
}

export function closeChatOnScreen(): void {
  if (endTimer) clearTimeout(endTimer);
  endTimer = null;
  useChatOnScreenStore.setState(initialChatOnScreenState(browserStorage()));
}

/** Another studio (or this one, or the clock) changed what is on screen. */
export function receiveChatOnScreen(message: Extract<ServerMessage, { type: 'chat.onScreen' }>): void {
  if (useChatOnScreenStore.getState().projectId !== message.projectId) return;
  setOnScreen(message.onScreen);
}

export function setChatOnScreenDuration(duration: OnScreenDuration, storage: FlagStorage | undefined = browserStorage()): void {
  writeOnScreenDuration(storage, duration);
  useChatOnScreenStore.setState({ duration });
}

/**
 * The overlay that draws the message, in the scene on air: the page as a browser source over the
 * whole canvas (kept loaded, so a scene change does not reload it), on top of the active scene, shown.
 * Added once; after that, showing and hiding a message changes no scene. Null when nothing was needed.
 */
export function chatOnScreenLayerOps(doc: SceneDocument, overlayUrl: string, newId: () => string): SceneOp[] {
  const scene = liveScenes(doc).find((s) => s.id === doc.activeSceneId);
  if (!scene) return [];
  const base = overlayUrl.split('?')[0];
  const source = doc.sources.find(
    (s) => s.kind === 'webpage' && isChatOnScreenOverlayUrl(s.settings.config.url) && s.settings.config.url.split('?')[0] === base,
  );
  const ops: SceneOp[] = [];
  const sourceId = source?.id ?? newId();
  if (!source) {
    ops.push({
      op: 'addSource',
      source: {
        id: sourceId,
        kind: 'webpage',
        name: 'Chat on screen',
        settings: { config: { url: overlayUrl, title: 'Chat on screen', canPreviewUrl: false, mode: 'keep-loaded' } },
      },
    });
  } else if (source.kind === 'webpage' && source.settings.config.url !== overlayUrl) {
    // Saved with an older signature: today's address.
    ops.push({ op: 'updateSource', sourceId, settings: { kind: 'webpage', config: { url: overlayUrl } } });
  }
  const layer = scene.layers.find((l) => l.sourceId === sourceId);
  if (!layer) ops.push({ op: 'addLayer', sceneId: scene.id, layer: { id: newId(), sourceId, x: 0, y: 0, width: 1280, height: 720 } });
  else if (!layer.visible) ops.push({ op: 'updateLayer', sceneId: scene.id, layerId: layer.id, changes: { visible: true } });
  return ops;
}

/**
 * A click on a message: put on screen (in place of any other), or taken off when it is the one
 * shown. The first time in a scene, the overlay is added to it.
 */
export async function toggleChatOnScreen(kind: ChatOnScreenKind, messageId: string, client: HttpClient = httpClient): Promise<void> {
  const { projectId, onScreen, overlayUrl, duration, pending } = useChatOnScreenStore.getState();
  if (!projectId || pending) return;
  useChatOnScreenStore.setState({ pending: messageId, error: null });
  try {
    if (onScreen?.messageId === messageId) {
      const view = await call(hideChatOnScreenEndpoint, { params: { projectId }, query: { messageId } }, client);
      setOnScreen(view.onScreen);
      return;
    }
    const doc = useStudioStore.getState().document;
    if (doc && overlayUrl) {
      const ops = chatOnScreenLayerOps(doc, overlayUrl, () => crypto.randomUUID());
      if (ops.length > 0 && !editScene(ops, client)) return;
    }
    const view = await call(showChatOnScreenEndpoint, { params: { projectId }, body: { kind, messageId, durationMs: duration } }, client);
    setOnScreen(view.onScreen);
  } catch (err) {
    const error = messageOf(err);
    useChatOnScreenStore.setState({ error });
    showToast({ kind: 'error', title: 'The message could not be shown on screen', description: error });
  } finally {
    useChatOnScreenStore.setState({ pending: null });
  }
}

/** The bar's Take off button: whatever is on screen goes. */
export async function takeChatOffScreen(client: HttpClient = httpClient): Promise<void> {
  const { onScreen } = useChatOnScreenStore.getState();
  if (onScreen) await toggleChatOnScreen(onScreen.kind, onScreen.messageId, client);
}
