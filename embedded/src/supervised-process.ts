import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ProcessSpec {
  name: string;
  /** Absolute path of the TypeScript entry point, run by Node with the tsx loader. */
  entry: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const RESTART_DELAYS_MS = [1000, 2000, 5000];

/**
 * One OnAir process of the one-machine stack. Its output lines go to `log`; if it dies on its own
 * it is started again with backoff (like a Kubernetes restart policy), so one crash does not take
 * down the stack. `stop` sends SIGTERM and waits for the process's own clean shutdown.
 */
export class SupervisedProcess {
  private child: ChildProcess | undefined;
  private stopping = false;
  private restarts = 0;
  private exited: Promise<void> = Promise.resolve();
  /** How the last stop ended: on its own (`clean`, with the exit code) or killed after the timeout. */
  lastStop: { kind: 'clean'; code: number | null } | { kind: 'killed' } | null = null;

  constructor(
    private readonly spec: ProcessSpec,
    private readonly log: (source: string, line: string) => void,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    const child = spawn(process.execPath, ['--import', 'tsx', this.spec.entry], {
      cwd: this.spec.cwd,
      env: this.spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a Ctrl-C in the terminal reaches only the stack, which then stops
      // the processes in order (api before the stores it needs) instead of all at once.
      detached: true,
    });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => this.log(this.spec.name, line));
    }
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        resolve();
        if (this.stopping) return;
        const delay = RESTART_DELAYS_MS[Math.min(this.restarts, RESTART_DELAYS_MS.length - 1)] ?? 5000;
        this.restarts += 1;
        this.log('stack', `${this.spec.name} exited (code ${code}, signal ${signal}); restarting in ${delay} ms`);
        setTimeout(() => {
          if (!this.stopping) this.start();
        }, delay).unref();
      });
    });
  }

  async stop(timeoutMs = 20_000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      this.log('stack', `${this.spec.name} did not stop within ${timeoutMs / 1000} s; killing it`);
      // Its pipelines and browsers are in its process group: take them too.
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    await this.exited;
    clearTimeout(timer);
    this.lastStop = killed ? { kind: 'killed' } : { kind: 'clean', code: child.exitCode };
  }
}
