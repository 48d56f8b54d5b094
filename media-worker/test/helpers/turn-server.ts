import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, waitFor } from '@onair/embedded';

export interface RunningTurnServer {
  /** An ICE server entry as the api and the workers take it. */
  iceServer: { urls: string; username: string; credential: string };
  /** What the server logged: allocations and relayed peers show here. */
  log: string[];
  stop(): Promise<void>;
}

/**
 * The system coturn on loopback with one long-term user, the way a deployment's TURN server
 * authenticates (RFC 5766 over UDP). Loopback peers are allowed, as studio and worker share
 * this machine in tests.
 */
export async function startTurnServer(dir: string): Promise<RunningTurnServer> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const relayFrom = 20_000 + Math.floor(Math.random() * 20_000);
  const username = 'onair';
  const credential = randomBytes(12).toString('hex');
  const log: string[] = [];
  const child = spawn(
    'turnserver',
    [
      '-n',
      '--listening-ip=127.0.0.1',
      `--listening-port=${port}`,
      '--relay-ip=127.0.0.1',
      `--min-port=${relayFrom}`,
      `--max-port=${relayFrom + 200}`,
      '--lt-cred-mech',
      `--user=${username}:${credential}`,
      '--realm=onair.test',
      '--fingerprint',
      '--allow-loopback-peers',
      '--no-tls',
      '--no-dtls',
      '--no-cli',
      '--log-file=stdout',
      '--simple-log',
      `--pidfile=${join(dir, 'turnserver.pid')}`,
      `--userdb=${join(dir, 'turndb')}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (d: Buffer) => log.push(...d.toString().split('\n').filter(Boolean)));
  await waitFor('the TURN server to answer a STUN binding request', () => stunBinding(port), 10_000, 100);
  return {
    iceServer: { urls: `turn:127.0.0.1:${port}?transport=udp`, username, credential },
    log,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Sends one STUN Binding request (RFC 5389) and resolves true on a success response. */
function stunBinding(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const id = randomBytes(12);
    const request = Buffer.concat([Buffer.from([0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xa4, 0x42]), id]);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(ok ? true : undefined);
    };
    const timer = setTimeout(() => done(false), 300);
    socket.on('message', (m: Buffer) => done(m.readUInt16BE(0) === 0x0101 && m.subarray(8, 20).equals(id)));
    socket.on('error', () => done(false));
    socket.send(request, port, '127.0.0.1');
  });
}
