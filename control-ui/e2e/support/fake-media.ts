// Chromium with fake camera and microphone devices that play known media (an orange picture and a
// 440 Hz tone, made by global-setup), and frame and level probes of an RTMP stream, for flows that
// check what a viewer of the output would see and hear.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { CHROMIUM_ARGS } from '../playwright.config.ts';

export const ORANGE = [255, 128, 0];

/**
 * Launch options for `test.use`: the fake devices play global-setup's files (or `camera`, a y4m file
 * such as solidCameraFile makes); WebRTC may pair over loopback.
 */
export function fakeMediaLaunchOptions(camera = process.env.ONAIR_E2E_FAKE_CAMERA ?? ''): { executablePath: string; args: string[] } {
  // Set by global-setup before the workers start (the runner's first read of a spec may come earlier; it launches nothing).
  const tone = process.env.ONAIR_E2E_FAKE_TONE ?? '';
  return {
    executablePath: '/usr/bin/chromium',
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream=fps=30',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${camera}`,
      `--use-file-for-fake-audio-capture=${tone}`,
      // Studio and media worker share this machine: let WebRTC pair over loopback.
      '--auto-select-desktop-capture-source=Entire screen',
      '--allow-loopback-in-peer-connection',
      '--disable-features=WebRtcHideLocalIpsWithMdns',
    ],
  };
}

/**
 * Writes a fake camera's file at `path`: two seconds of one colour (`0xRRGGBB`) at `size`, which
 * Chromium loops (a smaller picture costs its browser less to encode).
 */
export function solidCameraFile(path: string, colour: string, size = '1280x720'): string {
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=${size}:r=30:d=2`, '-pix_fmt', 'yuv420p', path]);
  return path;
}

/** One frame of the stream scaled to the 1280×720 scene canvas, as RGB24. */
export function grabFrame(url: string): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    execFile(
      'ffmpeg',
      ['-v', 'error', '-rw_timeout', '8000000', '-i', url, '-vf', 'scale=1280:720', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
      { encoding: 'buffer', timeout: 15_000, killSignal: 'SIGKILL', maxBuffer: 8 * 1024 * 1024 },
      (err, stdout) => resolve(err || stdout.length < 1280 * 720 * 3 ? undefined : stdout),
    );
  });
}

/** A continuous read of a stream: resolves like a promise (see watchFrames), and says when it reads. */
export type FrameWatch = Promise<Buffer | undefined> & {
  /** Resolves once the first whole frame is read (the reader is on the live stream), or when the watch ends. */
  reading: Promise<void>;
};

/**
 * Reads the stream's frames as they come (scaled to 1280×720, `fps` a second) and resolves with a
 * copy of the first one for which `seen` holds (`seen` is given a buffer that the next frame
 * overwrites), or undefined when `timeoutMs` passes. A single grabFrame waits for a keyframe each
 * time (about 2 s), so a picture shown for a few seconds can fall between two grabs; a continuous
 * read sees every one. Start it before the event whose picture is awaited, and send the event once
 * `reading` resolved: ffmpeg takes a keyframe and its probe to deliver its first frame, 1.5 s on a
 * quiet machine and several on a loaded one, and a card shown for 4 s could go by before it.
 */
export function watchFrames(url: string, seen: (rgb: Buffer) => boolean, timeoutMs: number, fps = 6): FrameWatch {
  const frameBytes = 1280 * 720 * 3;
  let nowReading: () => void = () => {};
  const reading = new Promise<void>((resolve) => (nowReading = resolve));
  const watch = new Promise<Buffer | undefined>((resolve) => {
    let done = false;
    let reader: ReturnType<typeof spawn> | undefined;
    const finish = (frame: Buffer | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reader?.kill('SIGKILL');
      nowReading();
      resolve(frame);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    const read = () => {
      if (done) return;
      // Frames are assembled in one buffer, chunk by chunk. (Concatenating each 64 KB chunk onto
      // what was pending copied megabytes per chunk: on a loaded machine the reader fell tens of
      // seconds behind the stream, and a card shown for 8 s was seen 45 s late, or never.)
      const frame = Buffer.alloc(frameBytes);
      let filled = 0;
      reader = spawn(
        'ffmpeg',
        ['-v', 'error', '-rw_timeout', '8000000', '-i', url, '-vf', `fps=${fps},scale=1280:720`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      reader.stdout!.on('data', (chunk: Buffer) => {
        let offset = 0;
        while (!done && offset < chunk.length) {
          const n = Math.min(frameBytes - filled, chunk.length - offset);
          chunk.copy(frame, filled, offset, offset + n);
          filled += n;
          offset += n;
          if (filled === frameBytes) {
            filled = 0;
            nowReading();
            if (seen(frame)) finish(Buffer.from(frame));
          }
        }
      });
      // The stream broke off (a reconnect of the output): read it again while there is time.
      reader.on('exit', () => setTimeout(read, 200));
    };
    read();
  });
  return Object.assign(watch, { reading });
}

export const pixel = (rgb: Buffer | Uint8ClampedArray, x: number, y: number, width = 1280) => [
  rgb[(y * width + x) * 3]!,
  rgb[(y * width + x) * 3 + 1]!,
  rgb[(y * width + x) * 3 + 2]!,
];
export const near = (a: number[], b: number[], tolerance: number) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

/** What a viewer's player reads from the stream: the codec types of its streams (ffprobe). */
export function probeStreams(url: string): Promise<string[]> {
  return new Promise((resolve) => {
    execFile('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', url], { timeout: 8000 }, (err, stdout) =>
      resolve(err ? [] : stdout.split('\n').filter(Boolean)),
    );
  });
}

export function meanVolume(url: string): Promise<number> {
  return new Promise((resolve) => {
    execFile(
      'ffmpeg',
      ['-hide_banner', '-rw_timeout', '8000000', '-i', url, '-t', '3', '-vn', '-af', 'volumedetect', '-f', 'null', '-'],
      { timeout: 20_000, killSignal: 'SIGKILL' },
      (_err, _out, stderr) => {
        const match = /mean_volume: (-?[\d.]+) dB/.exec(String(stderr));
        resolve(match ? Number(match[1]) : -Infinity);
      },
    );
  });
}
