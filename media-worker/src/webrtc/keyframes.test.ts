import { describe, expect, it } from 'vitest';
import { startsKeyframe } from './keyframes.ts';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('startsKeyframe', () => {
  it('VP8: the start of partition 0 with P=0, after any extension fields', () => {
    expect(startsKeyframe(bytes(0x10, 0x10), 'VP8')).toBe(true); // S=1, PID=0, no X; header P=0
    expect(startsKeyframe(bytes(0x10, 0x11), 'VP8')).toBe(false); // P=1: an interframe
    expect(startsKeyframe(bytes(0x00, 0x10), 'VP8')).toBe(false); // not the start of a partition
    // X=1 with a 15-bit PictureID (I, M) and TL0PICIDX (L), as Chromium sends.
    expect(startsKeyframe(bytes(0x90, 0xc0, 0x80 | 0x12, 0x34, 0x05, 0x9c), 'VP8')).toBe(true);
    expect(startsKeyframe(bytes(0x90, 0xc0, 0x80 | 0x12, 0x34, 0x05, 0x9d), 'VP8')).toBe(false);
    expect(startsKeyframe(bytes(0x90), 'VP8')).toBe(false);
  });

  it('H.264: an IDR or SPS, alone, aggregated or at the start of a fragmented unit', () => {
    expect(startsKeyframe(bytes(0x65, 0x88), 'H264')).toBe(true); // IDR
    expect(startsKeyframe(bytes(0x67, 0x42), 'H264')).toBe(true); // SPS
    expect(startsKeyframe(bytes(0x41, 0x9a), 'H264')).toBe(false); // non-IDR slice
    expect(startsKeyframe(bytes(0x7c, 0x85, 0x88), 'H264')).toBe(true); // FU-A start of an IDR
    expect(startsKeyframe(bytes(0x7c, 0x05, 0x88), 'H264')).toBe(false); // FU-A middle
    expect(startsKeyframe(bytes(0x7c, 0x81, 0x9a), 'H264')).toBe(false); // FU-A start of a non-IDR slice
    expect(startsKeyframe(bytes(0x78, 0x00, 0x02, 0x68, 0xce, 0x00, 0x02, 0x67, 0x42), 'H264')).toBe(true); // STAP-A: PPS, SPS
    expect(startsKeyframe(bytes(0x78, 0x00, 0x02, 0x68, 0xce), 'H264')).toBe(false); // STAP-A: PPS only
  });
});
