import { resolutions, type ResolutionId } from '../plans.ts';
import type { SceneDocument } from '../scene/document.ts';
import { CANVAS } from '../scene/layout.ts';

/**
 * Cores one session costs a media worker, for admission (ARCHITECTURE "Fleet": admit up to 80 %
 * of the cores), built from what the benches in media-worker/bench measured on this project's
 * 2-core machines (issue 41; re-measure there and update the figures here together):
 *
 *   session = base(resolution)                   compositor, x264, audio mix, the first output
 *           + Σ decoded input (fixed + per pixel)  each camera, guest, screen, game feed, web page, video file
 *           + destinations after the first          the encode is shared: each adds its FLV mux and socket
 *           + the vertical canvas, when taken       a second compositor and encode
 *
 * A decoded input costs its receive path (werift's SRTP and forwarding, the jitter buffer, the
 * depayloader: about the same for any size) plus its decode and scale, which grow with its pixels.
 * A camera or guest is now sent at the size the program shows it (cameraSendSize, room.sendSize), so
 * it is charged at the largest box it fills in any scene; screens, game feeds, pages and video files
 * at the canvas (they arrive as large as they were made). See the bench figures next to each constant.
 */

/*
 * The figures below are one fit of these benches, run on an idle 2-core machine on 2026-11-28
 * (issue 41; each run's lines are in that closing note). Measured → this model:
 *   guests-bench, host camera only (640×360 VP8 + Opus) at 720p30        0.43        → 0.45
 *   guests-bench, host + 10 guests at 640×360 (VP8 and H.264)           1.12–1.19   → 1.28
 *   guests-bench, host + 10 guests at 320×180 (as the studio now sends)  0.95–0.98   → 1.28
 *   webrtc-bench, one Chromium camera 1280×720 drawn full frame          0.81–0.82   → 0.72
 *   density-bench, 720p30, a decoded 1280×720 H.264 picture + logo       0.38        → 0.45
 *   density-bench, 1080p30, a decoded 1920×1080 H.264 picture + logo     0.66        → 0.77
 * (2026-11-29, with the publishers' sender reports corrected, the guests bench measured 1.33 and 1.38
 * at 640×360 and 1.10 and 1.12 at 320×180 on the same kind of machine, and a real Chromium camera
 * cost three times what the per-pixel figure below charged: cameras and guests now have a fixed
 * part and a per-pixel figure of their own (PARTICIPANT_INPUT_FIXED_CORES, CAMERA_CORES_PER_MEGAPIXEL).
 * The figures above are charged with them; the webrtc-bench session, 0.39–0.40 without its track
 * and +0.41–0.43 with it, is 10 % over the model, whose base was fitted without a browser's preview.)
 * Before that the model was within 15 % of every figure, under for many small inputs and over for one large
 * one (the benches' test pictures, bars and a test card, decode more cheaply than a camera's
 * picture: the per-pixel figure is low rather than high). The guests bench's pictures are
 * werift-published, so its inputs carry werift, Opus and mixing; the density bench's come from a
 * file, with none of these and no studio preview, and the model charges them the same.
 */

/** The session pipeline with nothing decoded: compositor, x264 veryfast, AAC, FLV, one RTMP output and the studio's preview feed. */
export const SESSION_BASE_CORES: Record<ResolutionId, number> = { '480p': 0.17, '720p': 0.3, '1080p': 0.5 };

/**
 * A decoded input's cost whatever its size: its receive path (werift's SRTP and forwarding, the
 * jitter buffer, the depayloader) and its sound (Opus decode and its share of the mix).
 */
export const DECODED_INPUT_FIXED_CORES = 0.045;
/**
 * What a camera or a guest costs whatever its size: it comes with its microphone, so two tracks'
 * receive path in werift and two jitter buffers, the Opus decode and its share of the mix, and its
 * branch to the compositor. Fitted on 2026-11-29 to guests-bench at the size the studio sends a
 * grid tile (BENCH_GUEST_SIZE=320x180, host + 10 guests, publishers' sender reports corrected,
 * 1.10 and 1.12 cores measured) with the file figure per pixel; the 0.045 of a file, page or feed
 * input (DECODED_INPUT_FIXED_CORES) left those sessions charged 0.86, a fifth under. With the
 * camera's own per-pixel figure below they are charged 1.28 (see the table above).
 */
export const PARTICIPANT_INPUT_FIXED_CORES = 0.067;
/** Decode + scale per megapixel of an input's frame at 30 fps. */
export const DECODED_CORES_PER_MEGAPIXEL = 0.11;
/** Each destination after the first: the encode is shared, each adds its FLV mux and socket (pipeline-bench 'ratio': ten cost about one). */
export const DESTINATION_CORES = 0.01;

/**
 * What the vertical canvas adds when a destination takes it (issue 20): a second compositor and
 * a second x264 encode of the same pixel count, fed by the inputs already decoded for the
 * horizontal program (no decode of its own), and nothing per destination. At 720p30
 * media-worker/bench/vertical-bench.ts measured 0.43–0.48 cores on 2026-11-25 (about what the
 * horizontal session's base costs: the same pixels encoded, pictures scaled up to fill); 480p and
 * 1080p are scaled from it like SESSION_BASE_CORES. Re-measure and update together.
 */
export const VERTICAL_CANVAS_CORES: Record<ResolutionId, number> = { '480p': 0.25, '720p': 0.45, '1080p': 0.8 };

export const ADMISSION_CPU_SHARE = 0.8;

/** The camera size the studio captures (control-ui actions/media.ts): no camera is sent larger. */
const CAMERA_CAPTURE = { width: 1280, height: 720 } as const;

/** A fixed part plus a figure per megapixel of a `width`×`height` frame. */
function inputCores(fixed: number, perMegapixel: number, width: number, height: number): number {
  return fixed + ((width * height) / 1_000_000) * perMegapixel;
}

/** Cores one decoded input of `width`×`height` at 30 fps costs. */
export function decodedInputCores(width: number, height: number): number {
  return inputCores(DECODED_INPUT_FIXED_CORES, DECODED_CORES_PER_MEGAPIXEL, width, height);
}

/**
 * A browser's camera per megapixel it is sent at: a real picture in VP8 at the bitrate Chromium
 * gives it decodes far dearer than the benches' test pictures and files (DECODED_CORES_PER_MEGAPIXEL).
 * Fitted on 2026-11-29 to webrtc-bench (headless Chromium, 1280×720 VP8 at 1.35 Mbit/s with a tone,
 * drawn full frame): +0.43 and +0.41 cores per track (pipeline +0.34/+0.32, werift +0.09), so
 * (0.42 − 0.067) / 0.92 MP. The guests bench's werift-published bars are charged more than they
 * cost with it (1.28 for 1.10–1.12 at 320×180), which errs on the side a real camera needs.
 */
export const CAMERA_CORES_PER_MEGAPIXEL = 0.38;

/** Cores one camera or guest sent at `width`×`height` at 30 fps costs, with its microphone. */
export function cameraInputCores(width: number, height: number): number {
  return inputCores(PARTICIPANT_INPUT_FIXED_CORES, CAMERA_CORES_PER_MEGAPIXEL, width, height);
}

/** A typical decoded source: a camera sent whole at 1280×720 (for the fleet's sizing defaults). */
export const DECODED_SOURCE_CORES = cameraInputCores(CAMERA_CAPTURE.width, CAMERA_CAPTURE.height);

const CAMERA_KINDS = new Set(['webcam', 'participant']);
const CANVAS_SIZED_KINDS = new Set(['screenshare', 'game', 'webpage', 'video']);

type CostDocument = Pick<SceneDocument, 'resolution'> & {
  sources: readonly Pick<SceneDocument['sources'][number], 'id' | 'kind'>[];
  /** Without scenes, a camera is charged as sent whole. */
  scenes?: readonly Pick<SceneDocument['scenes'][number], 'layers'>[];
};

export function sessionCost(doc: CostDocument, options: { vertical?: boolean; destinations?: number } = {}): number {
  const { width, height } = resolutions[doc.resolution];
  const scale = height / CANVAS.height;
  let inputs = 0;
  for (const source of doc.sources) {
    if (CANVAS_SIZED_KINDS.has(source.kind)) inputs += decodedInputCores(Math.min(width, 1920), Math.min(height, 1080));
    else if (CAMERA_KINDS.has(source.kind)) {
      // Sent at the largest box it fills in any scene (a scene switch makes it grow at once), at most whole.
      const boxes = doc.scenes?.flatMap((s) => s.layers.filter((l) => l.sourceId === source.id && l.visible));
      const box =
        boxes === undefined
          ? CAMERA_CAPTURE
          : boxes.reduce((big, l) => ({ width: Math.max(big.width, l.width * scale), height: Math.max(big.height, l.height * scale) }), {
              width: 0,
              height: 0,
            });
      if (box.width === 0 || box.height === 0) inputs += cameraInputCores(320, 180);
      else inputs += cameraInputCores(Math.min(CAMERA_CAPTURE.width, box.width), Math.min(CAMERA_CAPTURE.height, box.height));
    }
  }
  const destinations = Math.max(0, (options.destinations ?? 1) - 1) * DESTINATION_CORES;
  return SESSION_BASE_CORES[doc.resolution] + inputs + destinations + (options.vertical ? VERTICAL_CANVAS_CORES[doc.resolution] : 0);
}

/** Whether a worker with `cores` cores, already committed to `committedCores`, can take `cost` more. */
export function canAdmit(cores: number, committedCores: number, cost: number, share = ADMISSION_CPU_SHARE): boolean {
  // A worker with nothing to do always takes one session, even one costlier than its budget:
  // refusing it everywhere would leave it waiting forever on a fleet of small machines.
  if (committedCores === 0) return true;
  return committedCores + cost <= cores * share + 1e-9;
}
