import { encodeAmf0 } from './rtmp/amf0.ts';
import { MessageType, serializeMessage } from './rtmp/chunks.ts';
import { ChunkStream, RTMP_CHUNK_SIZE } from './rtmp/publisher.ts';

/** FLV as the program's encode writes it: its tags, and what the fan-out reads of its audio configuration. */
export const FLV_HEADER_BYTES = 9 + 4;
export const TAG_HEADER_BYTES = 11;
const SET_DATA_FRAME = encodeAmf0('@setDataFrame');

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

export function tagOf(type: number, timestamp: number, data: Buffer): FlvTag | undefined {
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

/** The FLV tags of a whole FLV stream in memory (a file, a short encode). */
export function flvTags(buf: Buffer): FlvTag[] {
  if (buf.length < FLV_HEADER_BYTES || buf.toString('latin1', 0, 3) !== 'FLV') return [];
  const tags: FlvTag[] = [];
  let offset = buf.readUInt32BE(5) + 4;
  while (buf.length - offset >= TAG_HEADER_BYTES) {
    const size = buf.readUIntBE(offset + 1, 3);
    const total = TAG_HEADER_BYTES + size + 4;
    if (buf.length - offset < total) break;
    const timestamp = (buf.readUIntBE(offset + 4, 3) | (buf[offset + 7]! << 24)) >>> 0;
    const tag = tagOf(buf[offset]! & 0x1f, timestamp, buf.subarray(offset + TAG_HEADER_BYTES, offset + TAG_HEADER_BYTES + size));
    if (tag) tags.push(tag);
    offset += total;
  }
  return tags;
}

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** The sample rate of an AudioSpecificConfig (ISO 14496-3 1.6.2.1), when it names one of the table. */
export function aacSampleRate(config: Buffer): number | undefined {
  if (config.length < 2) return undefined;
  return AAC_RATES[((config[0]! & 0x07) << 1) | (config[1]! >> 7)];
}

/** The channel configuration of an AudioSpecificConfig (1 mono, 2 stereo, ...). */
export function aacChannels(config: Buffer): number {
  return (config[1]! >> 3) & 0x0f;
}
