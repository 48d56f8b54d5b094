import { JITTER_LATENCY_DEFAULT_MS, type PlanInput } from '@onair/protocol';
import { makeChainBin, makeElement } from '../../gst/elements.ts';
import type { GstElement } from '../../gst/gst.ts';
import { imageBin } from './image.ts';
import { MIXER_AUDIO_CAPS, type SourceBins, type SourceBuilder } from './source.ts';

type RtpInput = Extract<PlanInput, { kind: 'rtp' }>;

/**
 * A decoded picture's colour space when its stream says none: BT.601, limited range. WebRTC
 * senders (Chromium's camera in VP8 and in H.264), libvpx and ffmpeg's H.264 encode in it and tag
 * nothing (VP8 has no tag: its spec says BT.601), and Chromium shows untagged pictures so. Left
 * unsaid, GStreamer guesses from the size (BT.709 from 720 lines up) and the compositor took a
 * 1280×720 camera's BT.601 values for BT.709 ones: greens darkened, (0,182,0) came out (0,153,0).
 * The second structure passes a stream that says what it is (H.264 with a VUI colour description,
 * as OBS and GStreamer's x264enc write) unchanged: caps without colorimetry fixate to the first.
 */
export const RTP_DECODED_CAPS = 'video/x-raw,colorimetry=bt601;video/x-raw';
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
    const { keyColor, placeholder, placeholderLabel } = input.video;
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
          makeElement('capsfilter', `${feed}-colorimetry`, { caps: RTP_DECODED_CAPS }),
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
    if (placeholder) bins.placeholder = imageBin(input.id, placeholder, profile, `${name}-placeholder`, placeholderLabel);
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
