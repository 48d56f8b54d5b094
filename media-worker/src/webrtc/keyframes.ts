import type { PipelineEncoding } from './media-ports.ts';

/**
 * Whether an RTP payload starts a keyframe, so the forwarder knows when a keyframe it asked for
 * has really gone through (a browser ignores a request that comes too soon after the previous
 * one: Chromium drops those within 300 ms, so asking once is not enough).
 *   VP8 (RFC 7741): the first packet of partition 0 (S=1, PID=0) whose payload header has P=0.
 *   H.264 (RFC 6184): an IDR slice or an SPS, alone, in a STAP-A, or at the start of an FU-A.
 */
export function startsKeyframe(payload: Uint8Array, encoding: PipelineEncoding): boolean {
  if (encoding === 'VP8') return vp8Keyframe(payload);
  if (encoding === 'H264') return h264Keyframe(payload);
  return false;
}

function vp8Keyframe(p: Uint8Array): boolean {
  if (p.length < 2) return false;
  const first = p[0]!;
  const start = (first & 0x10) !== 0;
  const partition = first & 0x0f;
  if (!start || partition !== 0) return false;
  let i = 1;
  if (first & 0x80) {
    const ext = p[i++];
    if (ext === undefined) return false;
    if (ext & 0x80) i += (p[i] ?? 0) & 0x80 ? 2 : 1; // PictureID, 7 or 15 bits
    if (ext & 0x40) i += 1; // TL0PICIDX
    if (ext & 0x30) i += 1; // TID / KEYIDX
  }
  const header = p[i];
  return header !== undefined && (header & 0x01) === 0;
}

const IDR = 5;
const SPS = 7;
const STAP_A = 24;
const FU_A = 28;

function h264Keyframe(p: Uint8Array): boolean {
  const type = (p[0] ?? 0) & 0x1f;
  if (type === IDR || type === SPS) return true;
  if (type === FU_A) {
    const fu = p[1] ?? 0;
    return (fu & 0x80) !== 0 && ((fu & 0x1f) === IDR || (fu & 0x1f) === SPS);
  }
  if (type === STAP_A) {
    for (let i = 1; i + 2 < p.length; ) {
      const size = (p[i]! << 8) | p[i + 1]!;
      const nal = (p[i + 2] ?? 0) & 0x1f;
      if (nal === IDR || nal === SPS) return true;
      i += 2 + size;
    }
  }
  return false;
}
