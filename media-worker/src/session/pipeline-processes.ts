import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@onair/runtime';

const PIPELINE_ENTRY = fileURLToPath(new URL('../pipeline-process.ts', import.meta.url));

/**
 * The pipeline process allocates with jemalloc (Debian's libjemalloc2) where the machine has it.
 * With glibc's malloc, frames and decoder buffers freed when an input leaves stay in its arenas:
 * leak bench (issue 35), 200 camera + web page attach/detach cycles live, RSS +83 MB after the first
 * cycle and still rising. With jemalloc +17 MB, flat from cycle 20 on. A frame of the 1080p canvas
 * (8.3 MB, BGRA) is above jemalloc's 8 MiB 'oversize' line, whose blocks are handed back to the
 * system at every free and faulted in again for the next frame; the line is raised above any frame.
 * pipeline-bench cost at 720p30, same runs: 0.39-0.41 cores with it, 0.41-0.46 without.
 * Freed pages go back to the system after 1 s instead of jemalloc's 10 s: what an input left behind
 * was still counted seconds after it went (leak bench, RSS against cycle 1 read 4.5 s after a cycle:
 * +6.6 to +24.9 MB with 10 s, -3.1 to +10.4 MB with 1 s; pipeline-bench cost 0.47/0.87 cores at
 * 720p/1080p with 10 s, 0.48/0.78 with 1 s, the same within the bench's spread).
 * An operator's own LD_PRELOAD and MALLOC_CONF are kept (MALLOC_CONF wins).
 */
const JEMALLOC = [`/usr/lib/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu/libjemalloc.so.2`].find((path) => existsSync(path));

function pipelineEnv(): NodeJS.ProcessEnv {
  if (!JEMALLOC) return { ...process.env };
  const preload = [JEMALLOC, ...(process.env.LD_PRELOAD ? [process.env.LD_PRELOAD] : [])].join(' ');
  return { MALLOC_CONF: `oversize_threshold:${64 * 1024 * 1024},dirty_decay_ms:1000,muzzy_decay_ms:0`, ...process.env, LD_PRELOAD: preload };
}

/**
 * A new pipeline process: it loads its modules and GStreamer, then waits for its `start` command.
 * It is tethered to this process by the kernel (`setpriv --pdeathsig`, as runtime's TetheredProcess
 * does): a worker killed with -9 takes it along at once, even while it is still loading its modules
 * (2-12 s on a loaded machine, before its own exit guard runs), which matters for a spare that no
 * session has taken yet. SIGKILL, not SIGTERM: a pipeline whose stop blocks took its SIGTERM
 * deadline (1.5 s) to go instead of its orphan deadline (pipeline-exit.test.ts), and a pipeline
 * whose worker died has nothing left to hand over; its RTMP connections close with it.
 */
export function forkPipeline(): ChildProcess {
  return fork(PIPELINE_ENTRY, [], {
    execPath: 'setpriv',
    // --expose-gc: the pipeline collects the wrappers of the elements it removed (inputs/input-set.ts).
    execArgv: ['--pdeathsig', 'KILL', '--', process.execPath, '--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: pipelineEnv(),
    serialization: 'json',
  });
}

/** After a spare was taken, the next is forked this much later: its start must not slow the one just taken. */
const NEXT_SPARE_DELAY_MS = 3000;

/**
 * One pipeline process kept started ahead of need. Starting one is the most of what a viewer
 * misses when a session's pipeline process is replaced (a new output profile, a crash): Node, the
 * TypeScript loader, the pipeline's modules and GStreamer's registry, 2.1-2.4 s of the 2.8-3.0 s
 * gap on a loaded 2-core machine (bench/live-edit-bench.ts, part 'replace'). A session that starts
 * or replaces its process takes the spare, already past all that, and a new spare follows a little
 * later. It costs one idle process per worker; a spare that dies is forked again.
 */
export class SparePipeline {
  private spare: ChildProcess | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The spare's own exit listener (only this one is taken off when it is handed out). */
  private onSpareExit: ((code: number | null, signal: NodeJS.Signals | null) => void) | undefined;

  constructor(private readonly logger: Logger) {
    this.forkSpare();
  }

  /** A started pipeline process: the spare if it is there and alive, otherwise a new one. */
  take(): ChildProcess {
    const spare = this.spare;
    this.spare = undefined;
    if (spare && this.onSpareExit) spare.off('exit', this.onSpareExit);
    this.later(NEXT_SPARE_DELAY_MS);
    if (spare && spare.connected && spare.exitCode === null && spare.signalCode === null) return spare;
    return forkPipeline();
  }

  /** The worker is stopping: the spare goes, and none follows. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.spare && this.onSpareExit) this.spare.off('exit', this.onSpareExit);
    this.spare?.kill('SIGKILL');
    this.spare = undefined;
  }

  get pid(): number | undefined {
    return this.spare?.pid;
  }

  private later(ms: number): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.forkSpare();
    }, ms);
    this.timer.unref();
  }

  private forkSpare(): void {
    if (this.closed || this.spare) return;
    const spare = forkPipeline();
    // Its output is read once a session takes it; until then it writes nothing.
    this.onSpareExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (this.spare !== spare) return;
      this.spare = undefined;
      this.logger.warn({ code, signal }, 'spare pipeline process exited: forking another');
      this.later(NEXT_SPARE_DELAY_MS);
    };
    spare.once('exit', this.onSpareExit);
    this.spare = spare;
  }
}
