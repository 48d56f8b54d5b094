import { readdirSync, readFileSync } from 'node:fs';

/** One process as /proc shows it. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Process group: a program started in a group of its own takes what it forked along in it. */
  pgid: number;
  /** The state letter of /proc/<pid>/stat (R, S, D, T, Z…). */
  state: string;
  /** Start time since boot in clock ticks: with the pid, it tells a process from a later one that reused its pid. */
  startTicks: number;
  /** CPU time (user + system) in clock ticks. */
  cpuTicks: number;
  rssPages: number;
  /** The command line; empty for kernel threads and for processes that are exiting. */
  argv: string[];
}

function readEntry(pid: number): ProcessEntry | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    let argv: string[] = [];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
    } catch {
      // Exiting between the two reads: its stat is enough.
    }
    return {
      pid,
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      state: fields[0] ?? '?',
      cpuTicks: Number(fields[11]) + Number(fields[12]),
      startTicks: Number(fields[19]),
      rssPages: Number(fields[21]),
      argv,
    };
  } catch {
    return undefined; // gone between the listing and the read
  }
}

function environmentOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return []; // gone, or another user's
  }
}

/** Every process of the machine (of this pid namespace), from one pass over /proc; empty where there is no /proc. */
export function readProcessTable(): ProcessEntry[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
  return pids.map(readEntry).filter((e): e is ProcessEntry => e !== undefined);
}

/** The roots that are in the table and every process below them. */
export function descendantsOf(table: readonly ProcessEntry[], roots: readonly number[]): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
  const out = table.filter((e) => roots.includes(e.pid));
  // /proc is not read atomically: a pid reused during the pass must not make the walk go round.
  const seen = new Set(out.map((e) => e.pid));
  for (let i = 0; i < out.length; i += 1) {
    for (const child of children.get(out[i]!.pid) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      out.push(child);
    }
  }
  return out;
}

export interface LeftoverQuery {
  /** Processes below these pids (a test run's own pid, a worker's). */
  descendantsOf?: readonly number[];
  /** Processes whose command line names one of these texts (a data folder, a temp folder prefix, a port). */
  mentioning?: readonly string[];
  /** Processes of these groups (a program started in a group of its own, and what it forked). */
  groups?: readonly number[];
  /**
   * Processes whose environment holds this `NAME=value`: a marker a test run puts in its own
   * environment is inherited by everything it starts, so it finds orphans too (re-parented, they
   * are no one's descendants any more), unless a program was given an environment of its own.
   */
  environment?: string;
  /** Processes never to count (the caller itself, which walks /proc from inside the tree it asks about). */
  except?: readonly number[];
}

/**
 * The living processes that match any part of the query. A process killed but not yet reaped (a
 * zombie) holds no socket, file or memory any more and does not count; nor does this process.
 * Used by tests to prove that nothing they started outlived them, and by the test summary to name
 * what did.
 */
export function leftoverProcesses(query: LeftoverQuery, table: readonly ProcessEntry[] = readProcessTable()): ProcessEntry[] {
  const except = new Set([process.pid, ...(query.except ?? [])]);
  const found = new Map<number, ProcessEntry>();
  for (const e of descendantsOf(table, query.descendantsOf ?? [])) found.set(e.pid, e);
  for (const e of table) {
    if (query.groups?.includes(e.pgid)) found.set(e.pid, e);
    if (query.mentioning?.some((text) => e.argv.some((arg) => arg.includes(text)))) found.set(e.pid, e);
    if (query.environment && !found.has(e.pid) && environmentOf(e.pid).includes(query.environment)) found.set(e.pid, e);
  }
  return [...found.values()].filter((e) => e.state !== 'Z' && !except.has(e.pid)).sort((a, b) => a.pid - b.pid);
}

/** Those of `entries` (an earlier snapshot) still alive as the same process: same pid, same start, not a zombie. */
export function stillRunning(entries: readonly ProcessEntry[], table: readonly ProcessEntry[] = readProcessTable()): ProcessEntry[] {
  const now = new Map(table.map((e) => [e.pid, e]));
  return entries.filter((e) => {
    const current = now.get(e.pid);
    return current !== undefined && current.startTicks === e.startTicks && current.state !== 'Z';
  });
}

/** `pid command args…` of each, one per line, for a test's failure message or a summary. */
export function describeProcesses(entries: readonly ProcessEntry[]): string {
  return entries.map((e) => `${e.pid} ${e.argv.join(' ').slice(0, 300)}`).join('\n');
}
