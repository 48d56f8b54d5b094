import { readdir, readFile } from 'node:fs/promises';

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

/** CPU time (user + system, seconds) of each thread of a process so far, summed by thread name. */
export async function threadCpuSeconds(pid: number): Promise<Map<string, number>> {
  const byName = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
  }
  return byName;
}

/** Cores per thread name of a process over the next `windowMs`, largest first. */
export async function threadCoresOver(pid: number, windowMs: number): Promise<[string, number][]> {
  const before = await threadCpuSeconds(pid);
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, windowMs));
  const seconds = (Date.now() - t0) / 1000;
  const after = await threadCpuSeconds(pid);
  return [...after].map(([name, s]): [string, number] => [name, (s - (before.get(name) ?? 0)) / seconds]).sort((a, b) => b[1] - a[1]);
}
