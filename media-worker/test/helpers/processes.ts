// What a test reads of processes from /proc and the kernel's socket table, as an operator would
// with ps and ss: whether a process is alive, whose child it is, what a thread waits in, and which
// processes hold a TCP connection to a port.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { promisify } from 'node:util';

export function alive(pid: number): boolean {
  try {
    // A zombie is dead for this purpose: its sockets and threads are gone.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The pids whose parent is `ppid` now. */
export function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of stat, after the command name in parentheses (which may hold spaces).
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === ppid && fields[0] !== 'Z') out.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return out;
}

/** The read(2) system call's number (x86-64, arm64). */
const READ_SYSCALL = process.arch === 'arm64' ? 63 : 0;

/** Whether a thread of `pid` is blocked in read(2) on the file at `path` (its `syscall` in /proc). */
export function threadReads(pid: number, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((tid) => {
      try {
        const [nr, fd] = readFileSync(`/proc/${pid}/task/${tid}/syscall`, 'utf8').trim().split(' ');
        return Number(nr) === READ_SYSCALL && fd !== undefined && readlinkSync(`/proc/${pid}/fd/${Number.parseInt(fd, 16)}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** The pids that hold an established TCP connection to 127.0.0.1:`port` (`ss -tnp`). */
export async function connectedTo(port: number): Promise<number[]> {
  const { stdout } = await promisify(execFile)('ss', ['-Htnp', 'state', 'established', 'dst', `127.0.0.1:${port}`]);
  const pids = new Set<number>();
  for (const m of stdout.matchAll(/pid=(\d+)/g)) pids.add(Number(m[1]));
  return [...pids];
}

/** Milliseconds until `pid` is gone, polled every 10 ms, or undefined if it is still there after `limitMs`. */
export async function msUntilGone(pid: number, limitMs: number): Promise<number | undefined> {
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    if (!alive(pid)) return Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return alive(pid) ? undefined : Date.now() - start;
}
