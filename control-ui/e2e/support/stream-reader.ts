// A viewer of an RTMP stream that never looks away: every video packet's FLV timestamp and arrival
// time, and every frame decoded small, from one connection for the whole flow. The same reading as
// media-worker/test/helpers/output-reader.ts (readVideoPackets and readOutput), whose files an e2e
// flow does not import (apps never import each other); here both come from one GStreamer process,
// so the program is pulled from the RTMP server once.
import { spawn, type ChildProcess } from 'node:child_process';

/** The decoded frames' size: a 20×20 block of the 1280×720 canvas per pixel, enough to tell a layer's colour. */
export const READER_WIDTH = 64;
export const READER_HEIGHT = 36;
const FRAME_BYTES = READER_WIDTH * READER_HEIGHT * 3;

export interface VideoPacket {
  /** The FLV tag's timestamp: ms of stream time. */
  ts: number;
  /** When its line reached this process (performance.now()). */
  at: number;
}

export interface ReadFrame {
  rgb: Buffer;
  at: number;
}

export interface StreamReader {
  readonly packets: readonly VideoPacket[];
  /** Every frame decoded so far (7 KB each: a few minutes of them is a few tens of MB). */
  readonly frames: readonly ReadFrame[];
  /** When the reader's connection ended (the stream broke off at the server), performance.now() each. */
  readonly breaks: readonly number[];
  latestFrame(): ReadFrame | undefined;
  /**
   * The first frame decoded after `since` (performance.now()) for which `seen` holds; rejects after
   * `timeoutMs`, saying what the last frame showed (`describe`) and whether the stream still came.
   */
  frameWhere(what: string, seen: (rgb: Buffer) => boolean, since: number, timeoutMs: number, describe?: (rgb: Buffer) => string): Promise<ReadFrame>;
  /** Resolves once a packet has arrived at or after `at` (performance.now()); rejects after `timeoutMs`. */
  packetAfter(at: number, timeoutMs: number): Promise<void>;
  stop(): void;
}

/** The colour of the canvas point (x, y) of the 1280×720 scene in a reader frame. */
export function colourAt(rgb: Buffer, x: number, y: number): number[] {
  const i = (Math.floor((y * READER_HEIGHT) / 720) * READER_WIDTH + Math.floor((x * READER_WIDTH) / 1280)) * 3;
  return [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
}

/** "h:mm:ss.nnnnnnnnn" as GStreamer prints a clock time, in ms. */
function clockTimeMs(text: string): number {
  const [h, m, s] = text.split(':');
  return (Number(h) * 3600 + Number(m) * 60 + Number(s)) * 1000;
}

/**
 * Starts reading `url`. The demuxer's video packets pass GStreamer's identity, which prints a line per
 * packet as it arrives (stdbuf makes gst-launch write each line at once), then an unbounded queue
 * before the decoder: a decoder slowed by a loaded machine delays the frames, never the packet times.
 * Frames (RGB, READER_WIDTH×READER_HEIGHT) come on fd 3. If the connection ends, the reader connects
 * again and the break is kept: a stream that broke off at the server is what this reader is for.
 */
export function readStream(url: string): StreamReader {
  const packets: VideoPacket[] = [];
  const breaks: number[] = [];
  const frames: ReadFrame[] = [];
  let latest: ReadFrame | undefined;
  let stopped = false;
  let reader: ChildProcess | undefined;
  const frameWaiters = new Set<(frame: ReadFrame) => void>();
  const packetWaiters = new Set<(packet: VideoPacket) => void>();

  const connect = () => {
    const args = ['-oL', 'gst-launch-1.0', '-v', 'rtmp2src', `location=${url}`, '!', 'flvdemux', 'name=demux'];
    args.push('demux.video', '!', 'identity', 'name=packets', 'silent=false', '!', 'queue', 'max-size-buffers=0', 'max-size-bytes=0', 'max-size-time=0');
    args.push('!', 'h264parse', '!', 'avdec_h264', 'max-threads=1', '!', 'videoscale', '!', 'videoconvert');
    args.push('!', `video/x-raw,format=RGB,width=${READER_WIDTH},height=${READER_HEIGHT}`, '!', 'fdsink', 'fd=3', 'sync=false', 'async=false');
    // The audio is read and dropped: flvdemux stops when one of its pads is not linked.
    args.push('demux.audio', '!', 'fakesink', 'sync=false', 'async=false');
    const child = spawn('stdbuf', args, { stdio: ['ignore', 'pipe', 'ignore', 'pipe'] });
    reader = child;
    let everRead = false;
    let pendingText = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const at = performance.now();
      const lines = (pendingText + chunk.toString('latin1')).split('\n');
      pendingText = lines.pop() ?? '';
      for (const line of lines) {
        const m = /packets: last-message = chain .*? dts: ([0-9:.]+)/.exec(line);
        if (!m) continue;
        everRead = true;
        const packet = { ts: clockTimeMs(m[1]!), at };
        packets.push(packet);
        for (const waiter of packetWaiters) waiter(packet);
      }
    });
    const frame = Buffer.alloc(FRAME_BYTES);
    let filled = 0;
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      const at = performance.now();
      let offset = 0;
      while (offset < chunk.length) {
        const n = Math.min(FRAME_BYTES - filled, chunk.length - offset);
        chunk.copy(frame, filled, offset, offset + n);
        filled += n;
        offset += n;
        if (filled === FRAME_BYTES) {
          filled = 0;
          latest = { rgb: Buffer.from(frame), at };
          frames.push(latest);
          for (const waiter of frameWaiters) waiter(latest);
        }
      }
    });
    child.on('exit', () => {
      if (stopped) return;
      // A connection that read nothing (the stream not published yet) is no break of the stream.
      if (everRead) breaks.push(performance.now());
      setTimeout(connect, 200);
    });
  };
  connect();

  return {
    packets,
    frames,
    breaks,
    latestFrame: () => latest,
    frameWhere: (what, seen, since, timeoutMs, describe) =>
      new Promise((resolve, reject) => {
        const waiter = (frame: ReadFrame) => {
          if (frame.at < since) return;
          if (!seen(frame.rgb)) return;
          clearTimeout(timer);
          frameWaiters.delete(waiter);
          resolve(frame);
        };
        const timer = setTimeout(() => {
          frameWaiters.delete(waiter);
          const now = performance.now();
          const lastFrame = latest
            ? `the last frame, ${Math.round(now - latest.at)} ms ago, showed ${describe ? describe(latest.rgb) : 'something else'}`
            : 'no frame decoded at all';
          const lastPacket = packets.length > 0 ? `last video packet ${Math.round(now - packets.at(-1)!.at)} ms ago` : 'no video packet read';
          reject(new Error(`no frame showed ${what} within ${timeoutMs} ms: ${lastFrame}; ${lastPacket}; the connection broke off ${breaks.length} times`));
        }, timeoutMs);
        frameWaiters.add(waiter);
      }),
    packetAfter: (at, timeoutMs) =>
      new Promise((resolve, reject) => {
        if (packets.length > 0 && packets.at(-1)!.at >= at) return resolve();
        const waiter = (packet: VideoPacket) => {
          if (packet.at < at) return;
          clearTimeout(timer);
          packetWaiters.delete(waiter);
          resolve();
        };
        const timer = setTimeout(
          () => {
            packetWaiters.delete(waiter);
            reject(new Error(`no video packet arrived after ${Math.round(at)} (last at ${Math.round(packets.at(-1)?.at ?? -1)}) within ${timeoutMs} ms`));
          },
          Math.max(0, at - performance.now()) + timeoutMs,
        );
        packetWaiters.add(waiter);
      }),
    stop: () => {
      stopped = true;
      reader?.kill('SIGKILL');
      frameWaiters.clear();
      packetWaiters.clear();
    },
  };
}
