import type { SessionLoad } from '@onair/protocol';
import { ProcessTreesUsage } from '@onair/runtime';

/** Weight of the newest heartbeat's figure in the average (about the last 5 s at one heartbeat a second). */
const SMOOTHING = 0.2;

const hundredths = (n: number) => Math.round(n * 100) / 100;

/**
 * What each session costs this worker, beside what the admission model charged for it: the cores
 * of the session's pipeline process tree (its decoders, compositor, encoder, outputs), averaged
 * over the last seconds, sampled from one pass over /proc per heartbeat. A pipeline that restarts
 * keeps its average; a session that ends is forgotten.
 */
export class SessionCpu {
  private readonly trees = new ProcessTreesUsage();
  private readonly averages = new Map<string, number>();

  constructor(private readonly pidOf: (sessionId: string) => number | undefined) {}

  /** Called once per heartbeat with the model's charge of each session placed here. */
  loads(estimates: ReadonlyMap<string, number>): SessionLoad[] {
    const pids = new Map<string, number>();
    for (const sessionId of estimates.keys()) {
      const pid = this.pidOf(sessionId);
      if (pid !== undefined) pids.set(sessionId, pid);
    }
    const cores = this.trees.sample([...pids.values()]);
    for (const sessionId of this.averages.keys()) if (!estimates.has(sessionId)) this.averages.delete(sessionId);
    return [...estimates].map(([sessionId, estimated]) => {
      const pid = pids.get(sessionId);
      const now = pid === undefined ? undefined : cores.get(pid);
      let average = this.averages.get(sessionId);
      if (now !== undefined) {
        average = average === undefined ? now : average + SMOOTHING * (now - average);
        this.averages.set(sessionId, average);
      }
      return { sessionId, estimatedCores: hundredths(estimated), ...(average === undefined ? {} : { measuredCores: hundredths(average) }) };
    });
  }
}
