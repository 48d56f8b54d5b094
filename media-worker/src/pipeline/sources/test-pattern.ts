import type { PlanInput } from '@onair/protocol';
import { makeChainBin, makeElement } from '../../gst/elements.ts';
import { MIXER_AUDIO_CAPS, type SourceBuilder } from './source.ts';

type TestPatternInput = Extract<PlanInput, { kind: 'test-pattern' }>;

const patternNick: Record<TestPatternInput['pattern'], string> = {
  smpte: 'smpte',
  ball: 'ball',
  solid: 'solid-color',
  black: 'black',
  snow: 'snow',
};

/** A generated picture (and tone): for development, tests and benchmarks. */
export const buildTestPattern: SourceBuilder<TestPatternInput> = (input, profile, name) => {
  const video = makeChainBin(
    `${name}-video`,
    [
      makeElement('videotestsrc', `${name}-vsrc`, {
        'is-live': true,
        pattern: patternNick[input.pattern],
        // videotestsrc colours are ARGB.
        'foreground-color': (0xff000000 | input.color) >>> 0,
      }),
      makeElement('capsfilter', `${name}-vcaps`, {
        // I420, as every decoder of a live input gives it (unconstrained, videotestsrc would take the
        // first format the compositor lists: 16-bit RGBA, 8 bytes a pixel, converted on every frame).
        caps: `video/x-raw,format=I420,width=${input.width},height=${input.height},framerate=${profile.fps}/1`,
      }),
      makeElement('queue', `${name}-vqueue`, { 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0, leaky: 'downstream' }),
    ],
    { src: true },
  );
  if (input.toneHz === undefined) return { video: [{ bin: video }] };
  const audio = makeChainBin(
    `${name}-audio`,
    [
      makeElement('audiotestsrc', `${name}-asrc`, { 'is-live': true, wave: 'sine', freq: input.toneHz, volume: 0.3 }),
      makeElement('audioconvert', `${name}-aconv`),
      makeElement('audioresample', `${name}-ares`),
      makeElement('capsfilter', `${name}-acaps`, { caps: MIXER_AUDIO_CAPS }),
      makeElement('queue', `${name}-aqueue`, { 'max-size-time': 200_000_000, 'max-size-buffers': 0, 'max-size-bytes': 0, leaky: 'downstream' }),
    ],
    { src: true },
  );
  return { video: [{ bin: video }], audio };
};
