import type { RenderRtpTarget } from '@onair/protocol';
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
    'ximagesrc', `display-name=${c.display}`, 'use-damage=false', 'show-pointer=false',
    'startx=0', 'starty=0', `endx=${c.width - 1}`, `endy=${c.height - 1}`,
    '!', `video/x-raw,framerate=${CAPTURE_FPS}/1`,
    '!', 'queue', 'max-size-buffers=2', 'leaky=downstream',
    '!', 'videoconvert',
    '!', 'video/x-raw,format=I420',
    '!', 'x264enc', 'tune=zerolatency', 'speed-preset=ultrafast', `key-int-max=${KEYFRAME_INTERVAL}`, `bitrate=${videoBitrateKbps(c.width, c.height)}`,
    '!', 'video/x-h264,profile=constrained-baseline',
    '!', 'rtph264pay', 'config-interval=-1', `pt=${c.video.payloadType}`, 'mtu=1200', ...(c.video.ssrc === undefined ? [] : [`ssrc=${c.video.ssrc}`]),
    '!', 'udpsink', `host=${c.video.host}`, `port=${c.video.port}`, 'sync=false', 'async=false',
  ];
  if (!c.audio) return ['-e', ...video];
  const a = c.audio.target;
  const audio = [
    'pulsesrc', `server=${c.audio.server}`, `device=${PAGE_SINK}.monitor`, 'provide-clock=false',
    '!', 'audioconvert', '!', 'audioresample',
    '!', 'audio/x-raw,rate=48000,channels=2',
    '!', 'opusenc', 'bitrate=128000',
    '!', 'rtpopuspay', `pt=${a.payloadType}`, 'mtu=1200', ...(a.ssrc === undefined ? [] : [`ssrc=${a.ssrc}`]),
    '!', 'udpsink', `host=${a.host}`, `port=${a.port}`, 'sync=false', 'async=false',
  ];
  return ['-e', ...video, ...audio];
}

/** One gst-launch process per page: a fault in capture or encoding stays inside it. */
export function startCapture(c: CaptureConfig): TetheredProcess {
  return new TetheredProcess('gst-launch-1.0', captureArgs(c), { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' } });
}
