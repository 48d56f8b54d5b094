import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { imageSizeFromFile } from 'image-size/fromFile';
import { OnAirError, type UploadKind, type UploadMimeType } from '@onair/protocol';

const run = promisify(execFile);

/** What the media tools read from an accepted file. */
export interface ProbedMedia {
  width: number;
  height: number;
  durationSeconds: number | null;
  hasAudio: boolean;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
}
interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { duration?: string };
}

/**
 * The codecs the media worker decodes (GStreamer 1.22 here: avdec_h264, vp8dec, vp9dec, avdec_aac,
 * opusdec, vorbisdec), by container. A file in another codec (HEVC, AV1…) is refused at upload
 * instead of failing later in a live scene.
 */
const PLAYABLE: Record<'video/mp4' | 'video/webm', { video: string[]; audio: string[] }> = {
  'video/mp4': { video: ['h264'], audio: ['aac'] },
  'video/webm': { video: ['vp8', 'vp9'], audio: ['opus', 'vorbis'] },
};

/** The sound codecs an alert sound may be in, by container: what Chromium plays in the overlay page. */
const PLAYABLE_AUDIO: Record<'audio/mpeg' | 'audio/ogg' | 'audio/wav', string[]> = {
  'audio/mpeg': ['mp3'],
  'audio/ogg': ['vorbis', 'opus'],
  'audio/wav': ['pcm_s16le', 'pcm_s24le', 'pcm_s32le', 'pcm_f32le', 'pcm_u8'],
};

const PROBE_TIMEOUT_MS = 60_000;

function unreadable(message: string, details?: Record<string, unknown>): OnAirError {
  return new OnAirError('UPLOAD_UNREADABLE', message, details);
}

function checkDimensions(width: number, height: number, maxDimension: number): void {
  if (width > maxDimension || height > maxDimension) {
    throw unreadable(`This picture is ${width} × ${height} pixels; the largest accepted is ${maxDimension} × ${maxDimension}.`, {
      width,
      height,
      maxDimension,
    });
  }
}

async function ffprobe(path: string): Promise<FfprobeOutput> {
  try {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', path], {
      timeout: PROBE_TIMEOUT_MS,
      maxBuffer: 4 * 1024 * 1024,
    });
    return JSON.parse(stdout) as FfprobeOutput;
  } catch {
    throw unreadable('This file cannot be read: it is damaged or incomplete.');
  }
}

/**
 * Reads every packet of the file without decoding it (fast, a copy to nowhere): a truncated or
 * corrupted file reports errors here even when its header looked fine.
 */
async function readsToTheEnd(path: string): Promise<boolean> {
  try {
    const { stderr } = await run('ffmpeg', ['-nostdin', '-v', 'error', '-i', path, '-map', '0', '-c', 'copy', '-f', 'null', '-'], {
      timeout: 5 * PROBE_TIMEOUT_MS,
      maxBuffer: 4 * 1024 * 1024,
    });
    return stderr.trim() === '';
  } catch {
    return false;
  }
}

/**
 * Checks a received file of the type detected from its content and tells its size and length.
 * Refuses (UPLOAD_UNREADABLE, in a creator's words) a file the pipeline could not play: damaged or
 * truncated, in a codec the worker does not decode, or larger than `maxDimension` on a side.
 */
export async function probeMedia(path: string, kind: UploadKind, mimeType: UploadMimeType, maxDimension: number): Promise<ProbedMedia> {
  if (kind === 'image') {
    // From the header alone: ffmpeg itself refuses to open a picture as large as 20000 × 20000.
    const size = await imageSizeFromFile(path).catch(() => undefined);
    if (!size?.width || !size.height) throw unreadable('This image is damaged or incomplete. Save it again and upload the new file.');
    checkDimensions(size.width, size.height, maxDimension);
    return { width: size.width, height: size.height, durationSeconds: null, hasAudio: false };
  }
  const probed = await ffprobe(path);
  const streams = probed.streams ?? [];
  if (kind === 'audio') return probeSound(path, probed, mimeType);
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!video?.width || !video.height) throw unreadable('This file has no picture we can read.');
  checkDimensions(video.width, video.height, maxDimension);

  const playable = PLAYABLE[mimeType as keyof typeof PLAYABLE];
  if (!playable.video.includes(video.codec_name ?? '')) {
    throw unreadable(
      `This video is encoded as ${(video.codec_name ?? 'unknown').toUpperCase()}, which we cannot play. Use H.264 video in MP4, or VP8/VP9 in WebM.`,
      { codec: video.codec_name },
    );
  }
  if (audio && !playable.audio.includes(audio.codec_name ?? '')) {
    throw unreadable(
      `This video's sound is encoded as ${(audio.codec_name ?? 'unknown').toUpperCase()}, which we cannot play. Use AAC sound in MP4, or Opus/Vorbis in WebM.`,
      { codec: audio.codec_name },
    );
  }
  const duration = Number(probed.format?.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw unreadable('This video has no length we can read: it may be incomplete.');
  if (!(await readsToTheEnd(path)))
    throw unreadable('This video is damaged or incomplete (was the upload or the export cut short?). Export it again and upload the new file.');
  return { width: video.width, height: video.height, durationSeconds: duration, hasAudio: audio !== undefined };
}

/** A sound: one stream of a codec the overlay plays (an MP3's cover picture is ignored), a length, and every packet readable. */
async function probeSound(path: string, probed: FfprobeOutput, mimeType: UploadMimeType): Promise<ProbedMedia> {
  const audio = (probed.streams ?? []).find((s) => s.codec_type === 'audio');
  if (!audio) throw unreadable('This file has no sound we can read.');
  const playable = PLAYABLE_AUDIO[mimeType as keyof typeof PLAYABLE_AUDIO] ?? [];
  if (!playable.includes(audio.codec_name ?? '')) {
    throw unreadable(`This sound is encoded as ${(audio.codec_name ?? 'unknown').toUpperCase()}, which we cannot play. Use MP3, Ogg (Vorbis or Opus) or WAV.`, {
      codec: audio.codec_name,
    });
  }
  const duration = Number(probed.format?.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw unreadable('This sound has no length we can read: it may be incomplete.');
  if (!(await readsToTheEnd(path))) throw unreadable('This sound is damaged or incomplete. Export it again and upload the new file.');
  return { width: 0, height: 0, durationSeconds: duration, hasAudio: true };
}

/**
 * Every image is stored as one PNG (its first frame for an animated GIF or WebP): the media worker
 * then decodes a single format with a fixed decoder. Fails (UPLOAD_UNREADABLE) on a picture the
 * decoder cannot read.
 */
export async function imageToPng(path: string, out: string): Promise<void> {
  try {
    const { stderr } = await run(
      'ffmpeg',
      ['-nostdin', '-v', 'error', '-i', path, '-frames:v', '1', '-update', '1', '-y', '-f', 'image2', '-c:v', 'png', out],
      { timeout: PROBE_TIMEOUT_MS },
    );
    if (stderr.trim() !== '') throw new Error(stderr);
  } catch {
    throw unreadable('This image is damaged or incomplete. Save it again and upload the new file.');
  }
}
