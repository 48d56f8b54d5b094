import { JITTER_LATENCY_DEFAULT_MS, type PlanInput } from '@onair/protocol';
import { makeChainBin, makeElement } from '../../gst/elements.ts';
import type { GstElement } from '../../gst/gst.ts';
import { imageBin } from './image.ts';
import { MIXER_AUDIO_CAPS, type SourceBins, type SourceBuilder } from './source.ts';

type RtpInput = Extract<PlanInput, { kind: 'rtp' }>;

/**
 * Never a broken picture on air (issue 53): after a lost packet (a gap in the sequence numbers, or
 * the jitter buffer's lost event when it gives up on one) the depayloader drops every frame until
 * the next keyframe, so the decoder never decodes a picture whose data or references are missing,
 * nothing reaches the compositor, and its pad shows the last good picture meanwhile; its first
 * picture is a decoded keyframe too. The keyframe itself is asked for outside the pipeline: the
 * forwarder sees the same gap (or the worker's look at the jitter buffer's losses, or a decoder's
 * warning, reports keyframeWanted), and the sender is sent a PLI. (The depayloader's own
 * `request-keyframe` sends an upstream event that udpsrc would drop.)
 */
const WHOLE_PICTURES = { 'wait-for-keyframe': true };
/**
 * A decoder that fails on damaged data says so (a bus warning, for which a keyframe is asked) and
 * goes on with the next frame: by default ten errors in a row stop the feed's streaming thread for
 * good, and the source showed its placeholder until it was removed.
 */
const DECODE_ON = { 'max-errors': -1 };

/**
 * A track that the WebRTC endpoint or an ingest forwards as RTP over loopback UDP: one feed per
 * encoding it decodes (VP8, H.264), each on its own port, so a browser may send either without a
 * rebuild. Nothing arrives until a peer sends; the placeholder picture covers that. The sender is
 * expected to ask its peer for a keyframe when it starts forwarding (Chromium sends none by itself).
 * The jitter buffers start at the default latency; the program sets the one the worker measured
 * (Program.setJitterLatency).
 */
export const buildRtp: SourceBuilder<RtpInput> = (input, profile, name) => {
  const bins: SourceBins = { video: [] };
  if (input.video) {
    const { keyColor, placeholder } = input.video;
    for (const { encoding, port, payloadType } of input.video.codecs) {
      const feed = `${name}-${encoding.toLowerCase()}`;
      const decode: GstElement[] =
        encoding === 'VP8'
          ? [makeElement('rtpvp8depay', `${feed}-depay`, WHOLE_PICTURES), makeElement('vp8dec', `${feed}-dec`, DECODE_ON)]
          : [
              // Its wait for a keyframe works on whole access units, which it puts out here (avc, au:
              // what h264parse takes first). Forcing byte-stream instead gave wrong colours.
              makeElement('rtph264depay', `${feed}-depay`, WHOLE_PICTURES),
              makeElement('h264parse', `${feed}-parse`),
              makeElement('avdec_h264', `${feed}-dec`, { ...DECODE_ON, 'output-corrupt': false }),
            ];
      const bin = makeChainBin(
        `${feed}-video`,
        [
          makeElement('udpsrc', `${feed}-udp`, {
            address: '127.0.0.1',
            port,
            caps: `application/x-rtp,media=video,clock-rate=90000,encoding-name=${encoding},payload=${payloadType}`,
          }),
          makeElement('rtpjitterbuffer', `${feed}-jitter`, { latency: JITTER_LATENCY_DEFAULT_MS, 'do-lost': true }),
          ...decode,
          // Tells the worker when a picture came out of the decoder (its last message, read from JS).
          makeElement('identity', `${feed}-pictures`, { silent: false, 'signal-handoffs': false }),
          makeElement('videoconvert', `${feed}-conv`),
          ...(keyColor ? [makeElement('alpha', `${feed}-key`, { method: keyColor })] : []),
          makeElement('queue', `${feed}-queue`, { 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0, leaky: 'downstream' }),
        ],
        { src: true },
      );
      bins.video.push({ bin, jitter: `${feed}-jitter`, pictures: `${feed}-pictures` });
    }
    if (placeholder) bins.placeholder = imageBin(input.id, placeholder, profile, `${name}-placeholder`);
  }
  if (input.audio) {
    const { port, payloadType } = input.audio;
    bins.audioJitter = `${name}-ajitter`;
    bins.audio = makeChainBin(
      `${name}-audio`,
      [
        makeElement('udpsrc', `${name}-audp`, {
          address: '127.0.0.1',
          port,
          caps: `application/x-rtp,media=audio,clock-rate=48000,encoding-name=OPUS,payload=${payloadType}`,
        }),
        makeElement('rtpjitterbuffer', `${name}-ajitter`, { latency: JITTER_LATENCY_DEFAULT_MS }),
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
