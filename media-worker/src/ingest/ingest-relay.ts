import { createSocket, type Socket } from 'node:dgram';
import { SUPPORTED_INGEST_VIDEO_CODECS, type IngestFeed } from '@onair/protocol';
import { TetheredProcess, type Logger } from '@onair/runtime';
import { LipSync, ntpToMs } from '../webrtc/lip-sync.ts';
import { PIPELINE_PAYLOAD_TYPES } from '../webrtc/media-ports.ts';
import { FeedInfoReader, type FeedInfo } from './feed-info.ts';

/** Where one game source takes the feed: its H.264 video port and its Opus audio port. */
export interface RelayTarget {
  video: number;
  audio: number;
}

export interface IngestRelayOptions {
  /** `rtmp://host:port/<app>/<stream>` on the ingest server (the renamed stream: no key in it). */
  pullUrl: string;
  logger: Logger;
  /** Called about once a second while the relay runs, and on every change of state. */
  onFeed: (feed: IngestFeed) => void;
  /** No video packet for this long while pulling: the feed is reported stalled (byte watchdog). */
  stallAfterMs?: number;
  /** ffmpeg binary (the system one). */
  ffmpeg?: string;
}

export const DEFAULT_INGEST_STALL_MS = 3000;

type Track = 'video' | 'audio';
const CLOCK_RATES: Record<Track, number> = { video: 90_000, audio: 48_000 };
const RETRY_MS = [500, 1000, 2000, 3000];

/**
 * Pulls one accepted RTMP feed from the ingest server and hands it to the session's pipeline as
 * RTP on loopback, the way WebRTC tracks arrive: H.264 copied as it came (no decode, no re-encode
 * here; SPS/PPS repeated before each keyframe so a decoder may join at any keyframe) and the audio
 * as Opus, into the ports of every game source of the session. ffmpeg runs in a process of its own
 * (a feed that breaks it takes nothing else down; tethered, so it dies with the worker however the
 * worker dies) and sends to sockets of this relay, which fans the packets out, counts bytes and
 * frames (bitrate, measured fps) and notices a feed that stalls without closing. A feed in a codec the pipeline cannot decode is reported `unsupported` and not
 * pulled again until the publish changes.
 *
 * Lip sync (issue 53 item 4): the pipeline times each RTP stream from its own first packet, and the
 * sound comes out of ffmpeg later than the picture (decoded, then encoded to Opus 20 ms at a time),
 * by an amount that changed from one pull to the next: the program's sound was -25 to +48 ms off
 * its picture from run to run. Both RTP outputs are given one wall-clock time for the feed's
 * timestamp 0 (`-start_time_realtime`), so their RTCP sender reports map both streams onto one
 * timeline, and the relay holds the stream that arrives sooner by the difference in transit, as the
 * WebRTC forwarder does with a browser's reports (LipSync).
 */
export class IngestRelay {
  private targets: RelayTarget[] = [];
  private video: Socket | undefined;
  private audio: Socket | undefined;
  /** Where ffmpeg sends each stream's RTCP sender reports. */
  private reports: Socket[] = [];
  private readonly sync = new LipSync();
  /** The latest sender report of each stream: RTP timestamp ↔ the feed's wall-clock time. */
  private readonly mapping: Partial<Record<Track, { ntpMs: number; rtp: number }>> = {};
  private child: TetheredProcess | undefined;
  private reader = new FeedInfoReader();
  private info: FeedInfo = new FeedInfoReader().current;
  private stopped = false;
  private unsupported = false;
  private attempts = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private reportTimer: NodeJS.Timeout | undefined;
  private lastVideoAt = 0;
  private bytes = 0;
  private frames = 0;
  private lastReportAt = Date.now();
  private readonly stallAfterMs: number;

  constructor(private readonly options: IngestRelayOptions) {
    this.stallAfterMs = options.stallAfterMs ?? DEFAULT_INGEST_STALL_MS;
  }

  setTargets(targets: RelayTarget[]): void {
    this.targets = targets;
  }

  async start(): Promise<void> {
    const video = await bindLoopback((msg) => this.onVideo(msg));
    const audio = await bindLoopback((msg) => this.onAudio(msg));
    const reports = [await bindLoopback((msg) => this.onReport('video', msg)), await bindLoopback((msg) => this.onReport('audio', msg))];
    if (this.stopped) {
      // Stopped while binding (the publish changed at once): nothing was started.
      for (const socket of [video, audio, ...reports]) socket.close();
      return;
    }
    this.video = video;
    this.audio = audio;
    this.reports = reports;
    this.reportTimer = setInterval(() => this.report(), 1000);
    this.reportTimer.unref();
    this.launch();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.reportTimer) clearInterval(this.reportTimer);
    this.child?.signal('SIGKILL');
    this.video?.close();
    this.audio?.close();
    for (const socket of this.reports) socket.close();
  }

  private launch(): void {
    if (this.stopped || this.unsupported) return;
    const videoPort = this.video!.address().port;
    const audioPort = this.audio!.address().port;
    const [videoReports, audioReports] = this.reports.map((socket) => socket.address().port) as [number, number];
    this.reader = new FeedInfoReader();
    // Each pull maps its timestamps afresh (ffmpeg starts its RTP timestamps anywhere).
    delete this.mapping.video;
    delete this.mapping.audio;
    this.sync.forget('video');
    this.sync.forget('audio');
    // One wall-clock time for timestamp 0 in both outputs: their sender reports then agree (see the class comment).
    const zeroUs = String(Date.now() * 1000);
    // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
    const args = [
      '-hide_banner', '-nostdin', '-nostats', '-loglevel', 'info',
      // A feed that stops sending makes the read fail after 5 s instead of hanging.
      '-rw_timeout', '5000000',
      '-fflags', 'nobuffer', '-analyzeduration', '1000000', '-probesize', '1000000',
      '-i', this.options.pullUrl,
      '-map', '0:v:0', '-c:v', 'copy', '-bsf:v', 'h264_mp4toannexb',
      '-start_time_realtime', zeroUs,
      '-f', 'rtp', '-payload_type', String(PIPELINE_PAYLOAD_TYPES.H264), `rtp://127.0.0.1:${videoPort}?pkt_size=1200&rtcpport=${videoReports}`,
      '-map', '0:a:0?', '-c:a', 'libopus', '-b:a', '128k', '-ar', '48000', '-ac', '2', '-application', 'audio',
      '-start_time_realtime', zeroUs,
      '-f', 'rtp', '-payload_type', String(PIPELINE_PAYLOAD_TYPES.OPUS), `rtp://127.0.0.1:${audioPort}?pkt_size=1200&rtcpport=${audioReports}`,
    ];
    const child = new TetheredProcess(this.options.ffmpeg ?? 'ffmpeg', args, {
      onLine: (line) => {
        if (!this.reader.line(line) || !this.reader.videoKnown) return;
        this.info = this.reader.current;
        const codec = this.info.videoCodec;
        if (codec && !(SUPPORTED_INGEST_VIDEO_CODECS as readonly string[]).includes(codec) && !this.unsupported) {
          this.unsupported = true;
          this.options.logger.warn({ codec }, 'ingest feed in an unsupported codec: not pulled');
          child.signal('SIGKILL');
          this.report();
        }
      },
    });
    this.child = child;
    void child.exited.then(({ code, signal }) => {
      if (this.child !== child) return;
      this.child = undefined;
      // 127: the shell that starts it found no ffmpeg.
      if (code === 127) this.options.logger.error({ stderr: child.stderrTail }, 'ffmpeg could not start for the ingest');
      if (this.stopped || this.unsupported) return;
      // The publish is still current (the session closes the relay when it ends): pull again.
      const delay = RETRY_MS[Math.min(this.attempts, RETRY_MS.length - 1)]!;
      this.attempts += 1;
      this.options.logger.info({ code, signal, retryInMs: delay }, 'ingest pull ended; pulling again');
      this.retryTimer = setTimeout(() => this.launch(), delay);
    });
  }

  private onVideo(msg: Buffer): void {
    if (msg.length < 12) return;
    this.lastVideoAt = Date.now();
    this.attempts = 0;
    this.bytes += msg.length;
    // The marker bit closes a frame: counting them gives the frame rate that arrives.
    if ((msg[1]! & 0x80) !== 0) this.frames += 1;
    this.forward('video', msg);
  }

  private onAudio(msg: Buffer): void {
    if (msg.length < 12) return;
    this.bytes += msg.length;
    this.forward('audio', msg);
  }

  /** To every target's port of that track, after the lip-sync hold. */
  private forward(track: Track, msg: Buffer): void {
    const socket = track === 'video' ? this.video : this.audio;
    const send = () => {
      // A packet held back may come due after the relay stopped and closed its socket: dropped.
      if (this.stopped) return;
      for (const target of this.targets) socket?.send(msg, target[track], '127.0.0.1');
    };
    const delayMs = this.holdFor(track, msg.readUInt32BE(4));
    if (delayMs >= 5) setTimeout(send, delayMs);
    else send();
  }

  /** Records this packet's transit (arrival minus its time on the feed's clock) and returns how long to hold its track. */
  private holdFor(track: Track, timestamp: number): number {
    const mapping = this.mapping[track];
    if (!mapping) return 0;
    const now = Date.now();
    // Signed 32-bit difference: packets just before the report have a negative offset.
    const capturedMs = mapping.ntpMs + (((timestamp - mapping.rtp) | 0) * 1000) / CLOCK_RATES[track];
    this.sync.record(track, now - capturedMs, now);
    return this.sync.delayFor(track);
  }

  /** An RTCP packet from ffmpeg: a sender report (first in its compound packet) maps the track's timestamps. */
  private onReport(track: Track, msg: Buffer): void {
    if (msg.length < 20 || msg[1] !== 200) return;
    this.mapping[track] = { ntpMs: ntpToMs(msg.readBigUInt64BE(8)), rtp: msg.readUInt32BE(16) };
  }

  private report(): void {
    const now = Date.now();
    const seconds = Math.max(0.001, (now - this.lastReportAt) / 1000);
    const bitrateKbps = Math.round((this.bytes * 8) / 1000 / seconds);
    const fps = this.frames > 0 ? Math.round((this.frames / seconds) * 10) / 10 : null;
    this.bytes = 0;
    this.frames = 0;
    this.lastReportAt = now;
    const flowing = this.lastVideoAt > 0 && now - this.lastVideoAt < this.stallAfterMs;
    const state: IngestFeed['state'] = this.unsupported ? 'unsupported' : this.lastVideoAt === 0 ? 'starting' : flowing ? 'flowing' : 'stalled';
    this.options.onFeed({
      state,
      videoCodec: this.info.videoCodec,
      audioCodec: this.info.audioCodec,
      width: this.info.width,
      height: this.info.height,
      fps: fps ?? (flowing ? this.info.fps : 0),
      bitrateKbps,
      at: new Date(now).toISOString(),
    });
  }
}

async function bindLoopback(onMessage: (msg: Buffer) => void): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', onMessage);
  // A send to a port nobody listens on yet (a pipeline starting) is not an error worth a crash.
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return socket;
}
