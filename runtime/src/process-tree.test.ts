import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { descendantsOf, readProcessTable } from './process/process-table.ts';
import { ProcessTreesUsage, ProcessTreeUsage } from './process-tree.ts';

/** CPU ticks (1/100 s) the processes below `pid` have used, read from /proc as the kernel counts them. */
const ticksBelow = (pid: number): number =>
  descendantsOf(readProcessTable(), [pid])
    .filter((e) => e.pid !== pid)
    .reduce((sum, e) => sum + e.cpuTicks, 0);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ProcessTreeUsage', () => {
  it("counts a child's CPU and memory with this process's, and stops counting it once it exits", async () => {
    const usage = new ProcessTreeUsage();
    // A grandchild through a shell, spinning one core, while this process only waits.
    const child = spawn('sh', ['-c', 'node -e "const end = Date.now() + 60000; while (Date.now() < end) {}"'], { stdio: 'ignore', detached: true });
    try {
      await sleep(200);
      usage.sample();
      const before = ticksBelow(process.pid);
      const began = performance.now();
      await sleep(1500);
      const busy = usage.sample();
      const spun = (ticksBelow(process.pid) - before) / 100 / ((performance.now() - began) / 1000);
      expect(busy.processes).toBeGreaterThanOrEqual(3);
      // What the spinning child got depends on the machine's load (0.2 cores under a load of 25,
      // nearly 1 when idle); whatever it got is counted, with this process's own on top.
      expect(spun).toBeGreaterThan(0);
      expect(busy.cpuCores).toBeGreaterThanOrEqual(spun * 0.9);
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
    // This process alone, waiting: far from the core the spinning child could take.
    expect(after.cpuCores).toBeLessThan(0.3);
  });
});

describe('ProcessTreesUsage', () => {
  it('gives each tree its own CPU, from one pass over /proc, and no figure for a root it has not seen before', async () => {
    const usage = new ProcessTreesUsage();
    // A spinning grandchild under one shell; a sleeping one under another.
    const busy = spawn('sh', ['-c', 'node -e "const end = Date.now() + 60000; while (Date.now() < end) {}"'], { stdio: 'ignore', detached: true });
    const idle = spawn('sh', ['-c', 'sleep 60'], { stdio: 'ignore', detached: true });
    try {
      await sleep(200);
      // What the spinning tree got (it depends on the machine's load) is read inside the sampler's
      // interval, and divided by a time that contains it: a figure the sampler's can only exceed.
      const began = performance.now();
      expect(usage.sample([busy.pid!, idle.pid!]).size).toBe(0);
      const before = ticksBelow(busy.pid!);
      await sleep(1500);
      const spent = ticksBelow(busy.pid!) - before;
      const cores = usage.sample([busy.pid!, idle.pid!]);
      const spun = spent / 100 / ((performance.now() - began) / 1000);
      expect(spun).toBeGreaterThan(0);
      expect(cores.get(busy.pid!)).toBeGreaterThanOrEqual(spun);
      expect(cores.get(idle.pid!)).toBeLessThan(0.05);
      expect(cores.get(busy.pid!)).toBeGreaterThan(cores.get(idle.pid!)!);
    } finally {
      process.kill(-busy.pid!, 'SIGKILL');
      process.kill(-idle.pid!, 'SIGKILL');
    }
    await sleep(300);
    // A tree that is gone has no figure.
    expect(usage.sample([busy.pid!]).has(busy.pid!)).toBe(false);
  });
});
