import { descendantsOf, readProcessTable } from '@onair/runtime';

const PAGE_BYTES = 4096;
/** Linux reports CPU times in ticks of 1/100 s (USER_HZ) on every architecture we run on. */
const TICKS_PER_SECOND = 100;

/** Resident memory of a process and its descendants, in bytes (shared pages are counted once per process). */
export function treeRssBytes(rootPid: number): number {
  return descendantsOf(readProcessTable(), [rootPid]).reduce((sum, e) => sum + e.rssPages * PAGE_BYTES, 0);
}

/** CPU time (user + system) of a process and its descendants, in seconds. */
export function treeCpuSeconds(rootPid: number): number {
  return descendantsOf(readProcessTable(), [rootPid]).reduce((sum, e) => sum + e.cpuTicks / TICKS_PER_SECOND, 0);
}
