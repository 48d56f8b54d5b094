import type { OutputProfile, PlanInput } from '@onair/protocol';
import type { GstBin } from '../../gst/gst.ts';

/** Raw audio every source hands the mixer: the fixed format audiomixer negotiates reliably with. */
export const MIXER_AUDIO_CAPS = 'audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2';

/**
 * One way an input's picture reaches the compositor: a bin with a `src` ghost pad of raw video.
 * A feed fed from the network names the jitter buffer whose pushed-packet count tells whether it
 * flows; a feed without one (a file, a test pattern) always does.
 */
export interface VideoFeed {
  bin: GstBin;
  jitter?: string;
  /** An `identity` after its decoder (by name in `bin`) whose last message changes with every picture decoded. */
  pictures?: string;
}

/**
 * What one input contributes to the program: its video feeds for the compositor (one per encoding
 * a live input decodes; the program shows the one that flows), the picture shown while none does,
 * and raw audio (MIXER_AUDIO_CAPS) for the mixer. Every source is live, so the aggregators never
 * wait on a file or a stalled peer.
 */
export interface SourceBins {
  video: VideoFeed[];
  placeholder?: GstBin;
  audio?: GstBin;
  /** The audio's jitter buffer (by name in `audio`), when it comes from the network. */
  audioJitter?: string;
  /** A file played in a pipeline of its own into this input's channel (video-file.ts), started once the input is attached. */
  filePlayer?: { path: string; channel: string; loop: boolean; restartOnShow: boolean };
}

export type SourceBuilder<I extends PlanInput> = (input: I, profile: OutputProfile, name: string) => SourceBins;

/** Element names inside one pipeline must be unique; ids come from users, so keep them tame. */
export function elementName(...parts: string[]): string {
  return parts.map((p) => p.replace(/[^A-Za-z0-9_-]/g, '_')).join('-');
}
