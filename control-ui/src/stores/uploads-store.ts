import { create } from 'zustand';
import type { Upload, UploadPurpose, UploadUsage } from '@onair/protocol';

/** A file on its way to the api: its progress as the browser reports it, or why it was refused. */
export interface UploadInProgress {
  key: string;
  name: string;
  purpose: UploadPurpose;
  sentBytes: number;
  totalBytes: number;
  state: 'sending' | 'checking' | 'failed';
  error: string | null;
}

export interface UploadsState {
  projectId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  uploads: Upload[];
  usage: UploadUsage | null;
  inProgress: UploadInProgress[];
}

export const initialUploadsState = (): UploadsState => ({ projectId: null, status: 'idle', uploads: [], usage: null, inProgress: [] });

export function createUploadsStore() {
  return create<UploadsState>()(() => initialUploadsState());
}
