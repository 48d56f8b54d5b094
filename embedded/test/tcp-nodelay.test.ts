// The preload that gives nginx-rtmp's player connections TCP_NODELAY (native/tcp-nodelay.c): it
// sets the option on accepted sockets, and the embedded RTMP server runs with it loaded.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startRtmpServer, type RunningRtmpServer } from '../src/rtmp-server.ts';
import { tcpNoDelayPreload } from '../src/tcp-nodelay.ts';

const execFileAsync = promisify(execFile);

/** A TCP server in another process accepts one connection from itself and prints its TCP_NODELAY. */
const ACCEPT_AND_REPORT = `
import socket
server = socket.socket(); server.bind(('127.0.0.1', 0)); server.listen(1)
client = socket.create_connection(server.getsockname())
accepted, _ = server.accept()
print(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
`;

async function acceptedNoDelay(preload: string | undefined): Promise<number> {
  const env = { ...process.env, LD_PRELOAD: preload ?? '' };
  const { stdout } = await execFileAsync('python3', ['-c', ACCEPT_AND_REPORT], { env, timeout: 20_000 });
  return Number(stdout.trim());
}

describe('TCP_NODELAY for the embedded RTMP server', () => {
  let dir: string | undefined;
  let server: RunningRtmpServer | undefined;

  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('turns Nagle off on every accepted connection of a process it is preloaded into', async () => {
    const preload = await tcpNoDelayPreload();
    expect(await acceptedNoDelay(undefined)).toBe(0);
    expect(await acceptedNoDelay(preload)).not.toBe(0);
  });

  it('is loaded into the nginx of the embedded RTMP server', async () => {
    dir = await mkdtemp(join(tmpdir(), 'onair-rtmp-nodelay-'));
    server = await startRtmpServer({ dir });
    const maps = await readFile(`/proc/${server.pid}/maps`, 'utf8');
    expect(maps).toContain(await tcpNoDelayPreload());
  });
});
