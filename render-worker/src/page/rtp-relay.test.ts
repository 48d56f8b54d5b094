import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { RtpRelay, startsKeyframe } from './rtp-relay.ts';

/** An RTP packet: version 2, `nal` as the first payload byte (then `next`), the given header fields. */
function rtp(fields: { seq: number; ts: number; ssrc: number; marker?: boolean; pt?: number }, nal: number, next = 0): Buffer {
  const p = Buffer.alloc(16);
  p[0] = 0x80;
  p[1] = (fields.marker ? 0x80 : 0) | (fields.pt ?? 96);
  p.writeUInt16BE(fields.seq & 0xffff, 2);
  p.writeUInt32BE(fields.ts >>> 0, 4);
  p.writeUInt32BE(fields.ssrc >>> 0, 8);
  p[12] = nal;
  p[13] = next;
  return p;
}

const SPS = 0x67;
const IDR = 0x65;
const P_SLICE = 0x41;

interface Received {
  seq: number;
  ts: number;
  ssrc: number;
  marker: boolean;
  pt: number;
  nal: number;
  /** The payload's second byte: which packet this was (the cover's are COVER_TAG). */
  tag: number;
}

const sockets: Socket[] = [];
const relays: RtpRelay[] = [];
afterEach(() => {
  for (const r of relays.splice(0)) r.close();
  for (const s of sockets.splice(0)) s.close();
});

async function udp(): Promise<Socket> {
  const s = createSocket('udp4');
  sockets.push(s);
  await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', () => resolve()));
  return s;
}

/** A session-side receiver, a relay sending to it, and a capture-side sender. */
async function setup(cover: Buffer[]) {
  const session = await udp();
  const received: Received[] = [];
  session.on('message', (m: Buffer) =>
    received.push({
      seq: m.readUInt16BE(2),
      ts: m.readUInt32BE(4),
      ssrc: m.readUInt32BE(8),
      marker: (m[1]! & 0x80) !== 0,
      pt: m[1]! & 0x7f,
      nal: m[12]!,
      tag: m[13]!,
    }),
  );
  const relay = await RtpRelay.open({
    target: { host: '127.0.0.1', port: session.address().port, payloadType: 102, ssrc: 0x1234 },
    clockRate: 90_000,
    keyframes: true,
  });
  relays.push(relay);
  relay.setCover(cover);
  const capture = await udp();
  const send = async (...packets: Buffer[]) => {
    for (const p of packets) await new Promise<void>((resolve) => capture.send(p, relay.port, '127.0.0.1', () => resolve()));
  };
  const until = async (what: string, ok: () => boolean) => {
    for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
    if (!ok()) throw new Error(`never: ${what}`);
  };
  return { relay, received, send, until };
}

/** The cover: an SPS and an IDR slice, told apart from the capture's packets by their second payload byte. */
const COVER_TAG = 0xcc;
const COVER = [rtp({ seq: 0, ts: 0, ssrc: 9 }, SPS, COVER_TAG), rtp({ seq: 1, ts: 0, ssrc: 9 }, IDR, COVER_TAG)];

describe('RtpRelay', () => {
  it('sends the cover while hidden, the capture from its keyframe once shown, the cover again once hidden: one stream throughout', async () => {
    const { relay, received, send, until } = await setup(COVER);
    await until('two covers', () => received.length >= 4);
    // Shown: a capture's packets before its keyframe are not forwarded (the cover goes on meanwhile).
    relay.show();
    const capture = 0xabcdef;
    await send(rtp({ seq: 500, ts: 1000, ssrc: capture }, P_SLICE, 1));
    await send(
      rtp({ seq: 501, ts: 4000, ssrc: capture }, SPS, 2),
      rtp({ seq: 502, ts: 4000, ssrc: capture, marker: true }, IDR, 2),
      rtp({ seq: 503, ts: 7000, ssrc: capture, marker: true }, P_SLICE, 3),
    );
    await until('the capture forwarded', () => received.some((r) => r.tag === 3));
    expect(relay.forwarding).toBe(true);
    const forwarded = received.filter((r) => r.tag !== COVER_TAG);
    expect(forwarded.map((r) => [r.tag, r.nal, r.marker])).toEqual([
      [2, SPS, false],
      [2, IDR, true],
      [3, P_SLICE, true],
    ]);
    // The capture's own timing is kept: one picture at one time, the next 3000 ticks on.
    expect(forwarded[1]!.ts).toBe(forwarded[0]!.ts);
    expect(forwarded[2]!.ts - forwarded[1]!.ts).toBe(3000);
    // No cover once the capture is forwarded.
    expect(received.slice(received.indexOf(forwarded[0]!)).every((r) => r.tag !== COVER_TAG)).toBe(true);

    // Hidden again: the capture is dropped, the cover goes out.
    const hiddenAt = received.length;
    relay.hide();
    await send(rtp({ seq: 504, ts: 10_000, ssrc: capture }, P_SLICE, 4));
    await until('covers after hiding', () => received.length >= hiddenAt + 4);
    expect(received.slice(hiddenAt).map((r) => r.tag)).toEqual(received.slice(hiddenAt).map(() => COVER_TAG));

    // A new capture (another SSRC) after showing again: forwarded from its own keyframe.
    relay.show();
    await send(rtp({ seq: 9, ts: 50, ssrc: 0x777 }, P_SLICE, 5), rtp({ seq: 10, ts: 3050, ssrc: 0x777, marker: true }, IDR, 6));
    await until('the new capture forwarded', () => received.some((r) => r.tag === 6));
    expect(received.some((r) => r.tag === 5)).toBe(false);

    // One stream: the target's SSRC and payload type, sequence numbers one apart, time never going back.
    expect(new Set(received.map((r) => r.ssrc))).toEqual(new Set([0x1234]));
    expect(new Set(received.map((r) => r.pt))).toEqual(new Set([102]));
    received.slice(1).forEach((r, i) => {
      expect((r.seq - received[i]!.seq + 0x10000) & 0xffff).toBe(1);
      expect((r.ts - received[i]!.ts) >>> 0 < 0x8000_0000).toBe(true);
    });
    // Each cover picture: its two packets at one time, the second marked.
    const covers = received.filter((r) => r.tag === COVER_TAG);
    for (let i = 0; i + 1 < covers.length; i += 2) {
      expect([covers[i]!.nal, covers[i + 1]!.nal, covers[i + 1]!.marker, covers[i + 1]!.ts - covers[i]!.ts]).toEqual([SPS, IDR, true, 0]);
    }
  });
});

describe('startsKeyframe', () => {
  const header = { seq: 1, ts: 1, ssrc: 1 };
  it('finds an SPS or the start of an IDR, alone, fragmented (FU-A) or aggregated (STAP-A)', () => {
    expect(startsKeyframe(rtp(header, SPS))).toBe(true);
    expect(startsKeyframe(rtp(header, IDR))).toBe(true);
    expect(startsKeyframe(rtp(header, P_SLICE))).toBe(false);
    // FU-A: indicator type 28, header start bit + type.
    expect(startsKeyframe(rtp(header, 0x7c, 0x80 | 5))).toBe(true);
    expect(startsKeyframe(rtp(header, 0x7c, 5))).toBe(false);
    expect(startsKeyframe(rtp(header, 0x7c, 0x80 | 1))).toBe(false);
    // STAP-A: type 24, then 16-bit size and the unit.
    const stap = Buffer.concat([rtp(header, 0x78).subarray(0, 13), Buffer.from([0, 2, 0x09, 0xf0, 0, 2, SPS, 0x42])]);
    expect(startsKeyframe(stap)).toBe(true);
    const stapP = Buffer.concat([rtp(header, 0x78).subarray(0, 13), Buffer.from([0, 2, 0x09, 0xf0, 0, 2, P_SLICE, 0])]);
    expect(startsKeyframe(stapP)).toBe(false);
  });
});
