import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { isUuid, type RecordingPart } from '@onair/protocol';

const run = promisify(execFile);
const PART = /^part-([1-9][0-9]{0,3})\.mp4$/;
/**
 * The parts of recordings in the uploads store on disk: `<UPLOADS_DIR>/recordings/<id>/part-<n>.mp4`,
 * written by the media worker (a part per pipeline process that recorded; see the worker's
 * outputs/recording.ts) and read here for listing, download and retention.
 */
export class RecordingFiles {
  readonly root: string;

  constructor(uploadsDir: string) {
    this.root = resolve(uploadsDir, 'recordings');
  }

  /** The folder the worker writes a recording into; the same path on the worker (same UPLOADS_DIR). */
  dirOf(recordingId: string): string {
    if (!isUuid(recordingId)) throw new Error(`not a recording id: ${recordingId}`);
    return join(this.root, recordingId);
  }

  /** The parts there are now, in order, with their size; `probe` also reads each one's duration. */
  async parts(recordingId: string, probe: boolean): Promise<RecordingPart[]> {
    let names: string[];
    try {
      names = await readdir(this.dirOf(recordingId));
    } catch {
      return [];
    }
    const numbers = names.flatMap((name) => {
      const m = PART.exec(name);
      return m ? [Number(m[1])] : [];
    });
    numbers.sort((a, b) => a - b);
    const parts: RecordingPart[] = [];
    for (const number of numbers) {
      const path = this.partPath(recordingId, number);
      const { size } = await stat(path);
      parts.push({ number, sizeBytes: size, durationSeconds: probe ? await durationOf(path) : null });
    }
    return parts;
  }

  partPath(recordingId: string, part: number): string {
    return join(this.dirOf(recordingId), `part-${part}.mp4`);
  }

  async open(recordingId: string, part: number): Promise<{ stream: Readable; sizeBytes: number } | null> {
    const path = this.partPath(recordingId, part);
    try {
      const { size } = await stat(path);
      return { stream: createReadStream(path), sizeBytes: size };
    } catch {
      return null;
    }
  }

  async remove(recordingId: string): Promise<void> {
    await rm(this.dirOf(recordingId), { recursive: true, force: true });
  }
}

/**
 * Seconds of video in a part: from its first packet to the end of its last, as ffprobe lists them
 * (packet headers only, nothing decoded). The container's own duration is not used: a part cut
 * short by a crash has no final one, and a part that started mid-session starts at a later
 * timestamp. A part ffprobe cannot read at all counts as 0.
 */
async function durationOf(path: string): Promise<number> {
  try {
    const { stdout } = await run(
      'ffprobe',
      ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0', path],
      {
        timeout: 120_000,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    let first = Number.POSITIVE_INFINITY;
    let end = Number.NEGATIVE_INFINITY;
    for (const line of stdout.split('\n')) {
      const [pts, duration] = line.split(',').map(Number);
      if (pts === undefined || !Number.isFinite(pts)) continue;
      first = Math.min(first, pts);
      end = Math.max(end, pts + (duration !== undefined && Number.isFinite(duration) ? duration : 0));
    }
    return end > first ? Math.round((end - first) * 100) / 100 : 0;
  } catch {
    return 0;
  }
}
