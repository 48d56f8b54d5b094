import {
  createOverlayEndpoint,
  deleteOverlayEndpoint,
  errorBodySchema,
  getOverlayEndpoint,
  listOverlaysEndpoint,
  newWidget,
  OVERLAY_CANVAS,
  rotateOverlaySecretEndpoint,
  updateOverlayEndpoint,
  uploadOverlayImageEndpoint,
  uploadSchema,
  type Overlay,
  type OverlayContent,
  type TriggerAccess,
  type Widget,
  type WidgetKind,
} from '@onair/protocol';
import { call, urlOf } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { useOverlaysStore } from '../stores/index.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';
import { xhrSender, type UploadSender } from './uploads.ts';

/** The api's words per field, keyed by the whole path ("widgets.2.text"). */
export function overlayFieldErrors(details: unknown): Record<string, string> {
  const issues = (details as { issues?: { path?: unknown; message?: unknown }[] } | null)?.issues;
  const out: Record<string, string> = {};
  for (const issue of Array.isArray(issues) ? issues : []) {
    const key = Array.isArray(issue.path) ? issue.path.map(String).join('.') : '';
    if (typeof issue.message === 'string' && !(key in out)) out[key] = issue.message;
  }
  return out;
}

const contentOf = (o: Overlay): OverlayContent => ({ name: o.name, widgets: structuredClone(o.widgets), triggerAccess: structuredClone(o.triggerAccess) });

export async function loadOverlays(channelId: string, client: HttpClient = httpClient): Promise<void> {
  useOverlaysStore.setState({ listStatus: 'loading', listError: null });
  try {
    const { overlays } = await call(listOverlaysEndpoint, { params: { channelId } }, client);
    useOverlaysStore.setState({ listStatus: 'ready', overlays });
  } catch (err) {
    useOverlaysStore.setState({ listStatus: 'failed', overlays: [], listError: messageOf(err) });
  }
}

/** A new overlay; answers its id to open it in the editor, or null (the error is shown). */
export async function createOverlay(channelId: string, name: string, client: HttpClient = httpClient): Promise<string | null> {
  try {
    const overlay = await call(createOverlayEndpoint, { params: { channelId }, body: { name } }, client);
    useOverlaysStore.setState({ saved: overlay, draft: contentOf(overlay), editorStatus: 'ready', selectedWidgetId: null, error: null, fieldErrors: {} });
    return overlay.id;
  } catch (err) {
    useOverlaysStore.setState({ listError: messageOf(err) });
    return null;
  }
}

/** Whether the editor holds edits of this overlay not saved yet. */
function unsavedEditsOf(overlayId: string): boolean {
  const { saved, draft } = useOverlaysStore.getState();
  return saved?.id === overlayId && draft !== null && JSON.stringify(contentOf(saved)) !== JSON.stringify(draft);
}

export async function openOverlay(channelId: string, overlayId: string, client: HttpClient = httpClient): Promise<void> {
  // Opened again (the channel list read once more, a remount): edits in progress are kept, not replaced by the saved overlay.
  if (unsavedEditsOf(overlayId)) return;
  if (useOverlaysStore.getState().saved?.id !== overlayId)
    useOverlaysStore.setState({ editorStatus: 'loading', saved: null, draft: null, selectedWidgetId: null });
  try {
    const overlay = await call(getOverlayEndpoint, { params: { channelId, overlayId } }, client);
    // Edits made while it loaded win over what it read.
    if (unsavedEditsOf(overlayId)) return;
    useOverlaysStore.setState({ editorStatus: 'ready', saved: overlay, draft: contentOf(overlay), error: null, fieldErrors: {} });
  } catch (err) {
    useOverlaysStore.setState({ editorStatus: 'failed', error: messageOf(err) });
  }
}

function editDraft(change: (draft: OverlayContent) => OverlayContent): void {
  const { draft } = useOverlaysStore.getState();
  if (draft) useOverlaysStore.setState({ draft: change(draft) });
}

export function renameOverlay(name: string): void {
  editDraft((d) => ({ ...d, name }));
}

export function setTriggerAccess(access: TriggerAccess): void {
  editDraft((d) => ({ ...d, triggerAccess: access }));
}

export function addWidget(kind: WidgetKind): void {
  const widget = newWidget(kind, crypto.randomUUID());
  editDraft((d) => ({ ...d, widgets: [...d.widgets, widget] }));
  useOverlaysStore.setState({ selectedWidgetId: widget.id });
}

export function selectWidget(id: string | null): void {
  useOverlaysStore.setState({ selectedWidgetId: id });
}

/** Changes of one widget; a position or size is kept on the canvas. */
export function updateWidget(id: string, changes: Partial<Widget>): void {
  editDraft((d) => ({
    ...d,
    widgets: d.widgets.map((w) => {
      if (w.id !== id) return w;
      const next = { ...w, ...changes } as Widget;
      next.width = Math.round(Math.min(OVERLAY_CANVAS.width, Math.max(16, next.width)));
      next.height = Math.round(Math.min(OVERLAY_CANVAS.height, Math.max(16, next.height)));
      next.x = Math.round(Math.min(OVERLAY_CANVAS.width - next.width, Math.max(0, next.x)));
      next.y = Math.round(Math.min(OVERLAY_CANVAS.height - next.height, Math.max(0, next.y)));
      return next;
    }),
  }));
}

export function removeWidget(id: string): void {
  editDraft((d) => ({ ...d, widgets: d.widgets.filter((w) => w.id !== id) }));
  if (useOverlaysStore.getState().selectedWidgetId === id) useOverlaysStore.setState({ selectedWidgetId: null });
}

export async function saveOverlay(channelId: string, client: HttpClient = httpClient): Promise<boolean> {
  const { saved, draft } = useOverlaysStore.getState();
  if (!saved || !draft) return false;
  useOverlaysStore.setState({ saving: true, error: null, fieldErrors: {} });
  try {
    const overlay = await call(updateOverlayEndpoint, { params: { channelId, overlayId: saved.id }, body: draft }, client);
    useOverlaysStore.setState({ saving: false, saved: overlay, draft: contentOf(overlay) });
    showToast({ kind: 'success', title: 'Overlay saved' });
    return true;
  } catch (err) {
    const api = apiErrorOf(err);
    useOverlaysStore.setState({
      saving: false,
      error: api?.code === 'VALIDATION_FAILED' ? 'Some settings are not valid: see the marked widgets.' : messageOf(err),
      fieldErrors: api?.code === 'VALIDATION_FAILED' ? overlayFieldErrors(api.details) : {},
    });
    return false;
  }
}

export async function rotateOverlaySecret(channelId: string, client: HttpClient = httpClient): Promise<void> {
  const { saved } = useOverlaysStore.getState();
  if (!saved) return;
  try {
    const overlay = await call(rotateOverlaySecretEndpoint, { params: { channelId, overlayId: saved.id } }, client);
    useOverlaysStore.setState({ saved: { ...overlay } });
    showToast({ kind: 'success', title: 'New overlay address', description: 'The old address stopped working. Update it in OBS and in your studio scenes.' });
  } catch (err) {
    useOverlaysStore.setState({ error: messageOf(err) });
  }
}

export async function deleteOverlay(channelId: string, overlayId: string, client: HttpClient = httpClient): Promise<boolean> {
  try {
    await call(deleteOverlayEndpoint, { params: { channelId, overlayId } }, client);
    useOverlaysStore.setState((s) => ({
      overlays: s.overlays.filter((o) => o.id !== overlayId),
      saved: s.saved?.id === overlayId ? null : s.saved,
      draft: s.saved?.id === overlayId ? null : s.draft,
    }));
    showToast({ kind: 'success', title: 'Overlay deleted' });
    return true;
  } catch (err) {
    useOverlaysStore.setState({ error: messageOf(err), listError: messageOf(err) });
    return false;
  }
}

/**
 * Where the editor loads an uploaded picture of the saved overlay from: the overlay page's own
 * image path with its key, on this origin (the control UI's CSP allows its own images; the api's
 * PUBLIC_URL may be another origin). Null until a saved image widget names the upload: the server
 * shows only those.
 */
export function savedOverlayImageSrc(saved: Overlay, uploadId: string): string | null {
  if (!saved.widgets.some((w) => w.kind === 'image' && w.uploadId === uploadId)) return null;
  const page = new URL(saved.url);
  return `${page.pathname}/images/${encodeURIComponent(uploadId)}${page.search}`;
}

/**
 * Uploads a picture for an image widget through the uploads store; on success the widget shows it
 * (saved with the overlay). Returns the server's words when it is refused (type, size, storage).
 */
export async function uploadOverlayImage(channelId: string, widgetId: string, file: File, send: UploadSender = xhrSender): Promise<string | null> {
  const url = urlOf(uploadOverlayImageEndpoint, { params: { channelId }, query: { name: file.name.slice(0, 200) || 'picture' } });
  try {
    const answer = await send(url, file, () => undefined);
    if (answer.status !== 201) {
      const error = errorBodySchema.safeParse(answer.body);
      return error.success ? error.data.error.message : 'The upload did not work. Try again.';
    }
    const upload = uploadSchema.parse(answer.body);
    const { saved } = useOverlaysStore.getState();
    if (saved)
      useOverlaysStore.setState({
        saved: { ...saved, images: { ...saved.images, [upload.id]: { name: upload.name, width: upload.width, height: upload.height } } },
      });
    updateWidget(widgetId, { url: '', uploadId: upload.id } as Partial<Widget>);
    return null;
  } catch (err) {
    return messageOf(err);
  }
}
