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

/**
 * A name written on a placeholder, under its words (the placeholders are 640×360 with their words
 * at about two thirds down): an SVG scaled to the picture, drawn once, before the picture is frozen.
 */
export function placeholderLabelSvg(label: string): string {
  const safe = label.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">' +
    `<text x="320" y="292" font-family="DejaVu Sans" font-size="26" fill="#e5e7eb" text-anchor="middle">${safe}</text>` +
    '</svg>'
  );
}

/** The live picture of a PNG or JPEG file (also an RTP input's placeholder, with the name of whose it is). */
export function imageBin(id: string, path: string, profile: OutputProfile, name: string, label?: string): GstBin {
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
      ...(label ? [makeElement('rsvgoverlay', `${name}-label`, { 'fit-to-frame': true, data: placeholderLabelSvg(label) })] : []),
      makeElement('imagefreeze', `${name}-freeze`, { 'is-live': true }),
      makeElement('capsfilter', `${name}-rate`, { caps: `video/x-raw,framerate=${profile.fps}/1` }),
      makeElement('queue', `${name}-queue`, { 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0, leaky: 'downstream' }),
    ],
    { src: true },
  );
}
