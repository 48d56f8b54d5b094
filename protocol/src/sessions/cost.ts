import type { ResolutionId } from '../plans.ts';
import type { SceneDocument } from '../scene/document.ts';

/**
 * Cores one session costs a media worker, for admission (ARCHITECTURE "Fleet": admit up to 80 %
 * of the cores). The base figures are a session pipeline process (a moving picture + tone + logo →
 * compositor → x264 veryfast + AAC → FLV → one RTMP output) as `npm run bench -w media-worker`
 * measured it on this project's 2-core machines on 2026-11-24: 0.24 cores at 480p30, 0.41–0.47 at
 * 720p30, 0.75–0.76 at 1080p30 (the bench's own test picture, 0.06–0.29 of that, stands in for a
 * decoder). Each decoded live source (WebRTC VP8/H.264 decoded and converted in the pipeline, plus
 * werift's SRTP and forwarding in the worker) adds about 0.25–0.3 at 720p (bench/webrtc-bench.ts),
 * as does each web page received from a render worker. Re-measure with media-worker/bench and
 * update these figures there and here together. Every media worker's heartbeat carries each
 * session's charge beside its pipeline's measured cores (sessionLoads), and the operators'
 * dashboard shows both with their ratio: on 2026-11-28 the density bench measured 0.33–0.42 cores
 * for a 720p30 session charged 0.75 (a test-picture camera counted as a decoded source), 0.64–0.71
 * at 1080p30 charged 1.10, so the model over-charges about twice; it stays until the ten-guest
 * bench measures a decoded WebRTC source, the coefficient the fit needs.
 */
export const SESSION_BASE_CORES: Record<ResolutionId, number> = { '480p': 0.25, '720p': 0.45, '1080p': 0.8 };
export const DECODED_SOURCE_CORES = 0.3;
export const ADMISSION_CPU_SHARE = 0.8;

const DECODED_KINDS = new Set(['webcam', 'screenshare', 'game', 'participant', 'webpage']);

/**
 * What the vertical canvas adds when a destination takes it (issue 20): a second compositor and
 * a second x264 encode of the same pixel count, fed by the inputs already decoded for the
 * horizontal program (no decode of its own), and nothing per destination. At 720p30
 * media-worker/bench/vertical-bench.ts measured 0.43–0.48 cores on 2026-11-25 (about what the
 * horizontal session's base costs: the same pixels encoded, pictures scaled up to fill); 480p and
 * 1080p are scaled from it like SESSION_BASE_CORES. Re-measure and update together.
 */
export const VERTICAL_CANVAS_CORES: Record<ResolutionId, number> = { '480p': 0.25, '720p': 0.45, '1080p': 0.8 };

export function sessionCost(
  doc: Pick<SceneDocument, 'resolution'> & { sources: readonly Pick<SceneDocument['sources'][number], 'kind'>[] },
  options: { vertical?: boolean } = {},
): number {
  const decoded = doc.sources.filter((s) => DECODED_KINDS.has(s.kind)).length;
  return SESSION_BASE_CORES[doc.resolution] + decoded * DECODED_SOURCE_CORES + (options.vertical ? VERTICAL_CANVAS_CORES[doc.resolution] : 0);
}

/** Whether a worker with `cores` cores, already committed to `committedCores`, can take `cost` more. */
export function canAdmit(cores: number, committedCores: number, cost: number, share = ADMISSION_CPU_SHARE): boolean {
  // A worker with nothing to do always takes one session, even one costlier than its budget:
  // refusing it everywhere would leave it waiting forever on a fleet of small machines.
  if (committedCores === 0) return true;
  return committedCores + cost <= cores * share + 1e-9;
}
