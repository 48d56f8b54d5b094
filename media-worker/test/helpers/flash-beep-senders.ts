/**
 * The flash + beep source (av-sync.ts) sent into a session's rtp input by each way a feed reaches a
 * pipeline, for the lip-sync test and bench:
 * - `webrtc`: as a browser sends a camera and its microphone: VP8 and Opus encoded live, RTP with
 *   RTCP sender reports (GStreamer's rtpbin: both tracks' reports on one clock, as a browser's),
 *   each track through the worker's RtpForwarder with the participant's LipSync, as StudioPeer
 *   wires them (the WebRTC transport itself, DTLS/SRTP, is werift's and does not touch timing).
 * - `ingest`: as an encoder publishes to the RTMP ingest: H.264 + AAC over RTMP to nginx-rtmp,
 *   pulled by the worker's IngestRelay (ffmpeg: H.264 copied, audio to Opus) into the input's ports.
 * Both start the source in real time; stop() ends every process and socket they made.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { setPriority } from 'node:os';
import pino from 'pino';
import { RtcpPacketConverter, RtpPacket } from 'werift';
import { IngestRelay } from '../../src/ingest/ingest-relay.ts';
import { LipSync } from '../../src/webrtc/lip-sync.ts';
import { PIPELINE_PAYLOAD_TYPES } from '../../src/webrtc/media-ports.ts';
import { RtpForwarder } from '../../src/webrtc/rtp-forwarder.ts';
import { flashBeepInputs } from './av-sync.ts';

export interface InputPorts {
  vp8: number;
  h264: number;
  audio: number;
}

export interface FlashBeepSender {
  stop(): void;
  /** What its processes said on stderr (for a failing test's message). */
  stderr(): string;
}

const SOURCE = { width: 640, height: 360, fps: 30 };

async function bound(onMessage: (message: Buffer) => void): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', onMessage);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}
const portOf = (socket: Socket) => (socket.address() as AddressInfo).port;

/** A browser-like sender: live VP8 + Opus with sender reports, through RtpForwarders sharing one LipSync. */
export async function sendWebrtc(ports: InputPorts): Promise<FlashBeepSender & { forwarders: RtpForwarder[] }> {
  const out = createSocket('udp4');
  const sync = new LipSync();
  const forwarder = (kind: 'video' | 'audio') =>
    new RtpForwarder({
      type: kind === 'video' ? 'camera' : 'microphone',
      kind,
      encodings: new Map([kind === 'video' ? [PIPELINE_PAYLOAD_TYPES.VP8, 'VP8'] : [PIPELINE_PAYLOAD_TYPES.OPUS, 'OPUS']]),
      socket: out,
      // The encoder sends a keyframe a second by itself; a request changes nothing here.
      sendPli: () => undefined,
      sync: { clock: sync, stream: kind === 'video' ? 'camera' : 'microphone', clockRate: kind === 'video' ? 90_000 : 48_000 },
    });
  const video = forwarder('video');
  const audio = forwarder('audio');
  video.setTargets([{ VP8: ports.vp8 }]);
  audio.setTargets([{ OPUS: ports.audio }]);
  const rtcp = (f: RtpForwarder) => (message: Buffer) => {
    for (const packet of RtcpPacketConverter.deSerialize(message)) f.onRtcp(packet);
  };
  const sockets = [
    await bound((m) => video.onRtp(RtpPacket.deSerialize(m))),
    await bound(rtcp(video)),
    await bound((m) => audio.onRtp(RtpPacket.deSerialize(m))),
    await bound(rtcp(audio)),
  ];
  const [vRtp, vRtcp, aRtp, aRtcp] = sockets.map(portOf) as [number, number, number, number];
  // The source as raw frames and samples in Matroska (no codec delay), encoded live by GStreamer.
  // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
  const source = spawn('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', ...flashBeepInputs(SOURCE),
    '-c:v', 'rawvideo', '-pix_fmt', 'yuv420p', '-c:a', 'pcm_s16le', '-ac', '2', '-f', 'matroska', 'pipe:1',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  const udp = (port: number, sync: boolean) => `udpsink host=127.0.0.1 port=${port} sync=${sync} async=false`;
  const description = [
    'rtpbin name=r fdsrc fd=0 ! matroskademux name=d',
    'd.video_0 ! queue ! videoconvert ! vp8enc deadline=1 cpu-used=8 threads=1 keyframe-max-dist=30 target-bitrate=800000 ! rtpvp8pay pt=96 mtu=1200 ! r.send_rtp_sink_0',
    `r.send_rtp_src_0 ! ${udp(vRtp, true)} r.send_rtcp_src_0 ! ${udp(vRtcp, false)}`,
    'd.audio_0 ! queue ! audioconvert ! audioresample ! audio/x-raw,rate=48000,channels=2 ! opusenc frame-size=20 ! rtpopuspay pt=111 ! r.send_rtp_sink_1',
    `r.send_rtp_src_1 ! ${udp(aRtp, true)} r.send_rtcp_src_1 ! ${udp(aRtcp, false)}`,
  ].join(' ');
  const encoder = spawn('gst-launch-1.0', ['-q', ...description.split(' ')], { stdio: ['pipe', 'ignore', 'pipe'] });
  ahead([source, encoder]);
  source.stdout.pipe(encoder.stdin);
  encoder.stdin.on('error', () => undefined);
  const logs = collect([source, encoder]);
  return {
    forwarders: [video, audio],
    stop: () => {
      source.kill('SIGKILL');
      encoder.kill('SIGKILL');
      for (const socket of [...sockets, out]) socket.close();
    },
    stderr: logs,
  };
}

/** An encoder publishing to the RTMP ingest at `publishUrl`, pulled by the worker's IngestRelay from `pullUrl`. */
export async function sendIngest(ports: InputPorts, publishUrl: string, pullUrl: string): Promise<FlashBeepSender> {
  // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
  const publisher = spawn('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', ...flashBeepInputs(SOURCE),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-bf', '0', '-pix_fmt', 'yuv420p', '-b:v', '1000k',
    '-c:a', 'aac', '-ar', '48000', '-ac', '2', '-b:a', '128k', '-f', 'flv', publishUrl,
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  ahead([publisher]);
  const logs = collect([publisher]);
  // The worker pulls once the publish is there (nginx-rtmp refuses a player before it).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const relay = new IngestRelay({ pullUrl, logger: pino({ level: 'warn' }), onFeed: () => undefined });
  relay.setTargets([{ video: ports.h264, audio: ports.audio }]);
  await relay.start();
  return {
    stop: () => {
      relay.stop();
      publisher.kill('SIGKILL');
    },
    stderr: logs,
  };
}

/**
 * The sender stands for another machine (a browser, an encoder): its frames must leave on time
 * whatever the worker does on this one, or a frame it encodes late reads as the worker's lip-sync
 * error (seen at load 6-9: flashes 120-250 ms after their beeps). So its processes run at a higher
 * priority than the worker's (root may raise it; elsewhere they keep the default).
 */
function ahead(children: ChildProcess[]): void {
  for (const child of children) {
    try {
      if (child.pid !== undefined) setPriority(child.pid, -10);
    } catch {
      // Not allowed to raise a priority here: the sender runs as it is.
    }
  }
}

function collect(children: ChildProcess[]): () => string {
  let text = '';
  for (const child of children) child.stderr?.on('data', (d: Buffer) => (text = (text + d.toString()).slice(-4000)));
  return () => text.trim();
}
