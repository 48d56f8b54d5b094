/**
 * Reads what a destination received, the way a platform would: ffprobe for the stream's format,
 * ffmpeg for packets over time and for single frames. Every child is killed when its time is up.
 */
import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface StreamFormat {
  /** `fps` is what the container declares; FLV often has none, so count packets (readPackets) to check a rate. */
  video: { codec: string; width: number; height: number; fps: number };
  audio: { codec: string; sampleRate: number; channels: number };
}

interface FfprobeStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
}

function rate(text: string | undefined): number {
  const [num, den] = (text ?? '0/1').split('/').map(Number);
  return den ? (num ?? 0) / den : 0;
}

/** Codec, size, rate and audio format of a live RTMP stream (or a file). */
export async function probeStream(url: string, timeoutMs = 15_000): Promise<StreamFormat> {
  const { stdout } = await execFileAsync('ffprobe', ['-v', 'error', '-rw_timeout', '8000000', '-show_streams', '-of', 'json', url], {
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
  const streams = (JSON.parse(stdout) as { streams: FfprobeStream[] }).streams;
  const v = streams.find((s) => s.codec_type === 'video');
  const a = streams.find((s) => s.codec_type === 'audio');
  if (!v || !a) throw new Error(`stream lacks ${v ? 'audio' : 'video'}`);
  return {
    video: { codec: v.codec_name, width: v.width ?? 0, height: v.height ?? 0, fps: rate(v.avg_frame_rate) || rate(v.r_frame_rate) },
    audio: { codec: a.codec_name, sampleRate: Number(a.sample_rate), channels: a.channels ?? 0 },
  };
}

export interface Packet {
  stream: 'video' | 'audio';
  pts: number;
  keyframe: boolean;
}

/** Packets of a live stream read for `seconds` (pts in seconds, keyframe flags). */
export async function readPackets(url: string, seconds: number): Promise<Packet[]> {
  const { stdout } = await execFileAsync(
    'ffprobe',
    ['-v', 'error', '-rw_timeout', '8000000', '-read_intervals', `%+${seconds}`, '-show_entries', 'packet=codec_type,pts_time,flags', '-of', 'csv=p=0', url],
    { timeout: (seconds + 15) * 1000, killSignal: 'SIGKILL', maxBuffer: 32 * 1024 * 1024 },
  );
  return stdout.split('\n').flatMap((line) => packetOf(line) ?? []);
}

/** One line of ffprobe's `packet=codec_type,pts_time,flags` in csv; undefined for any other line. */
function packetOf(line: string): Packet | undefined {
  const [type, pts, flags] = line.split(',');
  if ((type !== 'video' && type !== 'audio') || pts === undefined || pts === 'N/A') return undefined;
  return { stream: type, pts: Number(pts), keyframe: (flags ?? '').includes('K') };
}

/** A live stream's packets as they are read, each with the wall time (Date.now()) it arrived. */
export interface PacketWatch {
  readonly packets: readonly (Packet & { at: number })[];
  /**
   * Resolves with the next video keyframe read live: one that arrived about a GOP after the keyframe
   * before it, not one of the packets ffprobe read ahead while it probed the stream and printed in a burst.
   */
  liveKeyframe(gopSeconds: number, timeoutMs?: number): Promise<Packet & { at: number }>;
  stop(): void;
}

/**
 * Watches a live stream's packets as they arrive (ffprobe, its output line-buffered), so a test
 * can act at a known place in the stream (say, 1 s into a GOP) instead of predicting it from a read
 * that ended at a moment it cannot know (an ffprobe that took its time to exit on a loaded machine).
 */
export function watchPackets(url: string): PacketWatch {
  const child = spawn(
    'stdbuf',
    ['-oL', 'ffprobe', '-v', 'error', '-rw_timeout', '8000000', '-show_entries', 'packet=codec_type,pts_time,flags', '-of', 'csv=p=0', url],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const packets: (Packet & { at: number })[] = [];
  const waiters = new Set<() => void>();
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const at = Date.now();
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const packet = packetOf(line);
      if (packet) packets.push({ ...packet, at });
    }
    for (const wake of waiters) wake();
  });
  return {
    packets,
    liveKeyframe: (gopSeconds, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const from = packets.length;
        const check = () => {
          const keys = packets.filter((p) => p.stream === 'video' && p.keyframe);
          const newest = keys.at(-1);
          const before = keys.at(-2);
          if (newest && before && packets.indexOf(newest) >= from && newest.at - before.at >= gopSeconds * 1000 * 0.75) {
            done();
            resolve(newest);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no keyframe read live within ${timeoutMs} ms (${packets.length} packets read)`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
      }),
    stop: () => {
      child.kill('SIGKILL');
    },
  };
}

/** Seconds between consecutive keyframes of the video packets. */
export function keyframeIntervals(packets: readonly Packet[]): number[] {
  const keys = packets.filter((p) => p.stream === 'video' && p.keyframe).map((p) => p.pts);
  return keys.slice(1).map((t, i) => t - keys[i]!);
}

/** The longest hole between consecutive video packets, in seconds of stream time. */
export function longestVideoGap(packets: readonly Packet[]): number {
  const times = packets.filter((p) => p.stream === 'video').map((p) => p.pts);
  let gap = 0;
  for (let i = 1; i < times.length; i++) gap = Math.max(gap, times[i]! - times[i - 1]!);
  return gap;
}

export interface Frame {
  width: number;
  height: number;
  /** RGB24 bytes, row by row. */
  rgb: Buffer;
}

/** One decoded frame of a live stream, taken `skipFrames` frames in (after the first keyframe). */
export async function grabFrame(url: string, width: number, height: number, skipFrames = 0, timeoutMs = 15_000): Promise<Frame> {
  return (await grabFrames(url, width, height, [skipFrames], timeoutMs))[0]!;
}

/** Decoded frames of one read of a live stream, by their number after the first keyframe (ascending). */
export async function grabFrames(url: string, width: number, height: number, numbers: readonly number[], timeoutMs = 15_000): Promise<Frame[]> {
  const size = width * height * 3;
  const select = numbers.map((n) => `eq(n\\,${n})`).join('+');
  return new Promise((resolve, reject) => {
    const reader = rgbReader(url, ['-vf', `select=${select}`, '-fps_mode', 'passthrough', '-frames:v', String(numbers.length)]);
    const chunks: Buffer[] = [];
    reader.child.stdout.on('data', (d: Buffer) => chunks.push(d));
    const timer = setTimeout(() => reader.child.kill('SIGKILL'), timeoutMs);
    reader.child.on('close', () => {
      clearTimeout(timer);
      const rgb = Buffer.concat(chunks);
      if (rgb.length < size * numbers.length)
        reject(new Error(`${Math.floor(rgb.length / size)} of ${numbers.length} frames from the stream: ${reader.stderr()}`));
      else resolve(numbers.map((_, i) => ({ width, height, rgb: rgb.subarray(i * size, (i + 1) * size) })));
    });
  });
}

/** An ffmpeg decoding a live stream to raw RGB24 frames on its stdout, with `args` before the output; what it said on stderr. */
function rgbReader(url: string, args: readonly string[]): { child: ChildProcessByStdio<null, Readable, Readable>; stderr: () => string } {
  const child = spawn('ffmpeg', ['-v', 'error', '-rw_timeout', '8000000', '-i', url, ...args, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return { child, stderr: () => stderr.trim() };
}

/**
 * Reads a live stream frame by frame until `wanted` holds for one, at most `maxFrames` frames after
 * the first keyframe: a change applied live shows in a later frame, however loaded the machine is.
 * Gives that frame, or the last one read when none matched (for the caller's assertion to describe),
 * and how many frames in it was.
 */
export async function grabFrameWhere(
  url: string,
  width: number,
  height: number,
  wanted: (frame: Frame) => boolean,
  maxFrames = 300,
  timeoutMs = 60_000,
): Promise<{ frame: Frame; index: number; matched: boolean }> {
  const size = width * height * 3;
  return new Promise((resolve, reject) => {
    const { child, stderr } = rgbReader(url, ['-frames:v', String(maxFrames)]);
    let pending = Buffer.alloc(0);
    let last: Frame | undefined;
    let index = -1;
    let done = false;
    const finish = (matched: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (last) resolve({ frame: last, index, matched });
      else reject(new Error(`no frame from the stream: ${stderr()}`));
    };
    child.stdout.on('data', (d: Buffer) => {
      if (done) return;
      pending = Buffer.concat([pending, d]);
      while (pending.length >= size) {
        last = { width, height, rgb: Buffer.from(pending.subarray(0, size)) };
        pending = pending.subarray(size);
        index += 1;
        if (wanted(last)) return finish(true);
      }
    });
    const timer = setTimeout(() => finish(false), timeoutMs);
    child.on('close', () => finish(false));
  });
}

export function pixel(frame: Frame, x: number, y: number): [number, number, number] {
  const i = (y * frame.width + x) * 3;
  return [frame.rgb[i]!, frame.rgb[i + 1]!, frame.rgb[i + 2]!];
}

/** Whether a pixel is within `tolerance` of a colour on every channel (H.264 shifts colours slightly). */
export function near(actual: readonly number[], expected: readonly number[], tolerance = 40): boolean {
  return actual.every((v, i) => Math.abs(v - (expected[i] ?? 0)) <= tolerance);
}

/** RMS level (0..1) of a live stream's audio per `windowMs`, mono 8 kHz, over `seconds`. */
export async function readAudioLevels(url: string, seconds: number, windowMs = 50): Promise<number[]> {
  const { stdout } = await execFileAsync(
    'ffmpeg',
    ['-v', 'error', '-rw_timeout', '8000000', '-i', url, '-t', String(seconds), '-vn', '-ac', '1', '-ar', '8000', '-f', 's16le', '-'],
    { timeout: (seconds + 15) * 1000, killSignal: 'SIGKILL', encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
  );
  const samplesPerWindow = (8000 * windowMs) / 1000;
  const levels: number[] = [];
  for (let start = 0; start + samplesPerWindow * 2 <= stdout.length; start += samplesPerWindow * 2) {
    let sum = 0;
    for (let i = 0; i < samplesPerWindow; i++) sum += (stdout.readInt16LE(start + i * 2) / 32768) ** 2;
    levels.push(Math.sqrt(sum / samplesPerWindow));
  }
  return levels;
}
