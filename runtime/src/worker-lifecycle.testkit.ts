// Shared by the worker packages' lifecycle tests: start a real worker process, watch it register
// in the real Redis registry, stop it with SIGTERM, and check it deregistered and exited cleanly.
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { workerHeartbeatSchema, workerRegistryKeys, type WorkerHeartbeat, type WorkerKind } from '@onair/protocol';
import { TetheredProcess } from './process/tethered-process.ts';

// What the tests that kill processes need to show that nothing those processes started lives on.
export { killProcesses, waitForNoProcesses } from './process/processes.testkit.ts';
export { descendantsOf, describeProcesses, leftoverProcesses, readProcessTable, stillRunning, type ProcessEntry } from './process/process-table.ts';

export interface WorkerUnderTest {
  child: ChildProcess;
  id: string;
  output: string[];
  waitForRegistration(timeoutMs?: number): Promise<WorkerHeartbeat>;
  stop(): Promise<{ code: number | null; registeredAfterExit: boolean }>;
  /** Waits for the process to exit by itself (after a signal sent by the test). */
  waitForExit(): Promise<{ code: number | null; registeredAfterExit: boolean }>;
}

export function startWorkerProcess(kind: WorkerKind, entry: string, cwd: string, redisUrl: string): WorkerUnderTest {
  const id = `${kind}-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const output: string[] = [];
  // Tethered: a test file that dies (a crash, a timeout) takes the workers it started with it.
  const { child } = new TetheredProcess(process.execPath, ['--import', 'tsx', entry], {
    cwd,
    env: { ...process.env, REDIS_URL: redisUrl, WORKER_ID: id, METRICS_PORT: '0', LOG_LEVEL: 'info' },
    onLine: (line) => output.push(`${line}\n`),
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const redis = new Redis(redisUrl);
  const key = workerRegistryKeys.worker(kind, id);

  return {
    child,
    id,
    output,
    async waitForRegistration(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const raw = await redis.get(key);
        if (raw) return workerHeartbeatSchema.parse(JSON.parse(raw));
        if (child.exitCode !== null) throw new Error(`worker exited early (${child.exitCode}): ${output.join('')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`worker ${id} did not register within ${timeoutMs} ms: ${output.join('')}`);
    },
    async stop() {
      child.kill('SIGTERM');
      return this.waitForExit();
    },
    async waitForExit() {
      const code = await exited;
      const registeredAfterExit = (await redis.exists(key)) === 1;
      redis.disconnect();
      return { code, registeredAfterExit };
    },
  };
}

/** The lifecycle test every worker kind must pass, run from that worker's own test folder. */
export function describeWorkerLifecycle(kind: WorkerKind, workerRoot: string, redisUrl: () => string): void {
  describe(`${kind} worker process`, () => {
    it('registers with a heartbeat and deregisters cleanly on SIGTERM', async () => {
      const worker = startWorkerProcess(kind, 'src/main.ts', workerRoot, redisUrl());
      const first = await worker.waitForRegistration();
      expect(first).toMatchObject({ id: worker.id, kind, state: 'running', pid: worker.child.pid });
      expect(first.cores).toBeGreaterThan(0);
      // Every OnAir process runs on Node 24 LTS (./onair installs it into .tools/ and runs everything with it).
      expect(Number(first.node.split('.')[0])).toBe(24);
      // The record is refreshed: a later heartbeat carries a later timestamp.
      await new Promise((r) => setTimeout(r, 1500));
      const later = await worker.waitForRegistration();
      expect(Date.parse(later.sentAt)).toBeGreaterThan(Date.parse(first.sentAt));

      const { code, registeredAfterExit } = await worker.stop();
      expect(code).toBe(0);
      expect(registeredAfterExit).toBe(false);
      expect(worker.output.join('')).toContain('stopped cleanly');
    });
  });
}
