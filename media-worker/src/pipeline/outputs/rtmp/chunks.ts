/**
 * RTMP's chunk stream (Adobe RTMP specification 1.0, §5.3): messages cut into chunks of the
 * negotiated size, each with a basic header (chunk stream id) and a message header.
 */
export const MessageType = {
  SetChunkSize: 1,
  Abort: 2,
  Acknowledgement: 3,
  UserControl: 4,
  WindowAckSize: 5,
  SetPeerBandwidth: 6,
  Audio: 8,
  Video: 9,
  DataAmf3: 15,
  CommandAmf3: 17,
  DataAmf0: 18,
  CommandAmf0: 20,
} as const;

export interface RtmpMessage {
  type: number;
  /** Message stream id: 0 for the connection's control and commands, the created stream's for media. */
  streamId: number;
  /** Milliseconds; wraps at 2^32. */
  timestamp: number;
  body: Buffer;
}

const EXTENDED = 0xffffff;

function basicHeader(fmt: number, csid: number): Buffer {
  if (csid < 64) return Buffer.from([(fmt << 6) | csid]);
  if (csid < 320) return Buffer.from([fmt << 6, csid - 64]);
  const rest = csid - 64;
  return Buffer.from([(fmt << 6) | 1, rest & 0xff, rest >> 8]);
}

/**
 * One message as chunks: a type-0 chunk (absolute timestamp, so the bytes do not depend on what
 * went before on this chunk stream and may be written to any connection that uses the same message
 * stream id and chunk size), then type-3 continuation chunks.
 */
export function serializeMessage(csid: number, message: RtmpMessage, chunkSize = 128): Buffer {
  const timestamp = message.timestamp >>> 0;
  const extended = timestamp >= EXTENDED;
  const header = Buffer.alloc(11 + (extended ? 4 : 0));
  header.writeUIntBE(extended ? EXTENDED : timestamp, 0, 3);
  header.writeUIntBE(message.body.length, 3, 3);
  header[6] = message.type;
  header.writeUInt32LE(message.streamId >>> 0, 7);
  if (extended) header.writeUInt32BE(timestamp, 11);
  const continuation = Buffer.concat([basicHeader(3, csid), extended ? header.subarray(11) : Buffer.alloc(0)]);
  const parts: Buffer[] = [basicHeader(0, csid), header];
  for (let offset = 0; offset < message.body.length || offset === 0; offset += chunkSize) {
    if (offset > 0) parts.push(continuation);
    parts.push(message.body.subarray(offset, offset + chunkSize));
    if (message.body.length === 0) break;
  }
  return Buffer.concat(parts);
}

interface ChunkStreamState {
  timestamp: number;
  delta: number;
  length: number;
  type: number;
  streamId: number;
  extended: boolean;
  parts: Buffer[];
  received: number;
}

/** Reassembles the messages a server sends, whatever chunk header types it uses. */
export class ChunkReader {
  /** The server's chunk size; RTMP starts at 128 and its Set Chunk Size messages change it. */
  private chunkSize = 128;
  private pending: Buffer = Buffer.alloc(0);
  private readonly streams = new Map<number, ChunkStreamState>();

  /** Adds received bytes; returns the messages they complete. */
  push(data: Buffer): RtmpMessage[] {
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    const messages: RtmpMessage[] = [];
    for (;;) {
      const used = this.readChunk(messages);
      if (used === 0) break;
      this.pending = this.pending.subarray(used);
    }
    return messages;
  }

  /** Reads one chunk from the pending bytes; 0 when they do not hold a whole one yet. */
  private readChunk(messages: RtmpMessage[]): number {
    const buf = this.pending;
    if (buf.length < 1) return 0;
    const fmt = buf[0]! >> 6;
    let csid = buf[0]! & 0x3f;
    let offset = 1;
    if (csid === 0) {
      if (buf.length < 2) return 0;
      csid = 64 + buf[1]!;
      offset = 2;
    } else if (csid === 1) {
      if (buf.length < 3) return 0;
      csid = 64 + buf[1]! + buf[2]! * 256;
      offset = 3;
    }
    const headerLength = [11, 7, 3, 0][fmt]!;
    if (buf.length < offset + headerLength) return 0;
    const previous = this.streams.get(csid);
    if (fmt !== 0 && !previous) throw new Error(`chunk stream ${csid} continues a message it never began`);
    const state: ChunkStreamState = previous ?? { timestamp: 0, delta: 0, length: 0, type: 0, streamId: 0, extended: false, parts: [], received: 0 };
    let field = 0;
    if (fmt <= 2) field = buf.readUIntBE(offset, 3);
    if (fmt <= 1) {
      state.length = buf.readUIntBE(offset + 3, 3);
      state.type = buf[offset + 6]!;
    }
    if (fmt === 0) state.streamId = buf.readUInt32LE(offset + 7);
    offset += headerLength;
    const startsMessage = state.received === 0;
    if (fmt <= 2) state.extended = field === EXTENDED;
    if (state.extended) {
      if (buf.length < offset + 4) return 0;
      field = buf.readUInt32BE(offset);
      offset += 4;
    }
    const take = Math.min(this.chunkSize, state.length - state.received);
    if (buf.length < offset + take) return 0;
    // Only now that the whole chunk is here does it change the chunk stream's state.
    if (startsMessage) {
      if (fmt === 0) state.timestamp = field;
      else if (fmt === 1 || fmt === 2) {
        state.delta = field;
        state.timestamp = (state.timestamp + field) >>> 0;
      } else if (fmt === 3) state.timestamp = (state.timestamp + (state.extended ? field : state.delta)) >>> 0;
    }
    this.streams.set(csid, state);
    state.parts.push(buf.subarray(offset, offset + take));
    state.received += take;
    if (state.received >= state.length) {
      const body = Buffer.concat(state.parts);
      // The chunks right behind a Set Chunk Size already have the new size.
      if (state.type === MessageType.SetChunkSize && body.length >= 4) this.chunkSize = body.readUInt32BE(0) & 0x7fffffff;
      messages.push({ type: state.type, streamId: state.streamId, timestamp: state.timestamp, body });
      state.parts = [];
      state.received = 0;
    }
    return offset + take;
  }
}
