import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where the bytes of uploads live. The api writes a finished, checked file in with `putFile` (it
 * was received and probed in a staging folder first, so a refused or aborted upload never touches
 * what is stored) and reads it back as a stream.
 */
export interface UploadStore {
  /** A private folder for files being received and checked; removed or moved into the store. */
  readonly stagingDir: string;
  /** Makes the folders the store needs (once, before the first upload). */
  prepare(): Promise<void>;
  /** Moves (or copies) a finished local file into the store under `key`. */
  putFile(key: string, localPath: string): Promise<void>;
  read(key: string): Promise<{ stream: Readable; sizeBytes: number }>;
  remove(key: string): Promise<void>;
}

/** Keys are made by the api (`<uploadId>.<ext>`); anything else is refused rather than joined into a path. */
const KEY = /^[0-9a-f-]{36}\.[a-z0-9]{2,4}$/;
function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not an upload key: ${key}`);
  return key;
}

/**
 * The one-machine store: files in one folder (`.data/uploads` by default). Media workers on the
 * same machine read the files in place from the same folder.
 */
export class DiskUploadStore implements UploadStore {
  readonly root: string;
  readonly stagingDir: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.stagingDir = join(this.root, '.staging');
  }

  async prepare(): Promise<void> {
    await mkdir(this.stagingDir, { recursive: true });
  }

  async putFile(key: string, localPath: string): Promise<void> {
    await rename(localPath, join(this.root, checkKey(key)));
  }

  async read(key: string): Promise<{ stream: Readable; sizeBytes: number }> {
    const path = join(this.root, checkKey(key));
    const { size } = await stat(path);
    return { stream: createReadStream(path), sizeBytes: size };
  }

  async remove(key: string): Promise<void> {
    await rm(join(this.root, checkKey(key)), { force: true });
  }
}
