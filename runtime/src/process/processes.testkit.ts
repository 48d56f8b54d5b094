// For tests that kill a process and must show that nothing it started lives on.
import { readProcessTable, stillRunning, type ProcessEntry } from './process-table.ts';

/**
 * Polls `find` (what must be gone, read afresh each time) until it returns nothing or `timeoutMs`
 * passed; says how long that took and what was still there at the end.
 */
export async function waitForNoProcesses(find: () => ProcessEntry[], timeoutMs: number): Promise<{ ms: number; left: ProcessEntry[] }> {
  const started = performance.now();
  for (;;) {
    const left = find();
    const ms = Math.round(performance.now() - started);
    if (left.length === 0 || ms >= timeoutMs) return { ms, left };
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** SIGKILLs whatever of `entries` is still alive as the same process: a test's clean-up, even after it failed. */
export function killProcesses(entries: readonly ProcessEntry[]): void {
  for (const e of stillRunning(entries, readProcessTable())) {
    try {
      process.kill(e.pid, 'SIGKILL');
    } catch {
      // Ended meanwhile.
    }
  }
}
