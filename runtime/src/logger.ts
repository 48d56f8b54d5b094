import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Paths that may carry a secret anywhere in a log object. pino removes them before serialising,
 * so no call site has to remember. Stream URLs are also passed through `redactUrl` where they are
 * built, because an RTMP URL embeds its key in the path.
 */
export const redactedPaths = [
  'password',
  'token',
  'accessToken',
  'refreshToken',
  'idToken',
  'streamKey',
  'secret',
  'apiKey',
  '*.password',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.idToken',
  '*.streamKey',
  '*.secret',
  '*.apiKey',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name,
    level,
    base: { pid: process.pid, service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: redactedPaths, censor: '[redacted]' },
  });
}

/**
 * Removes what identifies a stream from a URL: credentials, query string, and every path segment
 * after the application name (`rtmp://host/app/KEY` → `rtmp://host/app/[redacted]`).
 */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '[unparseable url]';
  }
  const segments = url.pathname.split('/').filter(Boolean);
  const kept = segments.length > 1 ? [segments[0], '[redacted]'] : segments;
  const auth = url.username || url.password ? '[redacted]@' : '';
  return `${url.protocol}//${auth}${url.host}/${kept.join('/')}${url.search ? '?[redacted]' : ''}`;
}
