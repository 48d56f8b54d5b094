import type { Response } from 'express';
import type { Readable } from 'node:stream';

/**
 * Sends a stored file (an upload, a recording part, a page's picture) as the answer: 200 with its
 * length, never sniffed (`nosniff`), the caller's type and caching headers, the bytes piped from the
 * store. Resolves when the answer is done or the client went away (the store's stream is closed
 * either way); a read error of the store rejects, for the route's error handling.
 */
export async function sendStoredFile(res: Response, file: { stream: Readable; sizeBytes: number }, headers: Record<string, string>): Promise<void> {
  res.status(200).set({ ...headers, 'content-length': String(file.sizeBytes), 'x-content-type-options': 'nosniff' });
  await new Promise<void>((resolve, reject) => {
    file.stream.on('error', reject);
    res.on('close', () => {
      file.stream.destroy();
      resolve();
    });
    file.stream.pipe(res);
  });
}

/**
 * A picture the uploads store keeps as PNG, served on a public page's path (a creator site, an
 * overlay): exactly image/png, in a sandbox with nothing allowed, for same-origin use only.
 */
export function sendStoredPicture(res: Response, picture: { stream: Readable; sizeBytes: number }, headers: Record<string, string>): Promise<void> {
  return sendStoredFile(res, picture, {
    'content-type': 'image/png',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
    ...headers,
  });
}
