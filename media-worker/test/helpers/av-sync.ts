/**
 * Lip sync measured on the output media (issue 53 item 4): a source that flashes its picture white
 * and beeps at the same instant every FLASH_PERIOD_S, and a reader that finds, in a destination's
 * stream, when each flash and each beep begins in the stream's own time (the FLV timestamps a
 * player goes by), not when they arrive. Audio minus video: positive when the sound is late.
 *
 * The source is ffmpeg's lavfi (both tracks computed from one timeline, so they are in step to the
 * sample). The reader is ffmpeg: the picture's mean luma per frame (signalstats) and the sound's
 * level per millisecond (astats over 48 samples), both with their presentation times.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export const FLASH_PERIOD_S = 2;
/** How long each flash and beep lasts: a few frames, so a frame dropped on the way cannot hide it. */
export const FLASH_S = 0.1;

/**
 * ffmpeg input arguments of the flash + beep source: `-re` (real time, as a camera) if `live`.
 * The picture is black with a white frame for FLASH_S every FLASH_PERIOD_S; the sound a 1 kHz beep
 * over the same FLASH_S (its gain switched per 10 ms block, which the period's edges fall on).
 */
export function flashBeepInputs(options: { width: number; height: number; fps: number; live?: boolean }): string[] {
  const re = options.live === false ? [] : ['-re'];
  const on = `lt(mod(t\\,${FLASH_PERIOD_S})\\,${FLASH_S})`;
  return [
    ...re,
    '-f',
    'lavfi',
    '-i',
    `color=c=black:s=${options.width}x${options.height}:r=${options.fps},drawbox=c=white:t=fill:enable='${on}'`,
    ...re,
    '-f',
    'lavfi',
    '-i',
    `sine=f=1000:r=48000:samples_per_frame=480,volume=volume='if(${on}\\,1\\,0)':eval=frame`,
  ];
}

export interface SyncReading {
  /** Each flash paired with its beep: stream time of the flash's first frame (s) and audio minus video (ms). */
  pairs: { at: number; offsetMs: number }[];
  flashes: number;
  beeps: number;
}

/** Reads `seconds` of a live stream (or a file) and pairs each flash with the beep nearest it. */
export async function readSync(url: string, seconds: number): Promise<SyncReading> {
  const dir = await mkdtemp(join(tmpdir(), 'onair-av-sync-'));
  try {
    const video = join(dir, 'video.txt');
    const audio = join(dir, 'audio.txt');
    const graph = [
      `[0:v]scale=32:18,signalstats,metadata=mode=print:key=lavfi.signalstats.YAVG:file=${video}[v]`,
      `[0:a]pan=mono|c0=c0,asetnsamples=n=48:p=0,astats=metadata=1:reset=1,ametadata=mode=print:key=lavfi.astats.Overall.RMS_level:file=${audio}[a]`,
    ].join(';');
    // biome-ignore format: the arguments stay in option-value pairs, as ffmpeg reads them
    await execFileAsync('ffmpeg', [
      '-v', 'error', '-rw_timeout', '8000000', '-i', url, '-t', String(seconds),
      '-filter_complex', graph, '-map', '[v]', '-map', '[a]', '-f', 'null', '-',
    ], { timeout: (seconds + 20) * 1000, killSignal: 'SIGKILL' });
    const flashes = onsets(await readFile(video, 'utf8'), 'lavfi.signalstats.YAVG', (v) => v > 128);
    const beeps = onsets(await readFile(audio, 'utf8'), 'lavfi.astats.Overall.RMS_level', (v) => v > -40);
    const pairs: SyncReading['pairs'] = [];
    for (const at of flashes) {
      const beep = beeps.reduce<number | undefined>((best, b) => (best === undefined || Math.abs(b - at) < Math.abs(best - at) ? b : best), undefined);
      if (beep !== undefined && Math.abs(beep - at) < FLASH_PERIOD_S / 4) pairs.push({ at, offsetMs: (beep - at) * 1000 });
    }
    return { pairs, flashes: flashes.length, beeps: beeps.length };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Times (s) where the value of `key` goes from not `on` to `on`, from ffmpeg's metadata print ("frame:… pts_time:T" then "key=value"). */
function onsets(text: string, key: string, on: (value: number) => boolean): number[] {
  const out: number[] = [];
  let time: number | undefined;
  let was = true;
  for (const line of text.split('\n')) {
    const frame = /pts_time:(-?[0-9.]+)/.exec(line);
    if (frame) time = Number(frame[1]);
    else if (line.startsWith(`${key}=`) && time !== undefined) {
      const raw = line.slice(key.length + 1);
      const now = on(raw === '-inf' ? Number.NEGATIVE_INFINITY : Number(raw));
      if (now && !was) out.push(time);
      was = now;
    }
  }
  return out;
}

export interface SyncFigures {
  count: number;
  medianMs: number;
  stddevMs: number;
  minMs: number;
  maxMs: number;
  /** Least-squares slope of the offset over stream time, in ms per minute. */
  driftMsPerMin: number;
}

export function syncFigures(pairs: readonly { at: number; offsetMs: number }[]): SyncFigures {
  const offsets = pairs.map((p) => p.offsetMs).sort((a, b) => a - b);
  const n = offsets.length;
  const mean = offsets.reduce((s, v) => s + v, 0) / n;
  const stddevMs = Math.sqrt(offsets.reduce((s, v) => s + (v - mean) ** 2, 0) / n);
  const medianMs = n % 2 ? offsets[(n - 1) / 2]! : (offsets[n / 2 - 1]! + offsets[n / 2]!) / 2;
  const tMean = pairs.reduce((s, p) => s + p.at, 0) / n;
  const cov = pairs.reduce((s, p) => s + (p.at - tMean) * (p.offsetMs - mean), 0);
  const varT = pairs.reduce((s, p) => s + (p.at - tMean) ** 2, 0);
  return { count: n, medianMs, stddevMs, minMs: offsets[0]!, maxMs: offsets[n - 1]!, driftMsPerMin: varT > 0 ? (cov / varT) * 60 : 0 };
}

export function describeSync(f: SyncFigures): string {
  const r = (v: number) => v.toFixed(1);
  return `${f.count} flashes: audio − video median ${r(f.medianMs)} ms, stddev ${r(f.stddevMs)} ms, range ${r(f.minMs)}…${r(f.maxMs)} ms, drift ${r(f.driftMsPerMin)} ms/min`;
}
