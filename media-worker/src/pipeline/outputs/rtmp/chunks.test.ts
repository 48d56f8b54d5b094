import { describe, expect, it } from 'vitest';
import { decodeAmf0, encodeAmf0 } from './amf0.ts';
import { ChunkReader, MessageType, serializeMessage, type RtmpMessage } from './chunks.ts';

const body = (n: number, seed = 1) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff));

/** Feeds the bytes to a reader in pieces of the given sizes, cycling. */
function readInPieces(bytes: Buffer, pieces: number[]): RtmpMessage[] {
  const reader = new ChunkReader();
  const out: RtmpMessage[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const size = pieces[i % pieces.length]!;
    out.push(...reader.push(bytes.subarray(offset, offset + size)));
    offset += size;
  }
  return out;
}

describe('RTMP chunks', () => {
  it('cuts a message into chunks of the chunk size and reads it back whole, however the bytes arrive', () => {
    const message = { type: MessageType.Video, streamId: 1, timestamp: 40_000, body: body(300) };
    const bytes = serializeMessage(6, message, 128);
    // One type-0 header (1 + 11 bytes), two type-3 continuations (1 byte each), 300 bytes of body.
    expect(bytes.length).toBe(12 + 2 + 300);
    for (const pieces of [[bytes.length], [1], [7, 130, 3]]) expect(readInPieces(bytes, pieces)).toEqual([message]);
  });

  it('carries timestamps past 24 bits in the extended field, on continuation chunks too', () => {
    const message = { type: MessageType.Audio, streamId: 1, timestamp: 0x01_23_45_67, body: body(200, 5) };
    const bytes = serializeMessage(5, message, 128);
    expect(bytes.length).toBe(12 + 4 + 1 + 4 + 200);
    expect(readInPieces(bytes, [5])).toEqual([message]);
  });

  it('reads chunks that follow a Set Chunk Size in the same bytes with the new size', () => {
    const size = Buffer.alloc(4);
    size.writeUInt32BE(4096);
    const big = { type: MessageType.CommandAmf0, streamId: 0, timestamp: 0, body: body(1000, 9) };
    const bytes = Buffer.concat([
      serializeMessage(2, { type: MessageType.SetChunkSize, streamId: 0, timestamp: 0, body: size }, 128),
      serializeMessage(3, big, 4096),
    ]);
    const messages = readInPieces(bytes, [bytes.length]);
    expect(messages.map((m) => m.type)).toEqual([MessageType.SetChunkSize, MessageType.CommandAmf0]);
    expect(messages[1]).toEqual(big);
  });

  it('reads the compressed headers a server may use (type 1 and 2 chunks take the stream id and length before them)', () => {
    // Type 0 on chunk stream 3, then a type-1 (new length and type, delta 10) and a type-2 (delta 5, same length).
    const first = serializeMessage(3, { type: MessageType.CommandAmf0, streamId: 0, timestamp: 100, body: body(4) });
    const type1 = Buffer.concat([Buffer.from([0x43, 0, 0, 10, 0, 0, 3, MessageType.DataAmf0]), body(3, 2)]);
    const type2 = Buffer.concat([Buffer.from([0x83, 0, 0, 5]), body(3, 3)]);
    const messages = readInPieces(Buffer.concat([first, type1, type2]), [2]);
    expect(messages.map((m) => [m.type, m.timestamp, m.body.length])).toEqual([
      [MessageType.CommandAmf0, 100, 4],
      [MessageType.DataAmf0, 110, 3],
      [MessageType.DataAmf0, 115, 3],
    ]);
  });

  it('refuses a chunk that continues a message never begun', () => {
    expect(() => new ChunkReader().push(Buffer.from([0xc4, 1, 2]))).toThrow(/never began/);
  });
});

describe('AMF0', () => {
  it('writes and reads what a publish exchanges', () => {
    const values = ['connect', 1, { app: 'live', tcUrl: 'rtmp://example.test/live', fpad: false, nested: { level: 'status' } }, null, undefined, [1, 'two']];
    expect(decodeAmf0(encodeAmf0(...values))).toEqual(values);
  });

  it('says so when a value is cut short', () => {
    expect(() => decodeAmf0(encodeAmf0('onStatus').subarray(0, 5))).toThrow(/cut short/);
  });
});
