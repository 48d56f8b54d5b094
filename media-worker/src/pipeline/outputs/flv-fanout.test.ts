import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@onair/runtime';
import { FlvFanout } from './flv-fanout.ts';
import type { FlvTag } from './flv-tags.ts';

const FLV_HEADER = Buffer.from([0x46, 0x4c, 0x56, 0x01, 0x05, 0, 0, 0, 9, 0, 0, 0, 0]);

/** One FLV tag as a muxer writes it (header, data, previous tag size). */
function flvTag(type: number, timestamp: number, data: Buffer): Buffer {
  const header = Buffer.alloc(11);
  header[0] = type;
  header.writeUIntBE(data.length, 1, 3);
  header.writeUIntBE(timestamp & 0xffffff, 4, 3);
  header[7] = (timestamp >>> 24) & 0xff;
  const size = Buffer.alloc(4);
  size.writeUInt32BE(11 + data.length);
  return Buffer.concat([header, data, size]);
}

const avcHeader = (sps: number) => flvTag(9, 0, Buffer.from([0x17, 0, 0, 0, 0, 1, 0x4d, 0, sps]));
const keyframe = (ts: number) => flvTag(9, ts, Buffer.from([0x17, 1, 0, 0, 0, 0xaa, 0xbb]));
const inter = (ts: number) => flvTag(9, ts, Buffer.from([0x27, 1, 0, 0, 0, 0xcc]));
const aacHeader = () => flvTag(8, 0, Buffer.from([0xaf, 0, 0x11, 0x90]));
const aac = (ts: number) => flvTag(8, ts, Buffer.from([0xaf, 1, 0x21, 0x10]));

let fanout: FlvFanout | undefined;
afterEach(() => fanout?.close());

async function source(port: number, bytes: Buffer[]): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(Buffer.concat([FLV_HEADER, ...bytes]));
  return socket;
}

const until = async (what: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('FlvFanout carrying a stream across pipelines', () => {
  it('holds the picture and sends silence in the gap, then carries the next stream on from its first keyframe, with only the headers that changed', async () => {
    fanout = await FlvFanout.listen('test', createLogger('test', 'silent'), { fps: 30, videoBitrateKbps: 800 });
    const got: FlvTag[] = [];
    fanout.subscribe((tag) => got.push(tag));

    const first = await source(fanout.port, [avcHeader(1), aacHeader(), keyframe(0), aac(10), inter(33), aac(31), keyframe(66), aac(53)]);
    await until(() => got.length === 8);
    // The silence for this audio configuration is encoded once (gst-launch); the gap comes after.
    await new Promise((r) => setTimeout(r, 500));
    first.destroy();
    await until(() => got.filter((t) => t.type === 8 && !t.header && t.timestamp > 53).length >= 10);
    const held = got.slice(8);
    expect(held.filter((t) => t.type === 9).every((t) => t.keyframe && t.body.equals(got[6]!.body))).toBe(true);
    expect(held.filter((t) => t.type === 8).every((t) => t.body.toString('hex') === 'af01211004608c1c')).toBe(true);

    // The next pipeline: a new video configuration, the same audio one, tags before its first keyframe.
    const before = got.length;
    const second = await source(fanout.port, [avcHeader(2), aacHeader(), inter(5000), aac(5010), keyframe(5033), aac(5020), aac(5040), inter(5066)]);
    await until(() => got.length >= before + 4);
    await new Promise((r) => setTimeout(r, 100));
    second.destroy();
    // Held tags may still come until the next keyframe: the carried stream starts at its header.
    const start = got.findIndex((t, i) => i >= before && t.header === 'video');
    const carried = got.slice(start, start + 4);
    // Only the video header changed: it goes out, then the keyframe, then what follows it (the
    // sound stamped before the keyframe is dropped); the tags before the keyframe never do.
    expect(carried.map((t) => [t.type, t.header ?? (t.keyframe ? 'key' : 'media')])).toEqual([
      [9, 'video'],
      [9, 'key'],
      [8, 'media'],
      [9, 'media'],
    ]);
    const lastHeld = Math.max(...got.slice(0, start).map((t) => t.timestamp));
    expect(carried[1]!.timestamp).toBe(lastHeld + 33);
    expect(got.slice(start + 4).every((t) => t.type === 9 || t.type === 8)).toBe(true);
    expect(got.filter((t) => t.header === 'audio' || t.header === 'metadata')).toHaveLength(1);
    expect(carried[2]!.timestamp).toBe(carried[1]!.timestamp + 7);
    expect(carried[3]!.timestamp).toBe(carried[1]!.timestamp + 33);
    // One timeline: every kind's timestamps go forward.
    for (const type of [8, 9]) {
      const times = got.filter((t) => t.type === type && !t.header).map((t) => t.timestamp);
      expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
    }
    expect(fanout.gapsFilled).toHaveLength(1);
  });
});
