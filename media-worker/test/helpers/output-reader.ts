/**
 * Reads a destination's stream the way a latency measurement needs it: every video packet decoded
 * as it arrives (GStreamer rtmp2src → flvdemux → avdec_h264, one decoding thread), downscaled to
 * 16×9 RGB, each frame stamped with its arrival time in this process.
 *
 * Why not ffmpeg's command-line player: on the same stream it showed every change ~50 ms later
 * (pipeline-bench patch, 30 changes each, same session: median 133 vs 84 ms) — its own queues
 * between demuxing, decoding and writing, not the stream. A measuring reader must add as little as
 * it can, and it can never show a frame before it arrived.
 *
 * What remains in the figure besides the pipeline: the RTMP server relaying to the reader (nginx-rtmp
 * writes to its players with Nagle on; a capture of the loopback showed its sends to the reader at
 * up to 44 ms intervals where the pipeline's arrived every 33 ms), and the reader's decode.
 */
import { spawn } from 'node:child_process';

export const READER_WIDTH = 16;
export const READER_HEIGHT = 9;
const FRAME_BYTES = READER_WIDTH * READER_HEIGHT * 3;

/** Starts reading `url`; `onFrame` gets each decoded frame (RGB, 16×9) and its arrival time (performance.now()). */
export function readOutput(url: string, onFrame: (frame: Buffer, at: number) => void): () => void {
  const args = ['-q', 'rtmp2src', `location=${url}`, '!', 'flvdemux', 'name=demux'];
  args.push('demux.video', '!', 'h264parse', '!', 'avdec_h264', 'max-threads=1', '!', 'videoscale', '!', 'videoconvert');
  args.push('!', `video/x-raw,format=RGB,width=${READER_WIDTH},height=${READER_HEIGHT}`, '!', 'fdsink', 'fd=1', 'sync=false', 'async=false');
  // The audio is read and dropped: flvdemux stops when one of its pads is not linked.
  args.push('demux.audio', '!', 'fakesink', 'sync=false', 'async=false');
  const reader = spawn('gst-launch-1.0', args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let pending = Buffer.alloc(0);
  reader.stdout.on('data', (chunk: Buffer) => {
    const at = performance.now();
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= FRAME_BYTES) {
      onFrame(Buffer.from(pending.subarray(0, FRAME_BYTES)), at);
      pending = pending.subarray(FRAME_BYTES);
    }
  });
  return () => reader.kill('SIGKILL');
}

/** Offset of the centre pixel's red byte in a reader frame. */
export const CENTRE_PIXEL = ((READER_HEIGHT >> 1) * READER_WIDTH + (READER_WIDTH >> 1)) * 3;

/** "h:mm:ss.nnnnnnnnn" as GStreamer prints a clock time, in ms. */
function clockTimeMs(text: string): number {
  const [h, m, s] = text.split(':');
  return (Number(h) * 3600 + Number(m) * 60 + Number(s)) * 1000;
}

/**
 * Reads `url` packet by packet without decoding: each video packet's timestamp (ms of stream time,
 * the FLV tag's) and its arrival here (performance.now()). GStreamer's identity prints a line per
 * buffer; stdbuf makes gst-launch write each line as it happens.
 *
 * With `follow`, it reads on when the stream ends (a new publisher replaced the old one, and the
 * RTMP server ended this player with the old one): a new reader starts at once, as a player that
 * retries would; `onRestart` is told when, and each restarted reader's stream time starts anew.
 */
export function readVideoPackets(
  url: string,
  onPacket: (timestampMs: number, at: number) => void,
  options: { follow?: boolean; onRestart?: (at: number) => void } = {},
): () => void {
  const args = ['-oL', 'gst-launch-1.0', '-v', 'rtmp2src', `location=${url}`, '!', 'flvdemux', 'name=demux'];
  args.push('demux.video', '!', 'identity', 'name=packets', 'silent=false', '!', 'fakesink', 'sync=false', 'async=false');
  args.push('demux.audio', '!', 'fakesink', 'sync=false', 'async=false');
  let stopped = false;
  let reader: ReturnType<typeof spawn>;
  const start = (): void => {
    const began = performance.now();
    reader = spawn('stdbuf', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let pending = '';
    reader.stdout!.on('data', (chunk: Buffer) => {
      const at = performance.now();
      const lines = (pending + chunk.toString('latin1')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /packets: last-message = chain .*? dts: ([0-9:.]+)/.exec(line);
        if (m) onPacket(clockTimeMs(m[1]!), at);
      }
    });
    reader.once('exit', () => {
      if (stopped || !options.follow) return;
      const at = performance.now();
      options.onRestart?.(at);
      // A reader turned away at once (no publisher yet) tries again shortly, not in a tight loop.
      setTimeout(start, at - began < 200 ? 50 : 0);
    });
  };
  start();
  return () => {
    stopped = true;
    reader.kill('SIGKILL');
  };
}
