import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';

/**
 * A secret the one-machine stack makes once and keeps in its data folder (mode 0600), so a second
 * start can still open what the first sealed: the AES key of stream keys and tokens, the key of the
 * local RTMP destination.
 */
export async function loadOrCreateSecret(file: string, make: () => string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const value = make();
  await writeFile(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  return value;
}

export const newAuthSecret = () => randomBytes(32).toString('hex');
export const newAesKey = () => randomBytes(32).toString('base64');
