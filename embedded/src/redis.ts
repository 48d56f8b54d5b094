import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { Redis } from 'ioredis';
import type { RunningService } from './postgres.ts';
import { waitFor } from './ports.ts';

/**
 * The system `redis-server`, started by us with its files in `dir` and bound to loopback.
 * Redis holds only live state (queues, heartbeats, pub/sub), but its snapshot is kept in `dir`
 * so queued work survives a restart of the one-machine stack.
 */
export async function startRedisServer(dir: string, port: number, log: (line: string) => void = () => {}): Promise<RunningService> {
  await mkdir(dir, { recursive: true });
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '60 1', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'yes'],
    // Own process group, so a terminal Ctrl-C leaves Redis up until the processes using it stopped.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  child.stdout.on('data', (d: Buffer) => log(d.toString().trimEnd()));
  child.stderr.on('data', (d: Buffer) => log(d.toString().trimEnd()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.on('error', (err) => log(`redis-server failed to start: ${err.message}`));

  const url = `redis://127.0.0.1:${port}`;
  await waitFor('redis-server', async () => {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {}); // refused while the server boots: the loop simply tries again
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG' ? true : undefined;
    } finally {
      probe.disconnect();
    }
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
