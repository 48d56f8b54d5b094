import { TetheredProcess } from '@onair/runtime';

export interface ProcessSpec {
  name: string;
  /** Absolute path of the TypeScript entry point, run by Node with the tsx loader. */
  entry: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Environment of one run, made afresh at each (re)start: a media worker's WORKER_ID, so each run is a worker of its own. */
  runEnv?: () => NodeJS.ProcessEnv;
  /**
   * Told when a run ended on its own (a crash, kill -9; not a stop), after its process group was
   * killed and before the restart: the supervisor is the one that knows the death for certain, and
   * a media worker's sessions are handed over at once (issue 54).
   */
  onDeath?: (death: { env: NodeJS.ProcessEnv; code: number | null; signal: NodeJS.Signals | null }) => void;
}

const RESTART_DELAYS_MS = [1000, 2000, 5000];

/**
 * One OnAir process of the one-machine stack. Its output lines go to `log`; if it dies on its own
 * it is started again with backoff (like a Kubernetes restart policy), so one crash does not take
 * down the stack. `stop` sends SIGTERM and waits for the process's own clean shutdown.
 *
 * Nothing of it may outlive the stack: it is tethered to the stack's process (SIGTERM, so it still
 * drains, if the stack is killed), and it leads its own process group, which is killed whenever it
 * exits, however it exited: a worker killed with -9 leaves there whatever it had started without a
 * tether of its own (its pipeline processes) instead of leaving it running beside its successor.
 * The group is also why a Ctrl-C in the terminal reaches only the stack, which then stops the
 * processes in order (api before the stores it needs) instead of all at once.
 */
export class SupervisedProcess {
  private proc: TetheredProcess | undefined;
  private stopping = false;
  private restarts = 0;
  /** How the last stop ended: on its own (`clean`, with the exit code) or killed after the timeout. */
  lastStop: { kind: 'clean'; code: number | null } | { kind: 'killed' } | null = null;

  constructor(
    private readonly spec: ProcessSpec,
    private readonly log: (source: string, line: string) => void,
  ) {}

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  start(): void {
    const env = { ...this.spec.env, ...this.spec.runEnv?.() };
    const proc = new TetheredProcess(process.execPath, ['--import', 'tsx', this.spec.entry], {
      cwd: this.spec.cwd,
      env,
      parentDeathSignal: 'SIGTERM',
      onLine: (line) => this.log(this.spec.name, line),
    });
    this.proc = proc;
    void proc.exited.then(({ code, signal }) => {
      proc.killGroup();
      if (this.stopping) return;
      this.spec.onDeath?.({ env, code, signal });
      const delay = RESTART_DELAYS_MS[Math.min(this.restarts, RESTART_DELAYS_MS.length - 1)] ?? 5000;
      this.restarts += 1;
      this.log('stack', `${this.spec.name} exited (code ${code}, signal ${signal}); restarting in ${delay} ms`);
      setTimeout(() => {
        if (!this.stopping) this.start();
      }, delay).unref();
    });
  }

  async stop(timeoutMs = 20_000): Promise<void> {
    this.stopping = true;
    const proc = this.proc;
    if (!proc?.running) return;
    // The process alone: a worker stops its pipelines and pages itself, in its own order.
    const exit = await proc.stop({ graceMs: timeoutMs, programOnly: true });
    if (exit.forced) this.log('stack', `${this.spec.name} did not stop within ${timeoutMs / 1000} s; killed it`);
    this.lastStop = exit.forced ? { kind: 'killed' } : { kind: 'clean', code: exit.code };
  }
}
