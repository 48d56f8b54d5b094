import type { ResolutionId } from '../plans.ts';
import type { SceneDocument } from '../scene/document.ts';

/**
 * Cores one session costs a media worker, for admission (ARCHITECTURE "Fleet": admit up to 80 %
 * of the cores). The base figures are the whole test pipeline (sources → compositor → x264
 * veryfast + AAC → FLV → RTMP) measured on this project's 2-core machines (shared/ENVIRONMENT.md,
 * "Measured here"): ~0.8 cores at 720p30, ~1.35 at 1080p30; 480p scaled by pixel count from 720p.
 * Each decoded live source (WebRTC VP8/H.264 via werift: 12–15 % of a core) and each web page
 * received from a render worker adds its decode. Re-measure with media-worker/bench and update
 * these figures there and here together.
 */
export const SESSION_BASE_CORES: Record<ResolutionId, number> = { '480p': 0.45, '720p': 0.8, '1080p': 1.35 };
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
