import { OnAirError } from '@onair/protocol';

const TIMEOUT_MS = 30_000;

/** A failed platform call, kept apart from our own faults: 401 means the creator must authenticate again. */
export class PlatformCallError extends Error {
  override readonly name = 'PlatformCallError';
  constructor(
    readonly status: number,
    readonly platformMessage: string,
  ) {
    super(`platform answered ${status}: ${platformMessage}`);
  }

  toOnAirError(platform: string): OnAirError {
    if (this.status === 401) return new OnAirError('DESTINATION_AUTH_REQUIRED', `Your ${platform} account requires authentication.`);
    if (this.status >= 400 && this.status < 500) return new OnAirError('PLATFORM_REFUSED', `${platform} refused the request: ${this.platformMessage}`);
    return new OnAirError('PLATFORM_UNAVAILABLE', `${platform} did not answer. Try again in a moment.`);
  }
}

/** The message a platform puts in an error body (Helix `message`, Google `error.message`, Graph `error.message`, OAuth `error_description`). */
function messageOf(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: unknown; error_description?: unknown };
    if (typeof b.error_description === 'string') return b.error_description;
    if (typeof b.message === 'string') return b.message;
    if (b.error && typeof b.error === 'object' && typeof (b.error as { message?: unknown }).message === 'string')
      return (b.error as { message: string }).message;
    if (typeof b.error === 'string') return b.error;
  }
  return `HTTP ${status}`;
}

/**
 * One call to a platform API: a timeout, JSON in and out, and a PlatformCallError for any non-2xx.
 * Tokens travel only in headers or form bodies, never in a URL, so nothing that logs URLs can leak one.
 */
export async function platformCall<T = unknown>(
  url: string,
  init: { method?: string; token?: string; headers?: Record<string, string>; json?: unknown; form?: Record<string, string> } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new PlatformCallError(503, 'unreachable');
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!res.ok) throw new PlatformCallError(res.status, messageOf(parsed, res.status));
  return parsed as T;
}

/** Splits a full RTMP publish URL into the server part and the stream key (the last path segment). */
export function splitPublishUrl(full: string): { url: string; key: string } {
  const at = full.lastIndexOf('/');
  return { url: full.slice(0, at), key: full.slice(at + 1) };
}
