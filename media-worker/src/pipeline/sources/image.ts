import { extname } from 'node:path';
import type { OutputProfile, PlanInput } from '@onair/protocol';
import { makeChainBin, makeElement } from '../../gst/elements.ts';
import type { GstBin } from '../../gst/gst.ts';
import type { SourceBuilder } from './source.ts';

type ImageInput = Extract<PlanInput, { kind: 'image' }>;

/**
 * A still picture (watermark, logo, background, slate) repeated live at the program rate. The
 * decoder is chosen from the extension instead of decodebin, whose dynamic pads would need a
 * callback from a streaming thread.
 */
export const buildImage: SourceBuilder<ImageInput> = (input, profile, name) => ({ video: [{ bin: imageBin(input.id, input.path, profile, name) }] });

/** The live picture of a PNG or JPEG file (also an RTP input's placeholder). */
export function imageBin(id: string, path: string, profile: OutputProfile, name: string): GstBin {
  const ext = extname(path).toLowerCase();
  const decoder = ext === '.png' ? 'pngdec' : ext === '.jpg' || ext === '.jpeg' ? 'jpegdec' : undefined;
  if (!decoder) throw new Error(`image ${id}: only PNG and JPEG files are supported`);
  return makeChainBin(
    `${name}-video`,
    [
      makeElement('filesrc', `${name}-file`, { location: path }),
      makeElement(decoder, `${name}-dec`),
      makeElement('videoconvert', `${name}-conv`),
      // BGRA keeps the picture's transparency for the compositor.
      makeElement('capsfilter', `${name}-fmt`, { caps: 'video/x-raw,format=BGRA' }),
      makeElement('imagefreeze', `${name}-freeze`, { 'is-live': true }),
      makeElement('capsfilter', `${name}-rate`, { caps: `video/x-raw,framerate=${profile.fps}/1` }),
      makeElement('queue', `${name}-queue`, { 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0, leaky: 'downstream' }),
    ],
    { src: true },
  );
}
