import { RENDER_CHROMA_KEY, type RenderRtpTarget } from '@onair/protocol';
import { TetheredProcess } from '@onair/runtime';
import { PAGE_SINK } from './page-audio.ts';

export interface CaptureConfig {
  display: string;
  width: number;
  height: number;
  video: RenderRtpTarget;
  /** The page's PulseAudio server, with the target for its sound; none for a silent page. */
  audio: { server: string; target: RenderRtpTarget } | null;
}

export const CAPTURE_FPS = 30;
/** A keyframe every 2 s, with SPS/PPS, so a receiver that (re)starts gets a picture quickly. */
const KEYFRAME_INTERVAL = CAPTURE_FPS * 2;

/** About 3.5 kbit/s per thousand pixels: 1.4 Mbit/s at 852×480, 3.2 at 720p, capped at 6. */
export function videoBitrateKbps(width: number, height: number): number {
  return Math.min(6000, Math.round(((width * height) / 1000) * 3.5));
}

/**
 * The gst-launch description of one page's capture: the virtual display's screen at a constant
 * 30 fps (use-damage=false: damage tracking costs more than it saves for animated overlays, and
 * a steady rate keeps the compositor fed) → H.264 → RTP, and the page sink's monitor → Opus → RTP.
 * Built as an argument list, never a shell string.
 */
export function captureArgs(c: CaptureConfig): string[] {
  const video = [
    'ximagesrc',
    `display-name=${c.display}`,
    'use-damage=false',
    'show-pointer=false',
    'startx=0',
    'starty=0',
    `endx=${c.width - 1}`,
    `endy=${c.height - 1}`,
    '!',
    `video/x-raw,framerate=${CAPTURE_FPS}/1`,
    '!',
    'queue',
    'max-size-buffers=2',
    'leaky=downstream',
    ...encodeH264(c.width, c.height, c.video),
    '!',
    'udpsink',
    `host=${c.video.host}`,
    `port=${c.video.port}`,
    'sync=false',
    'async=false',
  ];
  if (!c.audio) return ['-e', ...video];
  const a = c.audio.target;
  const audio = [
    'pulsesrc',
    `server=${c.audio.server}`,
    `device=${PAGE_SINK}.monitor`,
    'provide-clock=false',
    '!',
    'audioconvert',
    '!',
    'audioresample',
    '!',
    'audio/x-raw,rate=48000,channels=2',
    '!',
    'opusenc',
    'bitrate=128000',
    '!',
    'rtpopuspay',
    `pt=${a.payloadType}`,
    'mtu=1200',
    ...(a.ssrc === undefined ? [] : [`ssrc=${a.ssrc}`]),
    '!',
    'udpsink',
    `host=${a.host}`,
    `port=${a.port}`,
    'sync=false',
    'async=false',
  ];
  return ['-e', ...video, ...audio];
}

/** Raw video → H.264 RTP, the same for the page and its cover (one stream: the same parameters either side of a switch). */
function encodeH264(width: number, height: number, video: Pick<RenderRtpTarget, 'payloadType' | 'ssrc'>): string[] {
  return [
    '!',
    'videoconvert',
    '!',
    'video/x-raw,format=I420',
    '!',
    'x264enc',
    'tune=zerolatency',
    'speed-preset=ultrafast',
    `key-int-max=${KEYFRAME_INTERVAL}`,
    `bitrate=${videoBitrateKbps(width, height)}`,
    '!',
    'video/x-h264,profile=constrained-baseline',
    '!',
    'rtph264pay',
    'config-interval=-1',
    `pt=${video.payloadType}`,
    'mtu=1200',
    ...(video.ssrc === undefined ? [] : [`ssrc=${video.ssrc}`]),
  ];
}

/**
 * The gst-launch description of a page's cover: one picture of the chroma key at the page's size,
 * encoded as the capture encodes (a keyframe with its SPS and PPS), written to stdout as RTP packets
 * framed by their 16-bit length (RFC 4571).
 */
export function coverArgs(width: number, height: number, payloadType: number): string[] {
  const { r, g, b } = RENDER_CHROMA_KEY;
  return [
    '-q',
    'videotestsrc',
    'num-buffers=1',
    'pattern=solid-color',
    `foreground-color=${((0xff << 24) | (r << 16) | (g << 8) | b) >>> 0}`,
    '!',
    `video/x-raw,width=${width},height=${height},framerate=${CAPTURE_FPS}/1`,
    ...encodeH264(width, height, { payloadType }),
    '!',
    'rtpstreampay',
    '!',
    'fdsink',
    'fd=1',
  ];
}

/** The RTP packets of the cover picture at this size (see coverArgs); the session keys all of it out. */
export async function encodeCover(width: number, height: number, payloadType: number, timeoutMs = 10_000): Promise<Buffer[]> {
  const proc = new TetheredProcess('gst-launch-1.0', coverArgs(width, height, payloadType), {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
  });
  const chunks: Buffer[] = [];
  proc.child.stdout?.on('data', (d: Buffer) => chunks.push(d));
  const timer = setTimeout(() => proc.killGroup(), timeoutMs);
  const exit = await proc.exited;
  clearTimeout(timer);
  const stream = Buffer.concat(chunks);
  const packets: Buffer[] = [];
  for (let at = 0; at + 2 <= stream.length; ) {
    const size = stream.readUInt16BE(at);
    if (at + 2 + size > stream.length) break;
    packets.push(stream.subarray(at + 2, at + 2 + size));
    at += 2 + size;
  }
  if (exit.code !== 0 || packets.length === 0)
    throw new Error(`the cover picture could not be encoded (exit ${exit.code ?? exit.signal}): ${proc.stderrTail.slice(-300)}`);
  return packets;
}

/** One gst-launch process per page: a fault in capture or encoding stays inside it. */
export function startCapture(c: CaptureConfig): TetheredProcess {
  return new TetheredProcess('gst-launch-1.0', captureArgs(c), { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' } });
}
