import { descendantsOf, readProcessTable } from './process/process-table.ts';

/** Linux reports process CPU times in clock ticks of 1/100 s (USER_HZ) on every architecture we run on. */
const TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

/**
 * CPU and memory of this process together with every process below it: a media worker's work is
 * done in its pipeline processes, a render worker's in Chromium and Xvfb, so the process alone
 * would say an overloaded worker is idle. Each sample gives the cores used since the previous one.
 * Falls back to this process alone where there is no /proc.
 */
export class ProcessTreeUsage {
  private previous = new Map<number, number>();
  private previousAt = process.hrtime.bigint();
  private fallbackCpu = process.cpuUsage();

  constructor(private readonly root = process.pid) {
    this.previous = this.ticksByPid();
  }

  sample(): { cpuCores: number; rssBytes: number; processes: number } {
    const now = process.hrtime.bigint();
    const seconds = Number(now - this.previousAt) / 1e9;
    this.previousAt = now;
    const tree = this.tree();
    if (tree.size === 0) {
      const cpu = process.cpuUsage(this.fallbackCpu);
      this.fallbackCpu = process.cpuUsage();
      return { cpuCores: seconds > 0 ? (cpu.user + cpu.system) / 1e6 / seconds : 0, rssBytes: process.memoryUsage.rss(), processes: 1 };
    }
    let ticks = 0;
    let rssBytes = 0;
    const current = new Map<number, number>();
    for (const [pid, stat] of tree) {
      current.set(pid, stat.ticks);
      // A process born since the last sample spent all its time in this interval.
      ticks += stat.ticks - (this.previous.get(pid) ?? 0);
      rssBytes += stat.rssBytes;
    }
    this.previous = current;
    return { cpuCores: seconds > 0 ? Math.max(0, ticks) / TICKS_PER_SECOND / seconds : 0, rssBytes, processes: tree.size };
  }

  private ticksByPid(): Map<number, number> {
    return new Map([...this.tree()].map(([pid, stat]) => [pid, stat.ticks]));
  }

  /** This process and its descendants, from one pass over /proc. */
  private tree(): Map<number, { ticks: number; rssBytes: number }> {
    return new Map(descendantsOf(readProcessTable(), [this.root]).map((e) => [e.pid, { ticks: e.cpuTicks, rssBytes: e.rssPages * PAGE_BYTES }]));
  }
}

/**
 * CPU of several process trees (a media worker's pipeline processes, one per session) from one
 * pass over /proc per sample: each root's cores since the previous sample. A root seen for the
 * first time has no figure yet (everything it spent since its birth would land in one interval).
 */
export class ProcessTreesUsage {
  private previous = new Map<number, number>();
  private previousAt = process.hrtime.bigint();

  sample(roots: readonly number[]): Map<number, number> {
    const now = process.hrtime.bigint();
    const seconds = Number(now - this.previousAt) / 1e9;
    this.previousAt = now;
    const table = readProcessTable();
    const current = new Map<number, number>();
    const cores = new Map<number, number>();
    for (const root of roots) {
      const known = this.previous.has(root);
      let ticks = 0;
      for (const entry of descendantsOf(table, [root])) {
        current.set(entry.pid, entry.cpuTicks);
        ticks += entry.cpuTicks - (this.previous.get(entry.pid) ?? 0);
      }
      if (known && seconds > 0 && current.has(root)) cores.set(root, Math.max(0, ticks) / TICKS_PER_SECOND / seconds);
    }
    this.previous = current;
    return cores;
  }
}
