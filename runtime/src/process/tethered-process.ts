import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * How every OnAir process starts a program that must not outlive it (ffmpeg relays, Xvfb,
 * PulseAudio, gst-launch, Chromium, nginx, redis-server, PostgreSQL, the one-machine stack's own
 * Node processes): a process killed with -9 runs no clean-up code, and what it started would
 * otherwise go on streaming, pulling feeds and holding ports, re-parented to init.
 *
 * The program is started through `setpriv --pdeathsig` (util-linux, part of every Debian): the
 * kernel itself sends the program a signal the moment this process dies, however it dies. Chosen
 * over the `sh` "lifeline" the render worker used before (a shell holding a pipe from this process
 * that kills the program when the pipe closes). Speed does not decide between them: with the
 * parent SIGKILLed, the program is gone a few ms later either way (bench/tether.ts: median 5.0-5.6
 * vs 6.0-6.3 ms on a quiet machine, 9-20 vs 18-38 ms on a loaded one), mostly the time the kernel
 * takes to tear the Node parent down. What decides is what else each costs: the lifeline adds two
 * shells per program and puts one between this process and the program (its pid is the shell's,
 * a signal or an exit status goes through the shell), and a shell must be scheduled to do the
 * killing; pdeathsig adds no process, the pid is the program's, and nothing has to run for it to
 * work. Its limits, none of which bites here: it reaches the program, not what the program forks
 * (PostgreSQL's backends watch the postmaster, Chromium's zygotes and renderers their browser, and
 * both exit when it is gone), and it follows the thread that spawned (OnAir spawns from the main
 * thread only).
 *
 * One gap remains with pdeathsig alone: if this process dies after the fork but before setpriv has
 * set the signal, the program would start orphaned. So a one-line `sh` between them checks that
 * its parent is still this process and then `exec`s the program in its own place (no process is
 * added, the pid stays the program's).
 *
 * The program leads a process group of its own, so a terminal's Ctrl-C reaches only its parent
 * (which stops things in its own order) and `stop` takes along anything the program forked.
 */
const STILL_OUR_CHILD = 'test "$PPID" = "$1" || exit 70; shift; exec "$@"';

/** The argument list of `setpriv` that runs `command args` tethered to this process. */
function tetheredArgs(command: string, args: readonly string[], parentDeathSignal: NodeJS.Signals): string[] {
  return ['--pdeathsig', parentDeathSignal.replace(/^SIG/, ''), '--', 'sh', '-c', STILL_OUR_CHILD, 'tether', String(process.pid), command, ...args];
}

const shellQuoted = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * For a program that a library starts itself from an executable path (puppeteer and Chromium):
 * writes at `path` a launcher that starts `command` tethered to this process with the arguments
 * the library passes. Only this process may run it (its pid is written in it).
 */
export async function writeTetheredLauncher(path: string, command: string, parentDeathSignal: NodeJS.Signals = 'SIGKILL'): Promise<string> {
  const line = ['exec', 'setpriv', ...tetheredArgs(command, [], parentDeathSignal)].map(shellQuoted).join(' ');
  await writeFile(path, `#!/bin/sh\n${line} "$@"\n`, { mode: 0o755 });
  return path;
}

export interface TetheredProcessOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as this user and group (PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
  /**
   * What the program gets when this process dies. SIGKILL unless the program must save state
   * first (a store): then the signal of its own quick clean shutdown.
   */
  parentDeathSignal?: NodeJS.Signals;
  /** Extra pipes after stdin/stdout/stderr (fd 3…), e.g. Xvfb's -displayfd. */
  extraPipes?: number;
  /** A Node program: open the IPC channel of `fork` (JSON messages through `child.send` and 'message'). */
  ipc?: boolean;
  /** How many characters of stderr to keep for error reports. */
  stderrTail?: number;
  /** Each line the program writes on stdout or stderr; without it, stdout is read and dropped. */
  onLine?: (line: string) => void;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class TetheredProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<ProcessExit>;
  private tail = '';
  private exitInfo: ProcessExit | undefined;

  constructor(
    readonly command: string,
    readonly args: readonly string[],
    options: TetheredProcessOptions = {},
  ) {
    const stdio: StdioOptions = [
      'ignore',
      'pipe',
      'pipe',
      ...new Array<'pipe'>(options.extraPipes ?? 0).fill('pipe'),
      ...(options.ipc ? ['ipc' as const] : []),
    ];
    this.child = spawn('setpriv', tetheredArgs(command, args, options.parentDeathSignal ?? 'SIGKILL'), {
      env: options.env ?? process.env,
      cwd: options.cwd,
      uid: options.uid,
      gid: options.gid,
      stdio,
      serialization: 'json',
      detached: true,
    });
    const keep = options.stderrTail ?? 4000;
    this.child.stderr?.on('data', (d: Buffer) => {
      this.tail = (this.tail + d.toString()).slice(-keep);
    });
    if (options.onLine) {
      for (const stream of [this.child.stdout, this.child.stderr]) if (stream) createInterface({ input: stream }).on('line', options.onLine);
    } else {
      this.child.stdout?.resume();
    }
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
      this.child.on('error', () => {
        this.exitInfo = { code: null, signal: null };
        resolve(this.exitInfo);
      });
    });
  }

  /** The program's own pid (setpriv and the shell `exec` into it). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exitInfo === undefined;
  }

  get stderrTail(): string {
    return this.tail;
  }

  /** The stream of an extra pipe (fd 3 is index 3). */
  pipe(fd: number): Readable | undefined {
    return (this.child.stdio[fd] ?? undefined) as Readable | undefined;
  }

  /** A signal to the program alone (SIGSTOP to play a frozen server, SIGKILL to play a crash). */
  signal(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /**
   * `signal` (SIGTERM unless told) to the program's whole group, or to the program alone when it
   * stops its own children in its own order (a worker draining its sessions); SIGKILL to the group
   * after `graceMs`. Resolves when the program has exited, saying whether it had to be killed;
   * whatever it left in its group is killed then too.
   */
  async stop(options: { graceMs?: number; signal?: NodeJS.Signals; programOnly?: boolean } = {}): Promise<ProcessExit & { forced: boolean }> {
    if (!this.running) {
      this.killGroup();
      return { ...(await this.exited), forced: false };
    }
    let forced = false;
    const signal = options.signal ?? 'SIGTERM';
    if (options.programOnly) {
      this.signal('SIGCONT'); // a program frozen by a test must be able to act on the signal
      this.signal(signal);
    } else {
      this.signalGroup('SIGCONT');
      this.signalGroup(signal);
    }
    const timer = setTimeout(() => {
      forced = true;
      this.killGroup();
    }, options.graceMs ?? 2000);
    const exit = await this.exited;
    clearTimeout(timer);
    this.killGroup();
    return { ...exit, forced };
  }

  /** SIGKILL to the program's group: the program and whatever it forked and left there. */
  killGroup(): void {
    this.signalGroup('SIGKILL');
  }

  private signalGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // The group is gone already.
    }
  }
}
