// A real redis-server for runtime's own tests (runtime sits under @onair/embedded, whose test
// services the other packages use, so it starts its own): on a free port, ready when it answers.
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { TetheredProcess } from './process/tethered-process.ts';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts redis-server on `port` (no persistence) and returns once it answers PING; the caller stops it. */
export async function startRedisServer(port: number): Promise<TetheredProcess> {
  const proc = new TetheredProcess('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no']);
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    for (;;) {
      try {
        await probe.connect();
        if ((await probe.ping()) === 'PONG') return proc;
      } catch {
        if (!proc.running) throw new Error(`redis-server exited: ${proc.stderrTail}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    probe.disconnect();
  }
}
