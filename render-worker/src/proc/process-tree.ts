import { readdir, readFile } from 'node:fs/promises';

const PAGE_SIZE = 4096;

/** The pid and all its descendants, read from /proc. */
export async function processTree(rootPid: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // The command name may contain spaces and parentheses; the fields after its closing ')' are fixed.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // The process ended while we looked.
    }
  }
  const out: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Resident memory of a process and its descendants, in bytes (shared pages are counted once per process). */
export async function treeRssBytes(rootPid: number): Promise<number> {
  let total = 0;
  for (const pid of await processTree(rootPid)) {
    try {
      const statm = await readFile(`/proc/${pid}/statm`, 'utf8');
      total += Number(statm.split(' ')[1] ?? 0) * PAGE_SIZE;
    } catch {
      // Gone.
    }
  }
  return total;
}

/** CPU time (user + system) of a process and its descendants, in seconds. */
export async function treeCpuSeconds(rootPid: number): Promise<number> {
  const ticks = 100; // USER_HZ on Linux
  let total = 0;
  for (const pid of await processTree(rootPid)) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / ticks;
    } catch {
      // Gone.
    }
  }
  return total;
}
