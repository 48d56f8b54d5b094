import type { PlanInput } from '@onair/protocol';
import { makeChainBin, makeElement } from '../../gst/elements.ts';
import type { GstElement } from '../../gst/gst.ts';
import { MIXER_AUDIO_CAPS, type SourceBins, type SourceBuilder } from './source.ts';

type RtpInput = Extract<PlanInput, { kind: 'rtp' }>;

/** Jitter buffer latency: enough for loopback and a LAN-grade WebRTC leg without adding much delay. */
const JITTER_MS = 150;

/**
 * A track that the WebRTC endpoint or an ingest forwards as RTP over loopback UDP. Nothing arrives
 * until a peer sends, and the compositor's live background covers that; the sender is expected to
 * ask its peer for a keyframe when it starts forwarding (Chromium sends none by itself).
 */
export const buildRtp: SourceBuilder<RtpInput> = (input, _profile, name) => {
  const bins: SourceBins = {};
  if (input.video) {
    const { port, encoding, payloadType } = input.video;
    const decode: GstElement[] =
      encoding === 'VP8'
        ? [makeElement('rtpvp8depay', `${name}-depay`), makeElement('vp8dec', `${name}-dec`)]
        : [makeElement('rtph264depay', `${name}-depay`), makeElement('h264parse', `${name}-parse`), makeElement('avdec_h264', `${name}-dec`)];
    bins.video = makeChainBin(
      `${name}-video`,
      [
        makeElement('udpsrc', `${name}-vudp`, {
          address: '127.0.0.1',
          port,
          caps: `application/x-rtp,media=video,clock-rate=90000,encoding-name=${encoding},payload=${payloadType}`,
        }),
        makeElement('rtpjitterbuffer', `${name}-vjitter`, { latency: JITTER_MS }),
        ...decode,
        makeElement('videoconvert', `${name}-vconv`),
        ...(input.video.keyColor ? [makeElement('alpha', `${name}-key`, { method: input.video.keyColor })] : []),
        makeElement('queue', `${name}-vqueue`, { 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0, leaky: 'downstream' }),
      ],
      { src: true },
    );
  }
  if (input.audio) {
    const { port, payloadType } = input.audio;
    bins.audio = makeChainBin(
      `${name}-audio`,
      [
        makeElement('udpsrc', `${name}-audp`, {
          address: '127.0.0.1',
          port,
          caps: `application/x-rtp,media=audio,clock-rate=48000,encoding-name=OPUS,payload=${payloadType}`,
        }),
        makeElement('rtpjitterbuffer', `${name}-ajitter`, { latency: JITTER_MS }),
        makeElement('rtpopusdepay', `${name}-adepay`),
        makeElement('opusdec', `${name}-adec`),
        makeElement('audioconvert', `${name}-aconv`),
        makeElement('audioresample', `${name}-ares`),
        makeElement('capsfilter', `${name}-acaps`, { caps: MIXER_AUDIO_CAPS }),
        makeElement('queue', `${name}-aqueue`, { 'max-size-time': 200_000_000, 'max-size-buffers': 0, 'max-size-bytes': 0, leaky: 'downstream' }),
      ],
      { src: true },
    );
  }
  return bins;
};
