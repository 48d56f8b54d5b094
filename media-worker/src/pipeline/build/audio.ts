import type { OutputProfile } from '@onair/protocol';
import { linkChain, linkPads, makeElement, requestPad, staticPad } from '../../gst/elements.ts';
import type { GstElement } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';
import { MIXER_AUDIO_CAPS } from '../sources/index.ts';

/**
 * What the AAC encoder (libav's, avenc_aac) puts before the first real sample: one frame of
 * priming, 1024 samples at 48 kHz. Its packets keep the timestamps of the sound that went in, and
 * FLV cannot say that the first 1024 decoded samples are to be skipped, so every player (ffmpeg,
 * GStreamer, a platform's transcoder) played the program's sound 21.3 ms late against its picture
 * (issue 53 item 4: measured 21.4 ms on a beep encoded alone, and by ffmpeg's own AAC encoder too,
 * which its muxers make up for by starting the sound that much earlier). The live inputs' sound is
 * stamped that much earlier (inputs/input-set.ts, `audioLeadNs`): a negative offset here, after the
 * mixer, moved the segment of a stream that starts at running time 0, and flvmux then wrote the
 * program without its sound.
 */
export const AAC_PRIMING_NS = Math.round((1024 / 48_000) * 1e9);

/**
 * The program's sound: a live silence on the mixer (so it never waits for a source), one AAC
 * encode, a tee for the vertical muxer and the recording, and the outputs' muxer (built with the
 * video first). Inputs' sound joins and leaves the running mixer (inputs/).
 */
export function buildProgramAudio(gst: GstPipeline, profile: OutputProfile): GstElement {
  const silence = [
    makeElement('audiotestsrc', 'silence', { 'is-live': true, wave: 'silence' }),
    makeElement('capsfilter', 'silence-caps', { caps: MIXER_AUDIO_CAPS }),
  ];
  const mixer = makeElement('audiomixer', 'mixer');
  const chain = [
    mixer,
    makeElement('capsfilter', 'mixer-caps', { caps: MIXER_AUDIO_CAPS }),
    makeElement('audioconvert', 'encoder-convert'),
    makeElement('audioresample', 'encoder-resample'),
    makeElement('avenc_aac', 'audio-encoder', { bitrate: profile.audioBitrateKbps * 1000 }),
    makeElement('aacparse', 'aac-parse'),
    makeElement('tee', 'audio-encoded', { 'allow-not-linked': true }),
    makeElement('queue', 'audio-mux-queue', { 'max-size-buffers': 0, 'max-size-bytes': 0, 'max-size-time': 2_000_000_000 }),
  ];
  for (const element of [...silence, ...chain]) gst.add(element);
  linkChain(silence);
  linkChain(chain);
  linkPads(staticPad(silence[1]!, 'src'), requestPad(mixer, 'sink_%u'));
  const mux = gst.bin.getByName('mux');
  if (!mux) throw new Error('build the video branch first');
  linkPads(staticPad(chain[chain.length - 1]!, 'src'), requestPad(mux, 'audio'));
  return mixer;
}
