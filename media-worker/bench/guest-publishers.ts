/**
 * The publishers of guests-bench.ts, in a process of their own so their CPU is not counted as the
 * worker's: werift peers that each send a camera (VP8 or H.264, 640×360 at 30 fps unless BENCH_GUEST_SIZE says otherwise) and a microphone
 * (Opus), as a guest's browser does (BENCH_GUEST_SIZE=320x180 sends what the studio now sends a guest in a
 * grid tile, see cameraSendSize). The pictures are encoded once per codec by a GStreamer pipeline
 * (moving SMPTE bars, realtime VP8 and x264 zerolatency, a keyframe a second) and each RTP packet
 * is written into every peer of that codec, so eleven publishers cost two encoders, not eleven
 * (a machine of two cores cannot encode eleven cameras beside the worker it measures). A flash turns
 * the bars white in every picture at once; the bench times when each tile turns white in the output.
 *
 * Messages (IPC, from the bench): { type: 'offer', codecs } → { type: 'offers', offers };
 * { type: 'answers', answers } → { type: 'connected' }; { type: 'flash', on } → { type: 'flashed', at }
 * (Date.now() when the pattern changed); { type: 'stop' }.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, useNACK, usePLI } from 'werift';
import { loadGst } from '../src/gst/gst.ts';
import { GstPipeline } from '../src/gst/pipeline.ts';

export type GuestCodec = 'VP8' | 'H264';
export type PublisherRequest =
  | { type: 'offer'; codecs: GuestCodec[] }
  | { type: 'answers'; answers: string[] }
  | { type: 'flash'; on: boolean }
  | { type: 'stop' };
export interface PublisherOffer {
  sdp: string;
  tracks: { mid: string; type: 'camera' | 'microphone' }[];
}
export type PublisherReply =
  | { type: 'offers'; offers: PublisherOffer[] }
  | { type: 'connected' }
  | { type: 'flashed'; at: number }
  | { type: 'error'; message: string };

const send = (reply: PublisherReply): void => void process.send?.(reply);

const VIDEO_CODECS: Record<GuestCodec, RTCRtpCodecParameters> = {
  VP8: new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90_000, payloadType: 96, rtcpFeedback: [useNACK(), usePLI()] }),
  H264: new RTCRtpCodecParameters({
    mimeType: 'video/H264',
    clockRate: 90_000,
    payloadType: 102,
    rtcpFeedback: [useNACK(), usePLI()],
    parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
  }),
};
const OPUS = new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2, payloadType: 111 });

/** Now as a 64-bit NTP timestamp (seconds since 1900 in the high word, the fraction of a second in the low). */
function ntpNow(): bigint {
  const ms = performance.timeOrigin + performance.now() - Date.UTC(1900, 0, 1);
  const seconds = Math.floor(ms / 1000);
  return (BigInt(seconds) << 32n) | BigInt(Math.floor(((ms - seconds * 1000) / 1000) * 2 ** 32));
}

/**
 * werift 0.25.2's sender reports carry a wrong NTP time: its ntpTime() writes the decimal digits of
 * the second's fraction as the fraction field (".625" becomes 625 / 2^32 s), so each report is
 * 0–1 s early, differently for each track. The worker's lip-sync (LipSync) compares the two tracks'
 * capture times from these reports and held every camera here by its 400 ms ceiling. A real browser
 * reports right (the Chromium webrtc-bench holds nothing), so the publishers here send what it would:
 * the time each packet went out, paired with its RTP timestamp, as werift means to. (The worker's own
 * senders carry video alone, which no receiver syncs against anything.)
 */
function correctSenderReports(sender: object): void {
  const fields = sender as { dispatchRtp(rtp: unknown): Promise<void>; packetCount: number; ntpTimestamp: bigint };
  const dispatch = fields.dispatchRtp.bind(sender);
  fields.dispatchRtp = (rtp) => {
    const at = ntpNow();
    const before = fields.packetCount;
    // The report's pair is set in the call's synchronous part, with the packet count.
    const sent = dispatch(rtp);
    if (fields.packetCount !== before) fields.ntpTimestamp = at;
    return sent;
  };
}

/** A UDP socket on loopback that the encoders send RTP to; every packet goes to each listener. */
async function rtpSink(): Promise<{ socket: Socket; port: number; listeners: ((packet: Buffer) => void)[] }> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const sink = { socket, port: (socket.address() as AddressInfo).port, listeners: [] as ((packet: Buffer) => void)[] };
  socket.on('message', (packet) => {
    for (const listener of sink.listeners) listener(packet);
  });
  return sink;
}

async function main(): Promise<void> {
  const [vp8, h264, opus] = [await rtpSink(), await rtpSink(), await rtpSink()];
  const sinks: Record<GuestCodec, typeof vp8> = { VP8: vp8, H264: h264 };
  const gst = loadGst();
  const pipeline = new GstPipeline('guest-publishers', { onError: (e) => send({ type: 'error', message: `${e.source.join('/')}: ${e.message}` }) });
  // BENCH_GUEST_SIZE: the picture each publisher sends (640x360 by default, as issue 41 asks).
  const [width, height] = (process.env.BENCH_GUEST_SIZE ?? '640x360').split('x').map(Number);
  const video = `video/x-raw,width=${width},height=${height},framerate=30/1`;
  const description = [
    `videotestsrc name=bars is-live=true pattern=smpte75 horizontal-speed=4 ! ${video} ! tee name=t`,
    `t. ! queue ! vp8enc deadline=1 cpu-used=8 threads=1 keyframe-max-dist=30 target-bitrate=800000 error-resilient=partitions ! rtpvp8pay pt=96 mtu=1200 ! udpsink host=127.0.0.1 port=${vp8.port} sync=false async=false`,
    `t. ! queue ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=30 bitrate=800 threads=1 ! video/x-h264,profile=constrained-baseline ! rtph264pay pt=102 mtu=1200 config-interval=-1 aggregate-mode=zero-latency ! udpsink host=127.0.0.1 port=${h264.port} sync=false async=false`,
    `audiotestsrc is-live=true wave=sine freq=440 ! audio/x-raw,rate=48000,channels=2 ! opusenc frame-size=20 ! rtpopuspay pt=111 ! udpsink host=127.0.0.1 port=${opus.port} sync=false async=false`,
  ].join(' ');
  const bin = gst.parseBinFromDescription(description, false);
  pipeline.add(bin);
  const bars = bin.getByName('bars');
  if (!bars) throw new Error('no test source');
  pipeline.play();

  const peers: RTCPeerConnection[] = [];
  process.on('message', (request: PublisherRequest) => {
    void (async () => {
      switch (request.type) {
        case 'offer': {
          const offers: PublisherOffer[] = [];
          for (const codec of request.codecs) {
            const pc = new RTCPeerConnection({ codecs: { video: [VIDEO_CODECS[codec]], audio: [OPUS] } });
            peers.push(pc);
            const camera = new MediaStreamTrack({ kind: 'video' });
            const microphone = new MediaStreamTrack({ kind: 'audio' });
            const v = pc.addTransceiver(camera, { direction: 'sendonly' });
            const a = pc.addTransceiver(microphone, { direction: 'sendonly' });
            correctSenderReports(v.sender);
            correctSenderReports(a.sender);
            sinks[codec].listeners.push((packet) => camera.writeRtp(packet));
            opus.listeners.push((packet) => microphone.writeRtp(packet));
            await pc.setLocalDescription(await pc.createOffer());
            await new Promise<void>((resolve) => {
              if (pc.iceGatheringState === 'complete') return resolve();
              pc.iceGatheringStateChange.subscribe((state) => state === 'complete' && resolve());
            });
            offers.push({
              sdp: pc.localDescription!.sdp,
              tracks: [
                { mid: v.mid!, type: 'camera' },
                { mid: a.mid!, type: 'microphone' },
              ],
            });
          }
          send({ type: 'offers', offers });
          break;
        }
        case 'answers':
          await Promise.all(request.answers.map((sdp, i) => peers[i]!.setRemoteDescription({ type: 'answer', sdp })));
          send({ type: 'connected' });
          break;
        case 'flash':
          gst.utilSetObjectArg(bars, 'pattern', request.on ? 'white' : 'smpte75');
          send({ type: 'flashed', at: Date.now() });
          break;
        case 'stop':
          await Promise.all(peers.map((pc) => pc.close()));
          pipeline.stop();
          for (const sink of [vp8, h264, opus]) sink.socket.close();
          process.exit(0);
      }
    })().catch((error: unknown) => send({ type: 'error', message: String(error) }));
  });
}

await main();
