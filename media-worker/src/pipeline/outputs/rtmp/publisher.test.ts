/** The publisher against a real nginx-rtmp, a closed port and a TLS server whose certificate does not verify. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineErrorCatalogue } from '@onair/protocol';
import { freePort, startRtmpServer, type RunningRtmpServer } from '@onair/embedded';
import { parseTarget, RtmpPublisher, type PublisherFailure } from './publisher.ts';

const dir = mkdtempSync(join(tmpdir(), 'onair-publisher-'));
let server: RunningRtmpServer;

beforeAll(async () => {
  server = await startRtmpServer({ dir: join(dir, 'nginx'), acceptKeys: ['good-key'] });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function outcome(publisher: RtmpPublisher): Promise<'publishing' | PublisherFailure> {
  return new Promise((resolve) => {
    publisher.once('publishing', () => resolve('publishing'));
    publisher.once('failed', resolve);
    publisher.start();
  });
}

describe('RtmpPublisher', () => {
  it('splits a destination URL as publishers do, keeping the host as written in the tcUrl', () => {
    expect(parseTarget('rtmp://live.example.test/app', 'key?x=1')).toEqual({
      secure: false,
      host: 'live.example.test',
      port: 1935,
      app: 'app',
      stream: 'key?x=1',
      tcUrl: 'rtmp://live.example.test/app',
    });
    expect(parseTarget('rtmps://edge.example.test:444/rtmp/sub/', 'k')).toMatchObject({
      secure: true,
      port: 444,
      app: 'rtmp/sub',
      tcUrl: 'rtmps://edge.example.test:444/rtmp/sub',
    });
    expect(parseTarget('rtmp://h/live/streamname', undefined)).toMatchObject({ app: 'live', stream: 'streamname' });
    expect(() => parseTarget('http://h/live', 'k')).toThrow(/not an RTMP URL/);
  });

  it('publishes to a server that takes the key, and is told no by one that does not', async () => {
    const url = `rtmp://127.0.0.1:${server.port}/live`;
    const good = new RtmpPublisher({ url, key: 'good-key', address: '127.0.0.1' });
    expect(await outcome(good)).toBe('publishing');
    expect(good.streamId).toBeGreaterThan(0);
    expect(good.bytesSent).toBeGreaterThan(1537);
    good.close();
    const bad = new RtmpPublisher({ url, key: 'other-key', address: '127.0.0.1' });
    expect(await outcome(bad)).toMatchObject({ code: 'DESTINATION_REFUSED' });
  });

  it('says an address in use is in use (nginx-rtmp: BadName, "Already publishing"), whatever set the key', async () => {
    const url = `rtmp://127.0.0.1:${server.port}/live`;
    const first = new RtmpPublisher({ url, key: 'good-key', address: '127.0.0.1', keySetByOnAir: true });
    expect(await outcome(first)).toBe('publishing');
    const second = new RtmpPublisher({ url, key: 'good-key', address: '127.0.0.1', keySetByOnAir: true });
    const failure = await outcome(second);
    expect(failure).toMatchObject({ code: 'DESTINATION_IN_USE', detail: 'the server said NetStream.Publish.BadName' });
    expect(pipelineErrorCatalogue.DESTINATION_IN_USE.message).toBe('Another stream is already live on this address.');
    const third = new RtmpPublisher({ url, key: 'good-key', address: '127.0.0.1' });
    expect(await outcome(third)).toMatchObject({ code: 'DESTINATION_IN_USE' });
    first.close();
  });

  it('does not ask the creator to check a key OnAir set when the server refuses it', async () => {
    const url = `rtmp://127.0.0.1:${server.port}/live`;
    const refused = new RtmpPublisher({ url, key: 'unknown-name', address: '127.0.0.1', keySetByOnAir: true });
    expect(await outcome(refused)).toMatchObject({ code: 'DESTINATION_STREAM_REFUSED' });
    expect(pipelineErrorCatalogue.DESTINATION_STREAM_REFUSED.message).not.toMatch(/stream key/i);
    // A key the creator typed (Custom RTMP): they are the one who can check it.
    expect(pipelineErrorCatalogue.DESTINATION_REFUSED.message).toMatch(/Check the stream key/);
  });

  it('calls a closed port unreachable', async () => {
    const port = await freePort();
    const publisher = new RtmpPublisher({ url: `rtmp://127.0.0.1:${port}/live`, key: 'k', address: '127.0.0.1' });
    expect(await outcome(publisher)).toMatchObject({ code: 'DESTINATION_UNREACHABLE' });
  });

  it('calls a server that accepts TCP and hangs up a refusal', async () => {
    const hangUp = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    const { port } = hangUp.address() as { port: number };
    const publisher = new RtmpPublisher({ url: `rtmp://127.0.0.1:${port}/live`, key: 'k', address: '127.0.0.1' });
    expect(await outcome(publisher)).toMatchObject({ code: 'DESTINATION_REFUSED' });
    hangUp.close();
  });

  it('refuses an RTMPS server whose certificate does not verify for the name', async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=rtmps.example.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const tls = createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (socket) => socket.end());
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const { port } = tls.address() as { port: number };
    const publisher = new RtmpPublisher({ url: `rtmps://rtmps.example.test:${port}/live`, key: 'k', address: '127.0.0.1' });
    expect(await outcome(publisher)).toMatchObject({ code: 'DESTINATION_TLS_FAILED' });
    tls.close();
  });
});
