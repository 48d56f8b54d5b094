import type { EncoderSettings, OutputProfile, PlanPreview } from '@onair/protocol';
import { linkChain, linkPads, makeElement, requestPad, staticPad } from '../../gst/elements.ts';
import type { GstElement, GstPad } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';
import { BACKGROUND_ZORDER } from '../layout.ts';
import type { FlvSink } from '../outputs/flv-fanout.ts';
import { buildPreview } from './preview.ts';

/**
 * x264's options beside its preset, for every encode of a session. No keyframes on scene cuts: a
 * keyframe every 2 s, as platforms ask, plus one when a destination connects (requestKeyframe),
 * from which the 2 s grid restarts, so keyframes are never more than 2 s apart. HRD filler keeps
 * the rate constant even on a still picture, as CBR ingest expects. CABAC and weighted prediction
 * on at every preset (ultrafast turns both off by itself): every preset of the encoder ladder then
 * writes the same parameter sets (the same codec_data, read from h264parse's caps at veryfast,
 * superfast and ultrafast), so stepping the preset live keeps the stream's caps, and the recording,
 * whose MP4 track holds one set of them, goes on in the same part (issue 35).
 */
export const X264_OPTIONS = 'scenecut=0:nal-hrd=cbr:cabac=1:weightp=1';

/**
 * The colour space of every canvas, and so of what x264 encodes and signals: BT.709, as players
 * assume for HD. Left open, the compositor took its output's from its inputs (SD pictures are BT.601),
 * and the wide program's rounded tiles came out with red at 255,23,0 and green at 0,214,0 (crop-cover.test).
 */
export const CANVAS_COLORIMETRY = 'bt709';

/** The program's picture as composited: AYUV (see buildProgramVideo) at the program's size. */
export function programCaps(width: number, height: number, fps: number): string {
  return `${backgroundCaps(width, height, fps)},pixel-aspect-ratio=1/1`;
}

/** The canvas's black, in its format and colour space (nothing to convert per frame). */
export function backgroundCaps(width: number, height: number, fps: number): string {
  return `video/x-raw,format=AYUV,width=${width},height=${height},framerate=${fps}/1,colorimetry=${CANVAS_COLORIMETRY}`;
}

export interface ProgramVideo {
  compositor: GstElement;
  /** Passes frames at the program rate; its counters give fps and dropped frames. */
  rate: GstElement;
  backgroundPad: GstPad;
}

/**
 * The program's picture: a live black background on the compositor, the compositor at the
 * program's size, a tee for the studio's preview, one x264 encode (CBR, keyframes on a fixed grid)
 * and the FLV muxer into the fan-out. Inputs are not part of it: they join and leave the running
 * compositor (inputs/). The muxer's audio pad is linked by buildProgramAudio.
 */
export function buildProgramVideo(
  gst: GstPipeline,
  profile: OutputProfile,
  encoder: EncoderSettings,
  fanout: FlvSink,
  preview: PlanPreview | undefined,
): ProgramVideo {
  const { fps } = profile;
  const { width, height } = profile;
  // Composited in AYUV, converted to I420 only for the encoder: with an alpha-less format on its
  // source pad, GStreamer 1.22's compositor drops every alpha format from its sink caps, so an
  // RGBA logo or overlay would not even link, and per-pixel transparency would be lost.
  const background = [
    makeElement('videotestsrc', 'background', { 'is-live': true, pattern: 'black' }),
    // In the program's own format: unconstrained, videotestsrc would take the compositor's first
    // listed format (16-bit RGBA) and the black would be converted on every frame.
    makeElement('capsfilter', 'background-caps', { caps: backgroundCaps(width, height, fps) }),
  ];
  const compositor = makeElement('compositor', 'compositor', { background: 'black' });
  const chain = [
    compositor,
    makeElement('capsfilter', 'program-caps', { caps: programCaps(width, height, fps) }),
    // Passes frames through at the program rate; its counters give fps and dropped frames
    // without a callback per buffer.
    makeElement('videorate', 'program-rate', { 'skip-to-first': true }),
    makeElement('tee', 'program-tee', { 'allow-not-linked': true }),
    makeElement('videoconvert', 'video-encoder-convert'),
    makeElement('capsfilter', 'video-encoder-caps', { caps: 'video/x-raw,format=I420' }),
    makeElement('queue', 'encoder-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 500_000_000 }),
    // Open but for the moment the encoder is re-opened with another preset (setEncoderStep).
    makeElement('valve', 'video-encoder-valve'),
    makeElement('x264enc', 'video-encoder', {
      bitrate: profile.videoBitrateKbps,
      pass: 'cbr',
      'key-int-max': profile.keyframeIntervalSeconds * fps,
      'option-string': X264_OPTIONS,
      tune: 'zerolatency',
      'speed-preset': encoder.preset,
      threads: profile.encoderThreads,
    }),
    makeElement('capsfilter', 'h264-caps', { caps: 'video/x-h264,profile=main' }),
    makeElement('h264parse', 'h264-parse'),
    // The encoded video for the muxer of the outputs and, while recording, the recording's.
    makeElement('tee', 'video-encoded', { 'allow-not-linked': true }),
    makeElement('queue', 'video-mux-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 2_000_000_000 }),
  ];
  for (const element of [...background, ...chain]) gst.add(element);
  linkChain(background);
  linkChain(chain);
  const backgroundPad = requestPad(compositor, 'sink_%u');
  linkPads(staticPad(background[1]!, 'src'), backgroundPad);
  Object.assign(backgroundPad, { xpos: 0, ypos: 0, width, height, zorder: BACKGROUND_ZORDER, alpha: 1 });
  if (preview) buildPreview(gst, chain[3]!, preview, fps);

  const mux = makeElement('flvmux', 'mux', { streamable: true });
  const toFanout = fanout.elements(profile.videoBitrateKbps + profile.audioBitrateKbps);
  for (const element of [mux, ...toFanout]) gst.add(element);
  linkPads(staticPad(chain[chain.length - 1]!, 'src'), requestPad(mux, 'video'));
  linkChain([mux, ...toFanout]);
  return { compositor, rate: chain[2]!, backgroundPad };
}
