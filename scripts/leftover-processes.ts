// Processes a test run started and did not stop (issue 42 item 3): what `./onair test` names at the
// end beside the files left in its temp folder. A process counts as the run's when it descends from
// the run, or when its command line or environment holds the run's temp folder: every process of the
// run inherits TMPDIR=<that folder>, so an orphan re-parented to init (a pipeline process whose
// worker was killed, an nginx, Xvfb or Chromium whose parent died) is still recognised.
import { readdir, readFile } from 'node:fs/promises';

export interface LeftoverProcess {
  pid: number;
  /** The command line, cut to one summary line. */
  command: string;
  why: 'descendant' | 'holds the run folder';
}

interface ProcInfo {
  pid: number;
  ppid: number;
  argv: string[];
  environ: string;
}

async function readProc(pid: number): Promise<ProcInfo | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (2nd field) may hold spaces and parentheses: fields resume after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has already exited: nothing runs, its parent has only not reaped it yet.
    if (fields[0] === 'Z') return undefined;
    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter((a) => a.length > 0);
    // Kernel threads have no command line.
    if (argv.length === 0) return undefined;
    const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
    return { pid, ppid: Number(fields[1]), argv, environ };
  } catch {
    return undefined; // gone while being read
  }
}

/**
 * Every living process started by the run `self` belongs to, or holding `runFolder` (when given);
 * `self` and the processes in `except` (taken before the run started anything: tsx's esbuild
 * service) excluded.
 */
export async function leftoverProcesses(
  runFolder: string | undefined,
  except: ReadonlySet<number> = new Set(),
  self = process.pid,
): Promise<LeftoverProcess[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const procs = (await Promise.all(pids.map(readProc))).filter((p): p is ProcInfo => p !== undefined);
  const children = new Map<number, ProcInfo[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const descendants = new Set<number>();
  const queue = [self];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      if (descendants.has(child.pid)) continue;
      descendants.add(child.pid);
      queue.push(child.pid);
    }
  }
  const holdsFolder = (p: ProcInfo) =>
    runFolder !== undefined && (p.argv.some((a) => a.includes(runFolder)) || p.environ.split('\0').some((v) => v.includes(runFolder)));
  return procs
    .filter((p) => p.pid !== self && !except.has(p.pid) && (descendants.has(p.pid) || holdsFolder(p)))
    .map((p) => {
      const command = p.argv.join(' ');
      return {
        pid: p.pid,
        command: command.length > 160 ? `${command.slice(0, 157)}...` : command,
        why: descendants.has(p.pid) ? 'descendant' : 'holds the run folder',
      };
    });
}
