import {
  alertSettingsSchema,
  alertSounds,
  getAlertSettingsEndpoint,
  testAlertEndpoint,
  updateAlertSettingsEndpoint,
  type AlertEventType,
  type AlertSetting,
  type SceneDocument,
  type Upload,
} from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { initialAlertsState, useAlertsStore, useStudioStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { editScene } from './scene-edits.ts';
import { showToast } from './toasts.ts';
import { loadUploads, uploadFile, type UploadSender } from './uploads.ts';

function openProjectId(): string {
  const projectId = useStudioStore.getState().projectId;
  if (!projectId) throw new Error('no project open');
  return projectId;
}

/** Opens the alerts settings of the open project. */
export async function openAlerts(client: HttpClient = httpClient): Promise<void> {
  useAlertsStore.setState({ ...initialAlertsState(), open: true, status: 'loading' });
  try {
    const view = await call(getAlertSettingsEndpoint, { params: { projectId: openProjectId() } }, client);
    useAlertsStore.setState({ status: 'ready', saved: view.settings, draft: structuredClone(view.settings), overlayUrl: view.overlayUrl });
    // The project's uploaded sounds, to choose from.
    await loadUploads(openProjectId(), client);
  } catch (err) {
    useAlertsStore.setState({ status: 'error', error: messageOf(err) });
  }
}

/**
 * The Sound field: a built-in sound, or `upload:{id}`, one of the project's uploaded alert sounds.
 */
export function setAlertSound(type: AlertEventType, value: string): void {
  const uploadId = value.startsWith('upload:') ? value.slice('upload:'.length) : null;
  const { draft } = useAlertsStore.getState();
  if (!draft) return;
  const sound = uploadId ? 'upload' : (alertSounds.find((s) => s === value) ?? 'chime');
  useAlertsStore.setState({ draft: { ...draft, [type]: { ...draft[type], sound, soundUploadId: uploadId } }, error: null, notice: null });
}

/** The Sound field's value of a setting (see setAlertSound). */
export function alertSoundValue(setting: Pick<AlertSetting, 'sound' | 'soundUploadId'>): string {
  return setting.sound === 'upload' && setting.soundUploadId ? `upload:${setting.soundUploadId}` : setting.sound;
}

/** A sound of the creator's for the alerts, through the uploads module (its refusals show in the dialog). */
export async function uploadAlertSound(file: File, send?: UploadSender): Promise<Upload | null> {
  const projectId = openProjectId();
  const upload = await uploadFile(projectId, file, 'alert-sound', send);
  if (upload) useAlertsStore.setState({ notice: `${upload.name} is ready: choose it as the sound of an alert.`, error: null });
  return upload;
}

export function closeAlerts(): void {
  useAlertsStore.setState(initialAlertsState());
}

export function setAlertField<K extends keyof AlertSetting>(type: AlertEventType, field: K, value: AlertSetting[K]): void {
  const { draft } = useAlertsStore.getState();
  if (!draft) return;
  useAlertsStore.setState({ draft: { ...draft, [type]: { ...draft[type], [field]: value } }, error: null, notice: null });
}

/** Saves the dialog's settings; a message or picture the server would refuse is said before sending. */
export async function saveAlerts(client: HttpClient = httpClient): Promise<boolean> {
  const { draft } = useAlertsStore.getState();
  if (!draft) return false;
  const checked = alertSettingsSchema.safeParse(draft);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    useAlertsStore.setState({
      error: `${String(issue.path[0] ?? '')}: ${issue.path[1] === 'imageUrl' ? 'the picture must be an http(s) address' : issue.path[1] === 'message' ? 'the message must be 1 to 200 characters' : issue.message}`,
    });
    return false;
  }
  useAlertsStore.setState({ saving: true, error: null });
  try {
    const view = await call(updateAlertSettingsEndpoint, { params: { projectId: openProjectId() }, body: { settings: checked.data } }, client);
    useAlertsStore.setState({
      saving: false,
      saved: view.settings,
      draft: structuredClone(view.settings),
      overlayUrl: view.overlayUrl,
      notice: 'Alerts saved',
    });
    return true;
  } catch (err) {
    useAlertsStore.setState({ saving: false, error: messageOf(err) });
    return false;
  }
}

/** The test button: the type's saved alert plays in the program with made-up values. */
export async function testAlert(type: AlertEventType, client: HttpClient = httpClient): Promise<void> {
  try {
    await call(testAlertEndpoint, { params: { projectId: openProjectId() }, body: { type } }, client);
    useAlertsStore.setState({ notice: 'Test alert sent to the program' });
  } catch (err) {
    useAlertsStore.setState({ error: messageOf(err) });
  }
}

/** The alerts overlay's source in the scene document, when there is one. */
export function alertsSourceOf(doc: SceneDocument | null, overlayUrl: string | null): string | null {
  if (!doc || !overlayUrl) return null;
  const base = overlayUrl.split('?')[0];
  return doc.sources.find((s) => s.kind === 'webpage' && s.settings.config.url.split('?')[0] === base)?.id ?? null;
}

/**
 * Puts the alerts in the program: the overlay page as a browser source over the whole canvas, on
 * top of the active scene, kept loaded so an alert plays whichever scene is shown when it comes.
 */
export function addAlertsToScene(): boolean {
  const { overlayUrl } = useAlertsStore.getState();
  const doc = useStudioStore.getState().document;
  const sceneId = doc?.activeSceneId;
  if (!overlayUrl || !doc || !sceneId) return false;
  const existing = alertsSourceOf(doc, overlayUrl);
  const sourceId = existing ?? crypto.randomUUID();
  const stored = doc.sources.find((s) => s.id === existing);
  // A source saved before the address was signed (or with an older signature) gets today's address.
  const stale = stored?.kind === 'webpage' && stored.settings.config.url !== overlayUrl;
  const ok = editScene([
    ...(existing
      ? []
      : [
          {
            op: 'addSource' as const,
            source: {
              id: sourceId,
              kind: 'webpage' as const,
              name: 'Alerts',
              settings: { config: { url: overlayUrl, title: 'Alerts', canPreviewUrl: false, mode: 'keep-loaded' as const } },
            },
          },
        ]),
    ...(stale ? [{ op: 'updateSource' as const, sourceId, settings: { kind: 'webpage' as const, config: { url: overlayUrl } } }] : []),
    { op: 'addLayer', sceneId, layer: { id: crypto.randomUUID(), sourceId, x: 0, y: 0, width: 1280, height: 720 } },
  ]);
  if (ok) showToast({ kind: 'success', title: 'Alerts added to the scene' });
  return ok;
}
