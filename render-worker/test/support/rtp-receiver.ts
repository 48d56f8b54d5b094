import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free UDP port on loopback (bound and released; good enough for tests on one machine). */
export async function freeUdpPort(): Promise<number> {
  const sock = createSocket('udp4');
  await new Promise<void>((resolve) => sock.bind(0, '127.0.0.1', () => resolve()));
  const { port } = sock.address();
  await new Promise<void>((resolve) => sock.close(() => resolve()));
  return port;
}

/**
 * A plain GStreamer receiver of the render worker's RTP, like the session pipeline's input:
 * H.264 → decoded PNG frames at 2 fps into a folder, and Opus → raw 16-bit mono samples.
 */
export class RtpReceiver {
  private constructor(
    readonly dir: string,
    private readonly procs: ChildProcess[],
  ) {}

  /**
   * `keyOver` composites the received picture, its chroma key removed (`alpha method=green`, as
   * the session pipeline does for web pages), over a solid background of that size and colour.
   */
  static async start(videoPort: number, audioPort: number | null, keyOver?: { width: number; height: number; argb: number }): Promise<RtpReceiver> {
    const dir = await mkdtemp(join(tmpdir(), 'onair-rtp-recv-'));
    const procs: ChildProcess[] = [];
    const receive = [
      'udpsrc',
      `port=${videoPort}`,
      'address=127.0.0.1',
      'caps=application/x-rtp,media=video,encoding-name=H264,clock-rate=90000,payload=96',
      '!',
      'rtpjitterbuffer',
      'latency=100',
      '!',
      'rtph264depay',
      '!',
      'h264parse',
      '!',
      'avdec_h264',
      '!',
      'videoconvert',
    ];
    const save = ['!', 'videorate', '!', 'video/x-raw,framerate=2/1', '!', 'pngenc', '!', 'multifilesink', `location=${join(dir, 'frame-%05d.png')}`];
    const video = keyOver
      ? [
          ...receive,
          '!',
          'alpha',
          'method=green',
          '!',
          'c.sink_1',
          'videotestsrc',
          'is-live=true',
          'pattern=solid-color',
          `foreground-color=${keyOver.argb}`,
          '!',
          `video/x-raw,width=${keyOver.width},height=${keyOver.height},framerate=30/1`,
          '!',
          'c.sink_0',
          'compositor',
          'name=c',
          'sink_0::zorder=0',
          'sink_1::zorder=1',
          '!',
          'videoconvert',
          ...save,
        ]
      : [...receive, ...save];
    procs.push(spawn('gst-launch-1.0', ['-q', ...video], { stdio: 'ignore' }));
    if (audioPort !== null) {
      procs.push(
        spawn(
          'gst-launch-1.0',
          [
            '-q',
            'udpsrc',
            `port=${audioPort}`,
            'address=127.0.0.1',
            'caps=application/x-rtp,media=audio,encoding-name=OPUS,clock-rate=48000,payload=111',
            '!',
            'rtpjitterbuffer',
            'latency=100',
            '!',
            'rtpopusdepay',
            '!',
            'opusdec',
            '!',
            'audioconvert',
            '!',
            'audioresample',
            '!',
            'audio/x-raw,format=S16LE,channels=1,rate=8000',
            '!',
            'filesink',
            `location=${join(dir, 'audio.raw')}`,
            'buffer-mode=unbuffered',
          ],
          { stdio: 'ignore' },
        ),
      );
    }
    return new RtpReceiver(dir, procs);
  }

  async frames(): Promise<string[]> {
    return (await readdir(this.dir))
      .filter((f) => f.endsWith('.png'))
      .sort()
      .map((f) => join(this.dir, f));
  }

  /** Waits until `count` more frames than `after` exist, returns the newest paths. */
  async waitForFrames(count: number, timeoutMs: number, after = 0): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frames = await this.frames();
      // The newest file may still be being written: only count complete ones.
      if (frames.length - 1 >= after + count) return frames.slice(-count - 1, -1);
      if (Date.now() > deadline) throw new Error(`got ${frames.length} frames, wanted ${after + count} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** RMS of the last `seconds` of received audio (16-bit mono 8 kHz), 0 when none. */
  async audioRms(seconds = 1): Promise<number> {
    let buf: Buffer;
    try {
      buf = await readFile(join(this.dir, 'audio.raw'));
    } catch {
      return 0;
    }
    const samples = Math.min(Math.floor(buf.length / 2), 8000 * seconds);
    if (samples === 0) return 0;
    let sum = 0;
    const start = buf.length - samples * 2;
    for (let i = 0; i < samples; i++) {
      const v = buf.readInt16LE(start + i * 2);
      sum += v * v;
    }
    return Math.sqrt(sum / samples);
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null || p.signalCode !== null) return resolve();
            p.once('exit', () => resolve());
            p.kill('SIGKILL');
          }),
      ),
    );
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** Width and height from a PNG's IHDR chunk. */
export async function pngSize(path: string): Promise<{ width: number; height: number }> {
  const buf = await readFile(path);
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** The decoded RGB of one pixel, read with ffmpeg (crop to the pixel, raw rgb24). */
export async function pixelAt(path: string, x: number, y: number): Promise<[number, number, number]> {
  const out = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const p = spawn('ffmpeg', ['-loglevel', 'error', '-i', path, '-vf', `crop=1:1:${x}:${y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-']);
    p.stdout.on('data', (d: Buffer) => chunks.push(d));
    p.on('error', reject);
    p.on('exit', () => resolve(Buffer.concat(chunks)));
  });
  return [out[0] ?? 0, out[1] ?? 0, out[2] ?? 0];
}
