import { mkdir } from 'node:fs/promises';
import { Redis } from 'ioredis';
import { TetheredProcess } from '@onair/runtime';
import type { RunningService } from './postgres.ts';
import { waitFor } from './ports.ts';

/**
 * The system `redis-server`, started by us with its files in `dir` and bound to loopback.
 * Redis holds only live state (queues, heartbeats, pub/sub), but its snapshot is kept in `dir`
 * so queued work survives a restart of the one-machine stack.
 */
export async function startRedisServer(dir: string, port: number, log: (line: string) => void = () => {}): Promise<RunningService> {
  await mkdir(dir, { recursive: true });
  // Tethered with SIGTERM: a stack or test run killed with -9 takes Redis along, after it saved its snapshot.
  // Its own process group, so a terminal Ctrl-C leaves Redis up until the processes using it stopped.
  const child = new TetheredProcess(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '60 1', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'yes'],
    { parentDeathSignal: 'SIGTERM', onLine: log },
  );

  const url = `redis://127.0.0.1:${port}`;
  await waitFor('redis-server', async () => {
    if (!child.running) throw new Error(`redis-server exited: ${child.stderrTail.trim()}`);
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
      await child.stop({ graceMs: 10_000 });
    },
  };
}
