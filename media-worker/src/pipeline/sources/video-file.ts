import type { PlanInput } from '@onair/protocol';
import { makeChainBin, makeElement } from '../../gst/elements.ts';
import { MIXER_AUDIO_CAPS, type SourceBuilder } from './source.ts';

type VideoFileInput = Extract<PlanInput, { kind: 'video-file' }>;

/** intervideosrc shows black after this long without a frame: never, so a file played once keeps its last frame. */
const HOLD_LAST_FRAME_NS = '3600000000000000';

/**
 * An uploaded video file: live inputs that read the frames and sound a FilePlayer (file-player.ts)
 * plays in its own pipeline on the same channel. Until the player's first frame the picture is
 * black; without sound the input is silence.
 */
export const buildVideoFile: SourceBuilder<VideoFileInput> = (input, profile, name) => {
  const channel = `${name}-${process.pid}`;
  const video = makeChainBin(
    `${name}-video`,
    [
      makeElement('intervideosrc', `${name}-vsrc`, { channel, timeout: HOLD_LAST_FRAME_NS }),
      makeElement('capsfilter', `${name}-vcaps`, { caps: `video/x-raw,format=I420,framerate=${profile.fps}/1` }),
      makeElement('queue', `${name}-vqueue`, { 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0, leaky: 'downstream' }),
    ],
    { src: true },
  );
  const audio = makeChainBin(
    `${name}-audio`,
    [
      makeElement('interaudiosrc', `${name}-asrc`, { channel }),
      makeElement('audioconvert', `${name}-aconv`),
      makeElement('audioresample', `${name}-ares`),
      makeElement('capsfilter', `${name}-acaps`, { caps: MIXER_AUDIO_CAPS }),
      makeElement('queue', `${name}-aqueue`, { 'max-size-time': 200_000_000, 'max-size-buffers': 0, 'max-size-bytes': 0, leaky: 'downstream' }),
    ],
    { src: true },
  );
  return { video: [{ bin: video }], audio, filePlayer: { path: input.path, channel, loop: input.loop, restartOnShow: input.restartOnShow } };
};
