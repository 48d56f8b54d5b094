import { beforeEach, describe, expect, it } from 'vitest';
import type { Upload } from '@onair/protocol';
import { initialUploadsState, useUploadsStore } from '../stores/index.ts';
import { dismissUpload, uploadFile, type UploadSender } from './uploads.ts';

const projectId = '00000000-0000-4000-8000-0000000000aa';
const stored: Upload = {
  id: '00000000-0000-4000-8000-0000000000bb',
  projectId,
  purpose: 'video',
  kind: 'video',
  mimeType: 'video/mp4',
  name: 'intro.mp4',
  sizeBytes: 1000,
  width: 1280,
  height: 720,
  durationSeconds: 4,
  hasAudio: true,
  createdAt: '2026-11-25T10:00:00.000Z',
};

/** A sender that reports progress at the points given, then answers; the test looks at the store in between. */
function sender(steps: number[], answer: { status: number; body: unknown }, seen: unknown[]): UploadSender {
  return async (url, _file, onProgress) => {
    seen.push(url);
    for (const sent of steps) {
      onProgress(sent);
      seen.push(structuredClone(useUploadsStore.getState().inProgress));
    }
    return answer;
  };
}

beforeEach(() => useUploadsStore.setState({ ...initialUploadsState(), projectId, status: 'ready', usage: { usedBytes: 0, quotaBytes: 10_000 } }));

describe('uploads', () => {
  it('shows the progress of a file, then lists it newest first with the storage used', async () => {
    const seen: unknown[] = [];
    const file = new File([new Uint8Array(1000)], 'intro.mp4');
    const result = await uploadFile(projectId, file, 'video', sender([250, 1000], { status: 201, body: stored }, seen));
    expect(result).toEqual(stored);
    expect(seen[0]).toBe(`/api/v1/projects/${projectId}/uploads?purpose=video&name=intro.mp4`);
    expect(seen[1]).toMatchObject([{ name: 'intro.mp4', sentBytes: 250, totalBytes: 1000, state: 'sending' }]);
    expect(seen[2]).toMatchObject([{ sentBytes: 1000, state: 'checking' }]);
    expect(useUploadsStore.getState()).toMatchObject({ inProgress: [], uploads: [stored], usage: { usedBytes: 1000 } });
  });

  it("keeps a refusal on the file's row in the server's words until dismissed", async () => {
    const refusal = { error: { code: 'UPLOAD_QUOTA_EXCEEDED', message: 'This file needs 1 GB but only 2 MB of your 5 GB storage is free.' } };
    const result = await uploadFile(projectId, new File(['x'], 'big.mp4'), 'video', sender([], { status: 413, body: refusal }, []));
    expect(result).toBeNull();
    const [row] = useUploadsStore.getState().inProgress;
    expect(row).toMatchObject({ state: 'failed', error: refusal.error.message });
    dismissUpload(row!.key);
    expect(useUploadsStore.getState().inProgress).toEqual([]);
    expect(useUploadsStore.getState().uploads).toEqual([]);
  });
});
