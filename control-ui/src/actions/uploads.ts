import {
  createUploadEndpoint,
  deleteUploadEndpoint,
  errorBodySchema,
  listUploadsEndpoint,
  uploadSchema,
  type Upload,
  type UploadPurpose,
} from '@onair/protocol';
import { call, urlOf } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { initialUploadsState, useUploadsStore, type UploadInProgress } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

/** The project's uploads and the owner's storage use; called when the media library opens. */
export async function loadUploads(projectId: string, client: HttpClient = httpClient): Promise<void> {
  if (useUploadsStore.getState().projectId !== projectId) useUploadsStore.setState({ ...initialUploadsState(), projectId, status: 'loading' });
  try {
    const list = await call(listUploadsEndpoint, { params: { projectId } }, client);
    if (useUploadsStore.getState().projectId !== projectId) return;
    useUploadsStore.setState({ status: 'ready', uploads: list.uploads, usage: list.usage });
  } catch (err) {
    useUploadsStore.setState({ status: 'failed' });
    showToast({ kind: 'error', title: 'Your files could not be loaded', description: messageOf(err) });
  }
}

function updateProgress(key: string, change: Partial<UploadInProgress>): void {
  useUploadsStore.setState((s) => ({ inProgress: s.inProgress.map((p) => (p.key === key ? { ...p, ...change } : p)) }));
}

export type UploadSender = (url: string, file: Blob, onProgress: (sent: number) => void) => Promise<{ status: number; body: unknown }>;

/**
 * XMLHttpRequest, not fetch: only it reports how much of a request body was sent, which the
 * progress bar shows. The file is the raw body; the api detects its type from the bytes.
 */
export const xhrSender: UploadSender = (url, file, onProgress) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        body = xhr.responseText;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error('The connection was lost during the upload. Try again.'));
    xhr.send(file);
  });

let uploadCounter = 0;

/**
 * Sends one file with its progress in the store; on success it joins the library (newest first).
 * A refusal (wrong type, too large, over the quota, not in the plan) stays on the row in the
 * server's words until dismissed.
 */
export async function uploadFile(projectId: string, file: File, purpose: UploadPurpose, send: UploadSender = xhrSender): Promise<Upload | null> {
  const key = `upload-${++uploadCounter}`;
  useUploadsStore.setState((s) => ({
    inProgress: [...s.inProgress, { key, name: file.name, purpose, sentBytes: 0, totalBytes: file.size, state: 'sending', error: null }],
  }));
  const url = urlOf(createUploadEndpoint, { params: { projectId }, query: { purpose, name: file.name.slice(0, 200) || 'file' } });
  try {
    const answer = await send(url, file, (sent) => updateProgress(key, { sentBytes: sent, state: sent >= file.size ? 'checking' : 'sending' }));
    if (answer.status !== 201) {
      const error = errorBodySchema.safeParse(answer.body);
      updateProgress(key, { state: 'failed', error: error.success ? error.data.error.message : 'The upload did not work. Try again.' });
      return null;
    }
    const upload = uploadSchema.parse(answer.body);
    useUploadsStore.setState((s) => ({
      inProgress: s.inProgress.filter((p) => p.key !== key),
      uploads: [upload, ...s.uploads.filter((u) => u.id !== upload.id)],
      usage: s.usage ? { ...s.usage, usedBytes: s.usage.usedBytes + upload.sizeBytes } : s.usage,
    }));
    return upload;
  } catch (err) {
    updateProgress(key, { state: 'failed', error: messageOf(err) });
    return null;
  }
}

export function dismissUpload(key: string): void {
  useUploadsStore.setState((s) => ({ inProgress: s.inProgress.filter((p) => p.key !== key) }));
}

export async function deleteUpload(projectId: string, uploadId: string, client: HttpClient = httpClient): Promise<boolean> {
  try {
    await call(deleteUploadEndpoint, { params: { projectId, uploadId } }, client);
    useUploadsStore.setState((s) => ({ uploads: s.uploads.filter((u) => u.id !== uploadId) }));
    await loadUploads(projectId, client);
    return true;
  } catch (err) {
    showToast({ kind: 'error', title: 'The file was not deleted', description: messageOf(err) });
    return false;
  }
}
