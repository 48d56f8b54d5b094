import { spawn } from 'node:child_process';
import { aacChannels, aacSampleRate, flvTags } from './flv-tags.ts';

/** Encodes of silence done or under way, by AudioSpecificConfig (hex). */
const frames = new Map<string, Promise<Buffer | undefined>>();

/**
 * One frame of AAC-LC silence (an FLV audio tag body: its 2-byte AAC header and the raw frame) for
 * the audio configuration `config` (the stream's AudioSpecificConfig), to fill a gap in a carried
 * stream (flv-fanout.ts). It is encoded once per configuration by the same encoder the program
 * uses (GStreamer's avenc_aac, in a short `gst-launch-1.0` of its own, about 100 ms), rather than
 * written by hand: a frame from the encoder is valid for every decoder. Undefined for a
 * configuration that is not AAC-LC at a rate and channel count the encoder takes.
 */
export function silentAacFrame(config: Buffer): Promise<Buffer | undefined> {
  const key = config.toString('hex');
  let frame = frames.get(key);
  if (!frame) {
    frame = encode(config);
    frames.set(key, frame);
  }
  return frame;
}

async function encode(config: Buffer): Promise<Buffer | undefined> {
  const rate = aacSampleRate(config);
  const channels = config.length >= 2 ? aacChannels(config) : 0;
  if (config.length < 2 || config[0]! >> 3 !== 2 || !rate || channels < 1 || channels > 2) return undefined;
  const args = [
    '-q',
    'audiotestsrc',
    'wave=silence',
    'num-buffers=40',
    'samplesperbuffer=1024',
    '!',
    `audio/x-raw,format=F32LE,layout=interleaved,rate=${rate},channels=${channels}`,
    '!',
    'audioconvert',
    '!',
    'avenc_aac',
    '!',
    'aacparse',
    '!',
    'flvmux',
    'streamable=true',
    '!',
    'fdsink',
    'fd=1',
  ];
  const out = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn('gst-launch-1.0', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(chunks));
      else reject(new Error(`gst-launch-1.0 exited with ${code}`));
    });
  });
  const tags = flvTags(out).filter((t) => t.type === 8);
  const header = tags.find((t) => t.header === 'audio');
  // The encoder's object type, rate and channels must be the stream's, or its frames would not decode there.
  if (!header || !header.body.subarray(2, 4).equals(config.subarray(0, 2))) return undefined;
  const media = tags.filter((t) => t.header === undefined);
  // One from the middle: past the encoder's priming, before its flush at the end.
  const frame = media[Math.floor(media.length / 2)];
  return frame ? Buffer.from(frame.body) : undefined;
}
