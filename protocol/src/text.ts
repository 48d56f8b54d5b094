/**
 * The one rule for text OnAir accepts from a client, applied at every edge (HTTP params, query and
 * bodies, the sign-in routes, WebSocket messages) before any schema: a string must not hold a NUL
 * character (PostgreSQL cannot store one in text or JSON) or an unpaired UTF-16 surrogate (it is
 * not Unicode, and PostgreSQL's JSON refuses its escape). Such text is refused, not cleaned: a
 * silently altered name or URL would be worse than a clear error.
 */

/** Why a string cannot be accepted, or null when it can. */
export function unsafeTextReason(text: string): 'nul' | 'lone-surrogate' | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'lone-surrogate';
  return null;
}

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface UnsafeText {
  /** Where the string is, as keys from the root (an object key itself counts as a string). */
  path: string[];
  reason: 'nul' | 'lone-surrogate' | 'too-deep';
}

const MAX_DEPTH = 64;

/**
 * The first unsafe string in a parsed JSON value (keys included), or null. Nesting deeper than any
 * body of the api ever is counts as unsafe too, so a hostile body cannot make this walk (or a
 * schema after it) recurse without end.
 */
export function findUnsafeText(value: unknown, path: string[] = []): UnsafeText | null {
  if (typeof value === 'string') {
    const reason = unsafeTextReason(value);
    return reason ? { path, reason } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (path.length >= MAX_DEPTH) return { path, reason: 'too-deep' };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyReason = unsafeTextReason(key);
    if (keyReason) return { path: [...path, key], reason: keyReason };
    const found = findUnsafeText(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** The words a creator (or a developer calling the api) reads for unsafe text at `where`. */
export function unsafeTextMessage(where: string, found: UnsafeText): string {
  const at = [where, ...found.path].join('.');
  switch (found.reason) {
    case 'nul':
      return `The request ${at} contains a NUL character, which cannot be stored. Remove it and try again.`;
    case 'lone-surrogate':
      return `The request ${at} contains a broken character (an unpaired surrogate), which cannot be stored. Remove it and try again.`;
    case 'too-deep':
      return `The request ${at} is nested more than ${MAX_DEPTH} levels deep.`;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is a UUID in its usual spelling (any case): an id from a path is checked before it reaches a query or a key. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
