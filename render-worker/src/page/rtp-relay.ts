import { createSocket, type Socket } from 'node:dgram';
import type { RenderRtpTarget } from '@onair/protocol';

export interface RtpRelayOptions {
  /** Where the session listens for this track. */
  target: RenderRtpTarget;
  /** The track's RTP clock: 90 000 for video, 48 000 for Opus. */
  clockRate: number;
  /** Start forwarding a capture only at an H.264 keyframe (SPS or IDR), so the session's decoder starts clean. */
  keyframes: boolean;
}

/** How often the cover goes out while the capture is not forwarded: often enough that the session counts the feed as flowing (it looks once a second). */
const COVER_INTERVAL_MS = 100;

/**
 * One track of a page as the session receives it: a single RTP stream (one SSRC, sequence numbers
 * and timestamps that run on) for the page's whole life, however often the capture behind it
 * starts and stops, and carrying only what may be shown.
 *
 * The capture (gst-launch) sends here on loopback; while the page is *shown* its packets are
 * forwarded to the session from the capture's next keyframe on, with their headers rewritten onto
 * this stream; while it is *hidden* (Chromium starting, a page or a new url loading, a crash) the
 * capture is dropped and the *cover* goes out instead: one encoded picture of the chroma key,
 * sent again every COVER_INTERVAL_MS, which the session keys out, so the layer is transparent and
 * the scene under it shows. The session's receiver therefore never sees a stream restart (no new
 * SSRC, no jump in sequence numbers or time for its jitter buffer to resynchronise on), and its
 * feed keeps flowing, so it does not put the layer's offline picture up either.
 */
export class RtpRelay {
  private readonly ssrc: number;
  private seq = Math.floor(Math.random() * 0x10000);
  /** The RTP timestamp of the last packet sent, and when it was sent (performance.now()). */
  private lastTs = Math.floor(Math.random() * 0x1_0000_0000);
  private lastAt = performance.now();
  /** 'hidden': capture dropped; 'waiting': shown, waiting for the capture's keyframe; 'forwarding': shown. */
  private state: 'hidden' | 'waiting' | 'forwarding' = 'hidden';
  /** The capture's SSRC while forwarding, and what is added to its timestamps. */
  private source: { ssrc: number; offset: number } | undefined;
  private cover: Buffer[] = [];
  private coverTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly socket: Socket,
    private readonly options: RtpRelayOptions,
  ) {
    this.ssrc = options.target.ssrc ?? Math.floor(Math.random() * 0x1_0000_0000);
    socket.on('message', (packet) => this.fromCapture(packet));
    // A send to a session that is gone fails per packet; nothing to do about it here.
    socket.on('error', () => undefined);
  }

  /** Listens on a free loopback port for the capture's packets. */
  static async open(options: RtpRelayOptions): Promise<RtpRelay> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => {
        socket.off('error', reject);
        resolve();
      });
    });
    return new RtpRelay(socket, options);
  }

  /** The loopback port the capture sends this track to. */
  get port(): number {
    return this.socket.address().port;
  }

  /** Whether the capture's packets reach the session now (false while hidden or waiting for its keyframe). */
  get forwarding(): boolean {
    return this.state === 'forwarding';
  }

  /** Forwards the capture from its next keyframe (or next packet, for a track without keyframes); the cover until then. */
  show(): void {
    if (this.state !== 'hidden') return;
    this.state = 'waiting';
    this.source = undefined;
  }

  /** Drops the capture from now on and sends the cover instead. */
  hide(): void {
    this.state = 'hidden';
    this.source = undefined;
    this.sendCover();
  }

  /** The RTP packets of one picture to send while the capture is not forwarded (none: send nothing). */
  setCover(packets: Buffer[]): void {
    this.cover = packets;
    if (this.state !== 'forwarding') this.sendCover();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.coverTimer);
    this.socket.close();
  }

  private fromCapture(packet: Buffer): void {
    if (this.closed || this.state === 'hidden' || packet.length < 12 || packet[0]! >> 6 !== 2) return;
    const ssrc = packet.readUInt32BE(8);
    // Another capture behind the same port (one restarted while shown): start over from its keyframe.
    if (this.state === 'forwarding' && this.source?.ssrc !== ssrc) this.state = 'waiting';
    if (this.state === 'waiting') {
      if (this.options.keyframes && !startsKeyframe(packet)) return;
      this.state = 'forwarding';
      clearTimeout(this.coverTimer);
      this.source = { ssrc, offset: (this.runningTs() - packet.readUInt32BE(4)) >>> 0 };
    }
    const offset = this.source?.offset ?? 0;
    this.send(packet, (packet.readUInt32BE(4) + offset) >>> 0, (packet[1]! & 0x80) !== 0);
  }

  private sendCover(): void {
    clearTimeout(this.coverTimer);
    if (this.closed || this.state === 'forwarding' || this.cover.length === 0) return;
    const ts = this.runningTs();
    this.cover.forEach((packet, i) => this.send(packet, ts, i === this.cover.length - 1));
    this.coverTimer = setTimeout(() => this.sendCover(), COVER_INTERVAL_MS);
  }

  /** The last timestamp sent, moved on by the time since: where the stream is now. */
  private runningTs(): number {
    return (this.lastTs + Math.round(((performance.now() - this.lastAt) * this.options.clockRate) / 1000)) >>> 0;
  }

  private send(packet: Buffer, ts: number, marker: boolean): void {
    const out = Buffer.from(packet);
    out[1] = (marker ? 0x80 : 0) | this.options.target.payloadType;
    out.writeUInt16BE(this.seq, 2);
    out.writeUInt32BE(ts, 4);
    out.writeUInt32BE(this.ssrc, 8);
    this.seq = (this.seq + 1) & 0xffff;
    this.lastTs = ts;
    this.lastAt = performance.now();
    this.socket.send(out, this.options.target.port, this.options.target.host);
  }
}

const NAL_IDR = 5;
const NAL_SPS = 7;
const STAP_A = 24;
const FU_A = 28;

/**
 * Whether an H.264 RTP packet (RFC 6184) starts a keyframe: it carries an SPS (the payloader puts
 * SPS and PPS before every IDR), or the start of an IDR picture.
 */
export function startsKeyframe(packet: Buffer): boolean {
  let at = 12 + 4 * (packet[0]! & 0x0f);
  // A header extension: 16-bit profile, 16-bit length in words, then the words.
  if (packet[0]! & 0x10) at = at + 4 > packet.length ? packet.length : at + 4 + 4 * packet.readUInt16BE(at + 2);
  if (at >= packet.length) return false;
  const type = packet[at]! & 0x1f;
  if (type === NAL_SPS || type === NAL_IDR) return true;
  if (type === FU_A) return at + 1 < packet.length && (packet[at + 1]! & 0x80) !== 0 && (packet[at + 1]! & 0x1f) === NAL_IDR;
  if (type === STAP_A) {
    // Aggregated units: 16-bit size, then the unit.
    for (let i = at + 1; i + 2 < packet.length; i += 2 + packet.readUInt16BE(i)) {
      const inner = packet[i + 2]! & 0x1f;
      if (inner === NAL_SPS || inner === NAL_IDR) return true;
    }
  }
  return false;
}
