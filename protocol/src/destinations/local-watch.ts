/**
 * How the studio's Watch player follows a Local stream's HLS, shared by the player (hls.js
 * `liveSyncDurationCount`) and the api that states its delay: it plays this many fragments behind
 * the newest one listed, so a late fragment does not stall it.
 */
export const LOCAL_WATCH_SYNC_FRAGMENTS = 2;

/**
 * The Watch player's delay behind the program, in seconds, for HLS fragments of `fragmentSeconds`
 * (the program's keyframe interval: a fragment ends at a keyframe): the fragments it stays behind,
 * plus the one being written, which is listed only once it is complete.
 */
export function localWatchDelaySeconds(fragmentSeconds: number): number {
  return (LOCAL_WATCH_SYNC_FRAGMENTS + 1) * fragmentSeconds;
}
