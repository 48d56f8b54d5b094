import { spawn, type ChildProcess } from 'node:child_process';

/** One decoded frame as the session would composite it, with when it arrived here. */
export interface KeyedFrame {
  /** performance.now() when the frame was read. */
  at: number;
  /** Packed RGB, `width` × `height` (the picture scaled down, see KeyedFrameReader). */
  rgb: Buffer;
}

/**
 * Every frame the render worker sends, received like the session pipeline does it (rtpjitterbuffer,
 * H.264 decode, the chroma key removed with `alpha method=green`) and composited over a solid
 * background, read back at full rate as small raw RGB pictures on stdout (no files, no PNG
 * encoding: cheap enough to keep all 30 frames a second). Where the page is transparent, or keyed,
 * the background shows; anything the worker sends opaque covers it.
 */
export class KeyedFrameReader {
  readonly frames: KeyedFrame[] = [];
  private pending = Buffer.alloc(0);

  private constructor(
    private readonly proc: ChildProcess,
    readonly width: number,
    readonly height: number,
  ) {
    const size = width * height * 3;
    proc.stdout?.on('data', (d: Buffer) => {
      this.pending = Buffer.concat([this.pending, d]);
      while (this.pending.length >= size) {
        this.frames.push({ at: performance.now(), rgb: this.pending.subarray(0, size) });
        this.pending = this.pending.subarray(size);
      }
    });
  }

  /**
   * `page` is the size the worker sends; `background` the colour under the keyed picture (0xRRGGBB);
   * frames are read scaled down to `width` × `height`.
   */
  static start(videoPort: number, page: { width: number; height: number }, background: number, read = { width: 64, height: 36 }): KeyedFrameReader {
    const proc = spawn(
      'gst-launch-1.0',
      [
        '-q',
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
        '!',
        'alpha',
        'method=green',
        '!',
        'c.sink_1',
        'videotestsrc',
        'is-live=true',
        'pattern=solid-color',
        `foreground-color=${(0xff000000 | background) >>> 0}`,
        '!',
        `video/x-raw,width=${page.width},height=${page.height},framerate=30/1`,
        '!',
        'c.sink_0',
        // The background is live: frames come out at 30 fps whether or not the page sends any.
        'compositor',
        'name=c',
        'sink_0::zorder=0',
        'sink_1::zorder=1',
        // At the page's size: scaled down only afterwards (left to negotiate, the compositor's canvas
        // would take the small size and crop the pictures to their top-left corner).
        '!',
        `video/x-raw,width=${page.width},height=${page.height}`,
        '!',
        'videoconvert',
        '!',
        'videoscale',
        '!',
        `video/x-raw,format=RGB,width=${read.width},height=${read.height}`,
        '!',
        'fdsink',
        'fd=1',
        'sync=false',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    return new KeyedFrameReader(proc, read.width, read.height);
  }

  /** The colour at (x, y) of the page, in the page's own coordinates. */
  colourAt(frame: KeyedFrame, x: number, y: number, page: { width: number; height: number }): [number, number, number] {
    const px = Math.min(this.width - 1, Math.floor((x * this.width) / page.width));
    const py = Math.min(this.height - 1, Math.floor((y * this.height) / page.height));
    const i = (py * this.width + px) * 3;
    return [frame.rgb[i] ?? 0, frame.rgb[i + 1] ?? 0, frame.rgb[i + 2] ?? 0];
  }

  async stop(): Promise<void> {
    const p = this.proc;
    if (p.exitCode !== null || p.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGKILL');
    });
  }
}
