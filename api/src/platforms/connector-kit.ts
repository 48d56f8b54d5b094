// What every platform connector (chat and events) does the same way: clean the text a platform
// sends, keep only http(s) images, wait and back off.
import { CHAT_PLATFORM_TEXT_MAX } from '@onair/protocol';
import type { Logger } from '@onair/runtime';

/**
 * Text from a platform as the panel may show it: control characters out, cut to
 * CHAT_PLATFORM_TEXT_MAX (a 10 000-character message is kept short, and says so in the log).
 */
export function cleanPlatformText(text: string, logger: Logger, where: Record<string, unknown>): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  let clean = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
  if (clean.length > CHAT_PLATFORM_TEXT_MAX) {
    logger.info({ ...where, length: clean.length, kept: CHAT_PLATFORM_TEXT_MAX }, 'platform chat message cut to the longest kept');
    clean = `${Array.from(clean).slice(0, CHAT_PLATFORM_TEXT_MAX).join('')}…`;
  }
  return clean;
}

/** A platform's avatar or emote address, kept only when it is http(s). */
export function safeImageUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > 2000) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** Waits, or less when stopped (the signal aborts). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/** Doubles a retry delay from 1 s up to `max` (500s and 429s are retried with backoff). */
export function nextBackoff(previous: number, max: number): number {
  return Math.min(max, previous === 0 ? Math.min(1000, max) : previous * 2);
}
