import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { GAME_KEY_MAX, KEY_IMPORT_MAX, keyPlatformSchema, OnAirError, type KeyPlatform } from '@onair/protocol';

export interface ImportedKey {
  key: string;
  platform: KeyPlatform;
  digest: string;
}

/** The digest that keeps a pool free of duplicates without reading the sealed keys. */
export function gameKeyDigest(campaignId: string, key: string): string {
  return createHash('sha256').update(`${campaignId}\n${key}`).digest('hex');
}

/** A cell a spreadsheet would run as a formula (OWASP CSV injection): refused, never stored. */
export const FORMULA_START = /^[=+\-@\t\r]/;

/** Reads an administrator's CSV (BOM, CRLF, quotes tolerated); the header row first. */
export function readCsv(csv: string): string[][] {
  try {
    return parse(csv, { bom: true, skip_empty_lines: true, trim: true, relax_quotes: true, relax_column_count: false }) as string[][];
  } catch (err) {
    throw new OnAirError('VALIDATION_FAILED', `The file is not valid CSV: ${(err as Error).message}`);
  }
}

/** All or nothing: the problems found, by line, in one refusal (the first ten shown). */
export function refuseProblems(problems: string[]): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 10);
  const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
  throw new OnAirError('VALIDATION_FAILED', `Nothing was imported: ${shown.join('; ')}${more}.`, { problems });
}
const KEY_SHAPE = /^[A-Za-z0-9][A-Za-z0-9\-_.]*$/;

/**
 * Reads a key pool CSV (header `key,platform`; a file of one column takes the campaign's only
 * platform). All or nothing: every problem is listed with its line, and nothing is imported while
 * one remains (duplicates in the file, keys that look like formulas, unknown platforms).
 */
export function parseKeyPool(campaignId: string, csv: string, campaignPlatforms: readonly KeyPlatform[]): ImportedKey[] {
  const rows = readCsv(csv);
  const header = rows[0]?.map((h) => h.toLowerCase());
  if (!header || header[0] !== 'key' || (header.length > 1 && header[1] !== 'platform') || header.length > 2) {
    throw new OnAirError('VALIDATION_FAILED', 'The first line must be the header "key,platform" (or "key" when the campaign has one platform).');
  }
  const body = rows.slice(1);
  if (body.length === 0) throw new OnAirError('VALIDATION_FAILED', 'The file has no keys below its header.');
  if (body.length > KEY_IMPORT_MAX) throw new OnAirError('VALIDATION_FAILED', `Import at most ${KEY_IMPORT_MAX} keys at once (this file has ${body.length}).`);
  if (header.length === 1 && campaignPlatforms.length !== 1)
    throw new OnAirError('VALIDATION_FAILED', 'This campaign has several platforms: add a platform column.');

  const problems: string[] = [];
  const seen = new Map<string, number>();
  const keys: ImportedKey[] = [];
  body.forEach((row, index) => {
    const line = index + 2;
    const key = row[0] ?? '';
    const platformCell = header.length === 1 ? campaignPlatforms[0]! : (row[1] ?? '');
    if (FORMULA_START.test(key) || FORMULA_START.test(platformCell)) {
      problems.push(`line ${line}: a cell starts with = + - @ or a tab, as a spreadsheet formula would`);
      return;
    }
    if (!key || key.length > GAME_KEY_MAX || !KEY_SHAPE.test(key)) {
      problems.push(`line ${line}: a key is 1 to ${GAME_KEY_MAX} letters, digits, dashes, dots or underscores`);
      return;
    }
    const platform = keyPlatformSchema.safeParse(platformCell);
    if (!platform.success || !campaignPlatforms.includes(platform.data)) {
      problems.push(`line ${line}: the platform must be one of the campaign's (${campaignPlatforms.join(', ')})`);
      return;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push(`line ${line}: the same key as line ${first}`);
      return;
    }
    seen.set(key, line);
    keys.push({ key, platform: platform.data, digest: gameKeyDigest(campaignId, key) });
  });
  refuseProblems(problems);
  return keys;
}
