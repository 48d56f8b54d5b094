import type { Socket } from 'node:dgram';
import type { RtcpPacket, RtpPacket } from 'werift';
import type { TrackType } from '@onair/protocol';
import { ArrivalLateness } from './arrival-lateness.ts';
import { ntpToMs, type LipSync } from './lip-sync.ts';
import { startsKeyframe } from './keyframes.ts';
import { PIPELINE_PAYLOAD_TYPES, type PipelineEncoding } from './media-ports.ts';

/** Where one source takes this track: a port per encoding it decodes. */
export type ForwardTarget = Partial<Record<PipelineEncoding, number>>;

/**
 * Keyframe requests are this far apart, and a keyframe asked for and not seen yet is asked for again
 * this often. Chromium ignores a request that comes within 300 ms of the previous one: one sent
 * sooner is lost, and what it was for waits for the next. Since a feed that lost a packet shows its
 * last good picture until a keyframe comes (sources/rtp.ts), a loss asks as soon as this allows.
 */
export const KEYFRAME_SPACING_MS = 350;
/** A track whose packets stopped this long ago counts as stopped (its layer shows the placeholder). */
export const TRACK_IDLE_MS = 1500;

export interface ForwarderOptions {
  type: TrackType;
  kind: 'video' | 'audio';
  /**
   * The negotiated payload types the pipeline decodes (from the answer, not assumed) and their
   * encoding; a browser may switch between negotiated codecs at any packet.
   */
  encodings: ReadonlyMap<number, PipelineEncoding>;
  socket: Socket;
  /** Sends an RTCP PLI for the media SSRC to the browser. */
  sendPli: (ssrc: number) => void;
  now?: () => number;
  /** The participant's lip-sync: this track's packets may be held back to line up with the others. */
  sync?: { clock: LipSync; stream: string; clockRate: number };
}

export interface ForwarderStats {
  type: TrackType;
  packets: number;
  bytes: number;
  plis: number;
  /** Keyframes forwarded to the pipeline. */
  keyframes: number;
  lost: number;
  ports: number[];
  /** Encoding of the latest packet. */
  encoding: PipelineEncoding | null;
  active: boolean;
  /** Lip-sync hold applied to the latest packet. */
  syncDelayMs: number;
  /** How late packets reached the pipeline against the track's fastest ones, at most, lately (ms). */
  peakLatenessMs: number;
}

/**
 * One received track → the loopback ports of the sources it feeds, the port of each source that
 * decodes the packet's encoding (VP8 or H.264 for video). Packets of other payload types (RTX is
 * unwrapped by werift; anything else) are dropped; the payload type is rewritten to the one the
 * pipeline expects for that encoding. Chromium sends no periodic keyframes, so video asks for one on its first
 * packet, when it resumes after a pause, after a sequence gap, when a new port starts receiving and
 * when the pipeline wants one (its decoder lost packets or failed on a frame), and asks again until
 * that keyframe has gone to the pipeline: requests KEYFRAME_SPACING_MS apart.
 */
export class RtpForwarder {
  /** The targets' ports by encoding, worked out once per route change rather than per packet. */
  private portsByEncoding = new Map<PipelineEncoding, number[]>();
  private encoding: PipelineEncoding | undefined;
  private ssrc: number | undefined;
  private lastSeq: number | undefined;
  private lastPliAt = -Infinity;
  private lastPacketAt = -Infinity;
  private readonly counters = { packets: 0, bytes: 0, plis: 0, keyframes: 0, lost: 0 };
  /** A keyframe was asked for and has not reached the pipeline yet: asked again until it does. */
  private awaitingKeyframe = false;
  private readonly now: () => number;
  /** Other peers this track is relayed to as received (a guest's camera on the host's tiles). */
  private readonly taps = new Set<(packet: RtpPacket, encoding: PipelineEncoding) => void>();
  /** The latest sender report of this track: RTP timestamp ↔ sender's NTP time. */
  private report: { ntpMs: number; rtp: number } | undefined;
  private delayMs = 0;
  /** What the pipeline's jitter buffer must absorb for this track (WebrtcEndpoint sets it from this). */
  private readonly lateness: ArrivalLateness;

  constructor(private readonly options: ForwarderOptions) {
    this.now = options.now ?? Date.now;
    this.lateness = new ArrivalLateness(options.kind === 'video' ? 90_000 : 48_000);
  }

  setTargets(targets: readonly ForwardTarget[]): void {
    const before = new Set([...this.portsByEncoding.values()].flat());
    const next = new Map<PipelineEncoding, number[]>();
    for (const target of targets) {
      for (const [encoding, port] of Object.entries(target) as [PipelineEncoding, number][]) {
        const ports = next.get(encoding) ?? [];
        if (!ports.includes(port)) ports.push(port);
        next.set(encoding, ports);
      }
    }
    this.portsByEncoding = next;
    // A decoder that just got this track's first packets needs a keyframe to start from, even if
    // one was asked for a moment ago: that one may have gone to no port at all.
    if ([...next.values()].flat().some((port) => !before.has(port))) this.requestKeyframe('force');
  }

  get active(): boolean {
    return this.now() - this.lastPacketAt < TRACK_IDLE_MS;
  }

  onRtp(packet: RtpPacket): void {
    const { header } = packet;
    const encoding = this.options.encodings.get(header.payloadType);
    if (!encoding) return;
    // A new stream, or one resuming after a pause (a camera switched back on keeps its SSRC and
    // sequence), needs a keyframe before the decoder can show it.
    const first = this.ssrc === undefined || this.ssrc !== header.ssrc || !this.active || encoding !== this.encoding;
    this.ssrc = header.ssrc;
    this.encoding = encoding;
    this.lastPacketAt = this.now();
    if (this.lastSeq !== undefined && !first) {
      const gap = (header.sequenceNumber - this.lastSeq + 0x10000) % 0x10000;
      if (gap > 1 && gap < 0x8000) {
        this.counters.lost += gap - 1;
        this.requestKeyframe(false);
      }
    }
    if (first) {
      this.requestKeyframe(true);
      this.lateness.reset();
    }
    if (this.lastSeq === undefined || first || (header.sequenceNumber - this.lastSeq + 0x10000) % 0x10000 < 0x8000) this.lastSeq = header.sequenceNumber;
    for (const tap of this.taps) tap(packet.clone(), encoding);
    this.delayMs = this.syncDelay(header.timestamp);
    const ports = this.portsByEncoding.get(encoding);
    if (!ports || ports.length === 0) return;
    // As the pipeline gets it: after the lip-sync hold.
    this.lateness.record(header.timestamp, this.now() + this.delayMs);
    if (this.options.kind === 'video' && startsKeyframe(packet.payload, encoding)) {
      this.counters.keyframes += 1;
      this.awaitingKeyframe = false;
    } else if (this.awaitingKeyframe && this.now() - this.lastPliAt >= KEYFRAME_SPACING_MS) {
      this.sendPli();
    }
    header.payloadType = PIPELINE_PAYLOAD_TYPES[encoding];
    const bytes = packet.serialize();
    this.counters.packets += 1;
    this.counters.bytes += bytes.length;
    const send = () => {
      // A packet held back for lip-sync may come due after the endpoint closed its socket (the
      // worker stopping): it is dropped, rather than thrown from a timer, which ended the process.
      try {
        for (const port of ports) this.options.socket.send(bytes, port, '127.0.0.1');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ERR_SOCKET_DGRAM_NOT_RUNNING') throw error;
      }
    };
    if (this.delayMs >= 5) setTimeout(send, this.delayMs);
    else send();
  }

  /** Sender reports give the capture time of every packet, for lip-sync. */
  onRtcp(packet: RtcpPacket): void {
    if (packet.type !== 200) return;
    const sr = packet as RtcpPacket & { senderInfo: { ntpTimestamp: bigint; rtpTimestamp: number } };
    this.report = { ntpMs: ntpToMs(sr.senderInfo.ntpTimestamp), rtp: sr.senderInfo.rtpTimestamp };
  }

  /** Records this packet's transit and returns how long the track is held back now. */
  private syncDelay(timestamp: number): number {
    const sync = this.options.sync;
    if (!sync || !this.report) return 0;
    // Signed 32-bit difference: packets just before the report have a negative offset.
    const ticks = (timestamp - this.report.rtp) | 0;
    const capturedMs = this.report.ntpMs + (ticks * 1000) / sync.clockRate;
    const now = this.now();
    sync.clock.record(sync.stream, now - capturedMs, now);
    return sync.clock.delayFor(sync.stream);
  }

  /** Relays every accepted packet to `tap` too; returns how to stop. A new viewer needs a keyframe. */
  addTap(tap: (packet: RtpPacket, encoding: PipelineEncoding) => void): () => void {
    this.taps.add(tap);
    this.requestKeyframe(true);
    return () => this.taps.delete(tap);
  }

  /**
   * Asks the sender for a keyframe now, or as soon as KEYFRAME_SPACING_MS after the previous
   * request allows (with the next packet): one sooner would be ignored. `force` (a new decoder on a
   * new port) always asks at once. `urgency` true (a first packet, a decoder restart) and false (a
   * loss) are kept for the callers' sake; both ask as soon as the spacing allows.
   */
  requestKeyframe(urgency: boolean | 'force'): void {
    if (this.options.kind !== 'video') return;
    // Whether or not it can be sent now, the keyframe is awaited (and asked for again) until it arrives.
    this.awaitingKeyframe = true;
    if (this.ssrc === undefined) return;
    if (urgency !== 'force' && this.now() - this.lastPliAt < KEYFRAME_SPACING_MS) return;
    this.sendPli();
  }

  private sendPli(): void {
    if (this.ssrc === undefined) return;
    this.lastPliAt = this.now();
    this.counters.plis += 1;
    this.options.sendPli(this.ssrc);
  }

  stats(): ForwarderStats {
    return {
      type: this.options.type,
      ...this.counters,
      ports: [...new Set([...this.portsByEncoding.values()].flat())],
      encoding: this.encoding ?? null,
      active: this.active,
      syncDelayMs: Math.round(this.delayMs),
      peakLatenessMs: Math.round(this.lateness.peakMs(this.now())),
    };
  }
}
