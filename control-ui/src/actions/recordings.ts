import { deleteRecordingEndpoint, listRecordingsEndpoint } from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { initialRecordingsState, useRecordingsStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/** The project's recordings, newest first; the page says why when they cannot be read. */
export async function loadRecordings(projectId: string, client: HttpClient = httpClient): Promise<void> {
  if (useRecordingsStore.getState().projectId !== projectId) useRecordingsStore.setState({ ...initialRecordingsState(), projectId, status: 'loading' });
  try {
    const { recordings } = await call(listRecordingsEndpoint, { params: { projectId } }, client);
    if (useRecordingsStore.getState().projectId !== projectId) return;
    useRecordingsStore.setState({ status: 'ready', recordings, error: null });
  } catch (err) {
    useRecordingsStore.setState({ status: 'failed', error: messageOf(err) });
  }
}

export async function deleteRecording(projectId: string, recordingId: string, client: HttpClient = httpClient): Promise<void> {
  try {
    await call(deleteRecordingEndpoint, { params: { projectId, recordingId } }, client);
    useRecordingsStore.setState((s) => ({ recordings: s.recordings.filter((r) => r.id !== recordingId) }));
    showToast({ kind: 'success', title: 'Recording deleted' });
  } catch (err) {
    showToast({ kind: 'error', title: 'The recording could not be deleted', description: messageOf(err) });
  }
}
