// The studio's copy of the scene document: the server's confirmed version, and what is shown (the
// pending edits replayed over it). Read by the studio's socket and by the scene edits.
import { applyAcceptedPatch, getSceneDocumentEndpoint, type ServerMessage } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { optimisticDocument } from '../model/optimistic-scene.ts';
import { useStudioStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/** An accepted patch from any studio (this one included): advance the confirmed document. */
export function receivePatch(message: Extract<ServerMessage, { type: 'scene.patched' }>, client: HttpClient = httpClient): void {
  const { confirmed } = useStudioStore.getState();
  if (!confirmed) return;
  const result = applyAcceptedPatch(confirmed, message);
  if (result.ok) {
    setConfirmed(result.document);
  } else if (result.reason !== 'already-applied') {
    // A version was missed (or published out of order): the whole document is the way back.
    void refetchDocument(client);
  }
}

/** Reads the document again; pending edits are replayed over it. */
export async function refetchDocument(client: HttpClient = httpClient): Promise<void> {
  const { projectId } = useStudioStore.getState();
  if (!projectId) return;
  try {
    const document = await call(getSceneDocumentEndpoint, { params: { projectId } }, client);
    const current = useStudioStore.getState();
    if (current.projectId !== projectId) return;
    if (!current.confirmed || document.version >= current.confirmed.version) setConfirmed(document);
  } catch (err) {
    showToast({ kind: 'error', title: 'The scene could not be reloaded', description: messageOf(err) });
  }
}

/**
 * Sets the server's document and recomputes what is shown. Pending edits that no longer apply
 * (another studio removed what they touched) are dropped with a word to the user.
 */
export function setConfirmed(confirmed: NonNullable<ReturnType<typeof useStudioStore.getState>['confirmed']>): void {
  const { pending, sending, selectedLayerId } = useStudioStore.getState();
  const { document, failed } = optimisticDocument(confirmed, pending);
  const dropped = new Set(failed.filter((f) => f.edit.id !== sending).map((f) => f.edit.id));
  for (const f of failed) {
    if (dropped.has(f.edit.id)) showToast({ kind: 'warning', title: 'Your change was undone', description: f.rejection.message });
  }
  const stillThere = selectedLayerId !== null && document.scenes.some((s) => s.layers.some((l) => l.id === selectedLayerId));
  useStudioStore.setState({
    confirmed,
    pending: pending.filter((p) => !dropped.has(p.id)),
    document,
    selectedLayerId: stillThere ? selectedLayerId : null,
  });
}
