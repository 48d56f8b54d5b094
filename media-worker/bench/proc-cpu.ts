import { readFile } from 'node:fs/promises';

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU time (user + system) a process has used so far, in seconds, from /proc. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
}

/** Cores each process used over the next `windowMs`. */
export async function coresOver(pids: readonly number[], windowMs: number): Promise<number[]> {
  const before = await Promise.all(pids.map(cpuSeconds));
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, windowMs));
  const seconds = (Date.now() - t0) / 1000;
  const after = await Promise.all(pids.map(cpuSeconds));
  return after.map((a, i) => (a - before[i]!) / seconds);
}

export async function loadAverage(): Promise<string> {
  return (await readFile('/proc/loadavg', 'utf8')).split(' ')[0] ?? '?';
}
