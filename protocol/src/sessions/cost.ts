import type { ResolutionId } from '../plans.ts';
import type { SceneDocument } from '../scene/document.ts';

/**
 * Cores one session costs a media worker, for admission (ARCHITECTURE "Fleet": admit up to 80 %
 * of the cores). Measured with media-worker/bench (`npm run bench -w media-worker`: real pipeline
 * processes with a moving pattern, a tone and an image layer, composited in AYUV with the preview
 * branch, x264 veryfast CBR + AAC, pushed to nginx-rtmp) on the project's 2-core machines:
 * 0.96 cores at 720p30 and 0.49 at 480p30. 1080p30 could not hold 30 fps on two shared cores; its
 * figure is the measured ~87 ms of CPU per frame times 30 frames. Each decoded live source (WebRTC
 * VP8 via werift, or a page from a render worker) adds ~0.09 measured, budgeted at 0.15. Re-measure
 * and update these figures together with the bench.
 */
export const SESSION_BASE_CORES: Record<ResolutionId, number> = { '480p': 0.5, '720p': 0.96, '1080p': 2.6 };
export const DECODED_SOURCE_CORES = 0.15;
export const ADMISSION_CPU_SHARE = 0.8;

const DECODED_KINDS = new Set(['webcam', 'screenshare', 'game', 'participant', 'webpage']);

export function sessionCost(doc: Pick<SceneDocument, 'resolution' | 'sources'>): number {
  const decoded = doc.sources.filter((s) => DECODED_KINDS.has(s.kind)).length;
  return SESSION_BASE_CORES[doc.resolution] + decoded * DECODED_SOURCE_CORES;
}

/** Whether a worker with `cores` cores, already committed to `committedCores`, can take `cost` more. */
export function canAdmit(cores: number, committedCores: number, cost: number, share = ADMISSION_CPU_SHARE): boolean {
  // A worker with nothing to do always takes one session, even one costlier than its budget:
  // refusing it everywhere would leave it waiting forever on a fleet of small machines.
  if (committedCores === 0) return true;
  return committedCores + cost <= cores * share + 1e-9;
}
