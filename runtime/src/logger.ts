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

/**
 * Lines go to stdout synchronously. pino's default destination writes asynchronously and, at exit,
 * flushes what is left with sonic-boom's flushSync, which retries a failed write for ever: with the
 * reader gone (the one-machine stack killed with -9 while its processes log their shutdown) every
 * write is EPIPE, and the process hung in that loop until killed (stack-shutdown.test saw the media
 * worker's main thread asleep in it; a two-process reproduction hangs the same way, and exits at once
 * with this destination). Written synchronously, an EPIPE is seen on the write itself and pino stops
 * logging; nothing is left to flush at exit.
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino(
    {
      name,
      level,
      base: { pid: process.pid, service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactedPaths, censor: '[redacted]' },
    },
    pino.destination({ dest: 1, sync: true }),
  );
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
