import type { OutputProfile } from '@onair/protocol';
import { linkChain, linkPads, makeElement, requestPad, staticPad } from '../../gst/elements.ts';
import type { GstElement } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';
import { MIXER_AUDIO_CAPS } from '../sources/index.ts';

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
