import { Worker } from 'node:worker_threads';

/**
 * The watchdog's own thread. It touches nothing but two numbers and the kernel: `process.ppid` is
 * read afresh from the kernel each time (getppid), and a kill(2) of its own process cannot block.
 * Plain JavaScript, run without the parent's loaders (no tsx), so the thread starts in a few ms.
 */
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const deadline = new Float64Array(workerData.shared);
setInterval(() => {
  const now = Date.now();
  if (deadline[0] === 0 && workerData.parentPid !== 0 && process.ppid !== workerData.parentPid) deadline[0] = now + workerData.orphanGraceMs;
  if (deadline[0] !== 0 && now >= deadline[0]) process.kill(process.pid, 'SIGKILL');
}, workerData.pollMs);
`;

export interface ExitGuardOptions {
  /**
   * The process whose death must end this one (a pipeline process's media worker). Noticed from the
   * kernel's own parent pid, so it also works when the IPC channel is not read (a blocked main
   * thread) or was never there. Omit to only keep deadlines.
   */
  parentPid?: number;
  /** After the parent died, how long the main thread has to end the process itself. */
  orphanGraceMs?: number;
  /** How often the watchdog looks. */
  pollMs?: number;
}

/**
 * Ends this process by a deadline whatever its main thread is doing. A GStreamer state change to
 * NULL waits for every streaming thread, and one held in a read or write that never returns (a
 * socket or a file on a stalled disk that never drains) holds it for ever: a stop that runs on the
 * main thread cannot promise to end. So the deadline is kept by a worker thread of its own, which
 * SIGKILLs the process when it passes. A parent that dies arms a deadline by itself.
 *
 * Why not PR_SET_PDEATHSIG alone: Node cannot set it on itself, and the signal goes by the thread
 * that forked, not the process; and SIGTERM and a stop that blocks need the same deadline anyway.
 */
export class ExitGuard {
  private readonly deadline: Float64Array;
  private readonly worker: Worker;

  constructor(options: ExitGuardOptions = {}) {
    const shared = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT);
    this.deadline = new Float64Array(shared);
    this.worker = new Worker(WATCHDOG_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: { shared, parentPid: options.parentPid ?? 0, orphanGraceMs: options.orphanGraceMs ?? 500, pollMs: options.pollMs ?? 100 },
      // Its own small heap: the guard must still run when the main heap is under pressure.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    // The guard never keeps the process alive on its own.
    this.worker.unref();
  }

  /** The process ends (SIGKILL) `ms` from now unless it exits first; an earlier deadline stays. */
  arm(ms: number): void {
    const at = Date.now() + ms;
    const current = this.deadline[0] ?? 0;
    if (current === 0 || at < current) this.deadline[0] = at;
  }
}
