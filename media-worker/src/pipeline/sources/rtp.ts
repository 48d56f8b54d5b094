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
          ? [makeElement('rtpvp8depay', `${feed}-depay`), makeElement('vp8dec', `${feed}-dec`)]
          : [makeElement('rtph264depay', `${feed}-depay`), makeElement('h264parse', `${feed}-parse`), makeElement('avdec_h264', `${feed}-dec`)];
      const bin = makeChainBin(
        `${feed}-video`,
        [
          makeElement('udpsrc', `${feed}-udp`, {
            address: '127.0.0.1',
            port,
            caps: `application/x-rtp,media=video,clock-rate=90000,encoding-name=${encoding},payload=${payloadType}`,
          }),
          makeElement('rtpjitterbuffer', `${feed}-jitter`, { latency: JITTER_LATENCY_DEFAULT_MS }),
          ...decode,
          makeElement('capsfilter', `${feed}-colorimetry`, { caps: RTP_DECODED_CAPS }),
          makeElement('videoconvert', `${feed}-conv`),
          ...(keyColor ? [makeElement('alpha', `${feed}-key`, { method: keyColor })] : []),
          makeElement('queue', `${feed}-queue`, { 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0, leaky: 'downstream' }),
        ],
        { src: true },
      );
      bins.video.push({ bin, jitter: `${feed}-jitter` });
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
