import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ProcessTreeUsage } from './process-tree.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ProcessTreeUsage', () => {
  it("counts a child's CPU and memory with this process's, and stops counting it once it exits", async () => {
    const usage = new ProcessTreeUsage();
    // A grandchild through a shell, spinning one core, while this process only waits.
    const child = spawn('sh', ['-c', 'node -e "const end = Date.now() + 60000; while (Date.now() < end) {}"'], { stdio: 'ignore', detached: true });
    try {
      await sleep(1500);
      const busy = usage.sample();
      expect(busy.processes).toBeGreaterThanOrEqual(3);
      // A spinning process gets well over a third of a core even on a loaded 2-core machine.
      expect(busy.cpuCores).toBeGreaterThan(0.3);
      expect(busy.rssBytes).toBeGreaterThan(process.memoryUsage.rss());
    } finally {
      // The shell and its spinning child together (their own process group).
      process.kill(-child.pid!, 'SIGKILL');
    }
    await sleep(300);
    usage.sample();
    await sleep(1000);
    const after = usage.sample();
    expect(after.processes).toBeLessThan(3);
    expect(after.cpuCores).toBeLessThan(0.3);
  });
});
