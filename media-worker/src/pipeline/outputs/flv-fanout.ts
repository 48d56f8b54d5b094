import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Logger } from '@onair/runtime';
import { makeElement } from '../../gst/elements.ts';
import type { GstElement } from '../../gst/gst.ts';
import { encodeAmf0 } from './rtmp/amf0.ts';
import { MessageType, serializeMessage } from './rtmp/chunks.ts';
import { ChunkStream, RTMP_CHUNK_SIZE } from './rtmp/publisher.ts';

const FLV_HEADER_BYTES = 9 + 4;
const TAG_HEADER_BYTES = 11;
const SET_DATA_FRAME = encodeAmf0('@setDataFrame');
/** More than the 2 s GOP's video and audio tags at 30 fps (60 + ~94): a GOP is never cut short. */
const MAX_GOP_TAGS = 1000;

/** One FLV tag of the encoded program, ready to go out as an RTMP message. */
export class FlvTag {
  private chunked: Buffer | undefined;
  private chunkedFor = -1;

  constructor(
    readonly type: number,
    readonly timestamp: number,
    /** The RTMP message body: the tag's data (a script tag gets `@setDataFrame` in front, as publishers send it). */
    readonly body: Buffer,
    /** A video keyframe (not a sequence header): where a new or resumed destination starts. */
    readonly keyframe: boolean,
    /** Metadata or a codec's sequence header: every destination needs the latest before media. */
    readonly header: 'metadata' | 'video' | 'audio' | undefined,
  ) {}

  /**
   * The message as RTMP chunks for a connection whose stream id this is. Every connection uses the
   * same chunk size and servers give the first stream id (1), so the chunks are made once per tag
   * and the same bytes are written to every destination.
   */
  chunksFor(streamId: number): Buffer {
    if (this.chunkedFor === streamId && this.chunked) return this.chunked;
    const csid = this.type === MessageType.Video ? ChunkStream.video : this.type === MessageType.Audio ? ChunkStream.audio : ChunkStream.data;
    const bytes = serializeMessage(csid, { type: this.type, streamId, timestamp: this.timestamp, body: this.body }, RTMP_CHUNK_SIZE);
    if (this.chunkedFor === -1) {
      this.chunked = bytes;
      this.chunkedFor = streamId;
    }
    return bytes;
  }
}

function tagOf(type: number, timestamp: number, data: Buffer): FlvTag | undefined {
  if (type === MessageType.Video) {
    // FrameType (4 bits) | CodecID (4 bits); for AVC (7) then AVCPacketType: 0 sequence header, 1 NALUs.
    const frameType = data[0]! >> 4;
    const avc = (data[0]! & 0x0f) === 7;
    const sequenceHeader = avc && data[1] === 0;
    return new FlvTag(type, timestamp, data, frameType === 1 && !sequenceHeader, sequenceHeader ? 'video' : undefined);
  }
  if (type === MessageType.Audio) {
    // SoundFormat 10 is AAC, whose AACPacketType 0 is the AudioSpecificConfig.
    const sequenceHeader = data[0]! >> 4 === 10 && data[1] === 0;
    return new FlvTag(type, timestamp, data, false, sequenceHeader ? 'audio' : undefined);
  }
  if (type === MessageType.DataAmf0) return new FlvTag(type, timestamp, Buffer.concat([SET_DATA_FRAME, data]), false, 'metadata');
  return undefined;
}

/**
 * Where a canvas's encoded program leaves GStreamer for the destinations: its FLV muxer writes one
 * stream over loopback TCP (`tcpclientsink`, behind a leaky queue so a slow JS thread drops whole
 * tags instead of holding the encoder) to this process, which cuts it into tags and hands every tag
 * to each destination's RTMP connection. One mux, one copy into JS and one chunking per tag,
 * whatever the number of destinations; each destination costs one socket write per tag.
 */
export class FlvFanout {
  readonly port: number;
  private readonly server: Server;
  private source: Socket | undefined;
  private pending: Buffer = Buffer.alloc(0);
  private headerRead = false;
  private readonly receivers = new Set<(tag: FlvTag) => void>();
  private readonly latest = new Map<'metadata' | 'video' | 'audio', FlvTag>();
  /** The tags from the latest keyframe on, and when that keyframe arrived. */
  private gop: FlvTag[] = [];
  private gopAt = 0;

  private constructor(
    private readonly name: string,
    private readonly logger: Logger,
    server: Server,
  ) {
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    server.on('connection', (socket) => this.accept(socket));
  }

  /** Listening on loopback: the sink connects to it when the pipeline starts. */
  static async listen(name: string, logger: Logger): Promise<FlvFanout> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new FlvFanout(name, logger, server);
  }

  /**
   * The pipeline's end of it: `queue ! tcpclientsink` to append after the muxer. The queue holds
   * about `seconds` of the stream at `bitrateKbps`, counted in bytes: counted in time, a muxer
   * that starts in a pipeline already playing (the vertical canvas attached live) stamps its FLV
   * header 0 and its first tags with the pipeline's running time, so the queue saw minutes in it
   * and leaked the header.
   */
  elements(bitrateKbps: number, seconds = 2): GstElement[] {
    return [
      makeElement('queue', `${this.name}-queue`, {
        leaky: 'downstream',
        'max-size-time': 0,
        'max-size-buffers': 0,
        'max-size-bytes': Math.ceil((bitrateKbps * 1000 * seconds) / 8),
      }),
      makeElement('tcpclientsink', `${this.name}-sink`, { host: '127.0.0.1', port: this.port, sync: false, async: false, 'enable-last-sample': false }),
    ];
  }

  /** The latest metadata and sequence headers: what a destination sends before its first keyframe. */
  headers(): FlvTag[] {
    return (['metadata', 'video', 'audio'] as const).flatMap((kind) => this.latest.get(kind) ?? []);
  }

  /**
   * The media from the latest keyframe on, if that keyframe arrived at or after `sinceMs` (a
   * destination that asked for a keyframe when it began connecting starts here, without waiting
   * for the next one); otherwise nothing.
   */
  keyframeSince(sinceMs: number): FlvTag[] {
    return this.gop.length > 0 && this.gopAt >= sinceMs ? this.gop : [];
  }

  /** Every tag from now on, until the returned function is called. */
  subscribe(receiver: (tag: FlvTag) => void): () => void {
    this.receivers.add(receiver);
    return () => this.receivers.delete(receiver);
  }

  close(): void {
    this.receivers.clear();
    this.source?.destroy();
    this.server.close();
  }

  private accept(socket: Socket): void {
    // One muxer writes here; a sink that reconnects (its element restarted) starts a new FLV stream.
    if (this.source) this.logger.warn({ fanout: this.name }, 'encoded stream connected again: a new FLV stream');
    this.source?.destroy();
    this.source = socket;
    this.pending = Buffer.alloc(0);
    this.headerRead = false;
    socket.on('data', (data: Buffer) => this.read(data));
    socket.on('error', (err) => this.logger.warn({ fanout: this.name, err: err.message }, 'encoded stream connection failed'));
  }

  private read(data: Buffer): void {
    let buf = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    if (!this.headerRead) {
      if (buf.length < FLV_HEADER_BYTES) {
        this.pending = buf;
        return;
      }
      if (buf.toString('latin1', 0, 3) !== 'FLV') {
        this.logger.error({ fanout: this.name, head: buf.subarray(0, 16).toString('hex') }, 'encoded stream is not FLV');
        this.source?.destroy();
        return;
      }
      buf = buf.subarray(buf.readUInt32BE(5) + 4);
      this.headerRead = true;
    }
    let offset = 0;
    while (buf.length - offset >= TAG_HEADER_BYTES) {
      const type = buf[offset]! & 0x1f;
      const size = buf.readUIntBE(offset + 1, 3);
      const total = TAG_HEADER_BYTES + size + 4;
      if (buf.length - offset < total) break;
      const timestamp = (buf.readUIntBE(offset + 4, 3) | (buf[offset + 7]! << 24)) >>> 0;
      // A view, not a copy: each read of a Node socket gets memory of its own.
      const tag = tagOf(type, timestamp, buf.subarray(offset + TAG_HEADER_BYTES, offset + TAG_HEADER_BYTES + size));
      offset += total;
      if (!tag) continue;
      if (tag.header) this.latest.set(tag.header, tag);
      else if (tag.keyframe) {
        this.gop = [tag];
        this.gopAt = Date.now();
      } else if (this.gop.length > 0 && this.gop.length < MAX_GOP_TAGS) this.gop.push(tag);
      for (const receiver of this.receivers) receiver(tag);
    }
    this.pending = buf.subarray(offset);
  }
}
