import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * Runs a helper program (Xvfb, PulseAudio, gst-launch) so that it can never outlive the render
 * worker, even when the worker is killed with -9: the program runs under a small `sh` "lifeline"
 * that holds a pipe from this process and kills the program when the pipe closes. The lifeline
 * leads its own process group, so stopping kills the program and anything it forked in one call.
 * (Chromium needs no lifeline: puppeteer talks to it over a pipe, and Chromium exits when that
 * pipe closes.)
 */
const LIFELINE = [
  'exec 9<&0',
  '"$@" 9<&- </dev/null &',
  'child=$!',
  '( while read -r _ <&9; do :; done; kill -KILL "$child" 2>/dev/null ) 9<&9 &',
  'watch=$!',
  'exec 9<&-',
  'wait "$child"; rc=$?',
  'kill "$watch" 2>/dev/null',
  'exit $rc',
].join('\n');

export interface SupervisedProcessOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Extra pipes after stdin/stdout/stderr (fd 3…), e.g. Xvfb's -displayfd. */
  extraPipes?: number;
  /** How many characters of stderr to keep for error reports. */
  stderrTail?: number;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class SupervisedProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<ProcessExit>;
  private tail = '';
  private exitInfo: ProcessExit | undefined;

  constructor(
    readonly command: string,
    readonly args: readonly string[],
    private readonly options: SupervisedProcessOptions = {},
  ) {
    const stdio: StdioOptions = ['pipe', 'pipe', 'pipe', ...new Array<'pipe'>(options.extraPipes ?? 0).fill('pipe')];
    this.child = spawn('sh', ['-c', LIFELINE, 'lifeline', command, ...args], {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio,
      detached: true,
    });
    // The lifeline pipe is only ever closed, never written.
    this.child.stdin?.on('error', () => undefined);
    this.child.stdout?.resume();
    const keep = options.stderrTail ?? 4000;
    this.child.stderr?.on('data', (d: Buffer) => {
      this.tail = (this.tail + d.toString()).slice(-keep);
    });
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

  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves when the lifeline has exited. */
  async stop(graceMs = 2000): Promise<ProcessExit> {
    if (!this.running) return this.exited;
    this.signalGroup('SIGTERM');
    const timer = setTimeout(() => this.signalGroup('SIGKILL'), graceMs);
    const exit = await this.exited;
    clearTimeout(timer);
    // Anything of the group still alive after the lifeline went (it never should) goes too.
    this.signalGroup('SIGKILL');
    return exit;
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
