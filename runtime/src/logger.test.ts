import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { redactUrl, redactedPaths } from './logger.ts';

describe('redactUrl', () => {
  it('keeps the application and hides the stream key', () => {
    expect(redactUrl('rtmp://live.twitch.tv/app/live_123_secretkey')).toBe('rtmp://live.twitch.tv/app/[redacted]');
  });
  it('hides credentials and query strings', () => {
    expect(redactUrl('rtmps://user:pw@a.example:443/live/key?token=abc')).toBe('rtmps://[redacted]@a.example:443/live/[redacted]?[redacted]');
  });
  it('does not echo an unparseable URL', () => {
    expect(redactUrl('not a url with key123')).toBe('[unparseable url]');
  });
});

describe('logger redaction', () => {
  it('removes secrets at the top level and one level down', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const logger = pino({ redact: { paths: redactedPaths, censor: '[redacted]' } }, sink);
    logger.info({ streamKey: 'sk-live-1', destination: { accessToken: 'tok-2', name: 'Twitch' } }, 'hello');
    const out = lines.join('');
    expect(out).not.toContain('sk-live-1');
    expect(out).not.toContain('tok-2');
    expect(out).toContain('Twitch');
  });
});
