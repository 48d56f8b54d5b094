import { linkChain, linkPads, makeElement, staticPad } from '../../gst/elements.ts';
import { loadGst, type GstAppSrc, type GstElement, type GstPad } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';

/**
 * How often the mask looks at its picture's size: a picture waits for its first mask (shapewipe
 * holds its frames until it has one), and again after its source changes size (a camera that
 * adapts its resolution), for at most this long.
 */
const CHECK_MS = 40;

/**
 * shapewipe's ramp at position 0.5 runs from 0.5 - border/2 to 0.5 + border/2 of the mask's
 * range; with 0.99 a mask of 255 (65280 of 65536 as it counts) is above it, fully opaque, where a
 * border of 1 would leave the inside at alpha 254.
 */
const SHAPE_BORDER = 0.99;

/**
 * Rounded corners for one picture on one compositor (the program's, or the vertical one):
 * `videoconvert ! AYUV ! shapewipe` between the picture's tee and its compositor pad, with a
 * still GRAY8 mask from an appsrc. GStreamer 1.22 has no element that rounds corners; shapewipe
 * takes a mask of the picture's own size and sets each pixel's alpha from it (position 0.5 with a
 * wide border: alpha follows the mask, so the arcs are anti-aliased), or leaves every pixel
 * opaque at position 0 (a square layer). The mask is drawn here in JS at the size of the source's frames,
 * whatever the compositor scales them to: the radius in source pixels is the drawn radius times
 * the scale on each axis, so a picture stretched to another aspect still gets round corners on
 * the canvas. A layout change that resizes or rounds the layer only replaces the mask and the
 * position: nothing is relinked, no caps change on the picture's path.
 * shapewipe reads the mask at the picture's size; a mask of another size is refused by it, and it
 * drops its mask whenever the picture changes size. A new mask is therefore pushed only once the
 * picture's size is known, with caps of exactly that size, and again when that size changes.
 */
export class CornerMask {
  private readonly convert: GstElement;
  private readonly format: GstElement;
  private readonly shape: GstElement;
  private readonly maskSource: GstAppSrc;
  private readonly maskScale: GstElement;
  private readonly elements: GstElement[];
  private timer: NodeJS.Timeout | undefined;
  /** The layer's drawn size and radius (compositor pixels). */
  private drawn = { width: 0, height: 0, radius: 0 };
  /** What the last mask pushed was drawn for (`frame size:drawn size:radius`), or '' before the first. */
  private pushed = '';

  constructor(
    private readonly gst: GstPipeline,
    name: string,
  ) {
    this.convert = makeElement('videoconvert', `${name}-rconv`);
    this.format = makeElement('capsfilter', `${name}-rfmt`, { caps: 'video/x-raw,format=AYUV' });
    this.shape = makeElement('shapewipe', `${name}-round`, { position: 0, border: SHAPE_BORDER });
    this.maskSource = makeElement('appsrc', `${name}-rmask`, { format: 'time', 'max-buffers': 2 }) as GstAppSrc;
    // Gives the mask every other field of the frames' caps (multiview-mode, colorimetry, ...), which
    // shapewipe requires and a decoder may change: an appsrc whose caps are refused stops for good.
    this.maskScale = makeElement('videoscale', `${name}-rmscale`);
    this.elements = [this.convert, this.format, this.shape, this.maskSource, this.maskScale];
    for (const element of this.elements) gst.add(element);
    linkChain([this.convert, this.format]);
    linkPads(staticPad(this.format, 'src'), staticPad(this.shape, 'video_sink'));
    linkChain([this.maskSource, this.maskScale]);
    linkPads(staticPad(this.maskScale, 'src'), staticPad(this.shape, 'mask_sink'));
  }

  get sink(): GstPad {
    return staticPad(this.convert, 'sink');
  }

  get src(): GstPad {
    return staticPad(this.shape, 'src');
  }

  /** Brings it to the pipeline's state (before the tee feeds it) and starts watching the picture's size. */
  start(): void {
    for (const element of [this.maskScale, this.maskSource, this.shape, this.format, this.convert]) element.syncStateWithParent();
    this.timer = setInterval(() => this.update(), CHECK_MS);
    this.timer.unref();
  }

  /** The layer's drawn size and corner radius (compositor pixels); 0 draws it square. */
  set(width: number, height: number, radius: number): void {
    this.drawn = { width, height, radius: radius > 0 && width > 0 && height > 0 ? radius : 0 };
    this.update();
  }

  remove(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    const { State } = loadGst();
    // Going to NULL wakes a frame waiting in shapewipe for a mask.
    for (const element of this.elements) element.setState(State.NULL);
    for (const element of this.elements) this.gst.remove(element);
  }

  /** Pushes the mask the layer needs now, if it is not the one pushed last, and sets the position. */
  private update(): void {
    const frame = this.frameSize();
    if (!frame) return;
    const { width, height, radius } = this.drawn;
    // A square layer still needs a mask of the frame's size (shapewipe holds frames without one): any will do at position 0.
    const key = radius > 0 ? `${frame.width}x${frame.height}:${width}x${height}:${radius}` : `${frame.width}x${frame.height}:square`;
    const sameFrame = this.pushed.startsWith(`${frame.width}x${frame.height}:`);
    if (radius === 0) this.shape.position = 0;
    if (key === this.pushed || (radius === 0 && sameFrame)) return;
    const rx = radius > 0 ? (radius * frame.width) / width : 0;
    const ry = radius > 0 ? (radius * frame.height) / height : 0;
    const { Buffer, Caps } = loadGst();
    const bytes = roundedRectMask(frame.width, frame.height, rx, ry);
    const buffer = Buffer.newAllocate(null, bytes.length, null);
    buffer.fill(0, bytes);
    this.maskSource.caps = Caps.fromString(`video/x-raw,format=GRAY8,width=${frame.width},height=${frame.height},framerate=0/1`);
    this.maskSource.pushBuffer(buffer);
    this.pushed = key;
    if (radius > 0) this.shape.position = 0.5;
  }

  /** The size of the frames reaching shapewipe, once negotiated. */
  private frameSize(): { width: number; height: number } | undefined {
    const caps = staticPad(this.shape, 'video_sink').getCurrentCaps()?.toString();
    const width = caps && /width=\(int\)(\d+)/.exec(caps)?.[1];
    const height = caps && /height=\(int\)(\d+)/.exec(caps)?.[1];
    return width && height ? { width: Number(width), height: Number(height) } : undefined;
  }
}

/**
 * A GRAY8 picture of `width`×`height`, 255 inside a rectangle whose corners are quarter ellipses
 * of radii rx, ry and 0 outside them, with a one-pixel anti-aliased edge. Rows are padded to 4
 * bytes, as GStreamer lays out GRAY8.
 */
export function roundedRectMask(width: number, height: number, rx: number, ry: number): Uint8Array {
  const stride = Math.ceil(width / 4) * 4;
  const mask = new Uint8Array(stride * height).fill(255);
  if (rx <= 0 || ry <= 0) return mask;
  const cw = Math.min(Math.ceil(rx), width);
  const ch = Math.min(Math.ceil(ry), height);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      // Distance outside the ellipse, in pixels along the smaller radius.
      const dx = Math.max(0, rx - (x + 0.5)) / rx;
      const dy = Math.max(0, ry - (y + 0.5)) / ry;
      const d = (Math.sqrt(dx * dx + dy * dy) - 1) * Math.min(rx, ry);
      const value = Math.round(255 * Math.min(1, Math.max(0, 0.5 - d)));
      // The same value at the four corners.
      mask[y * stride + x] = value;
      mask[y * stride + (width - 1 - x)] = value;
      mask[(height - 1 - y) * stride + x] = value;
      mask[(height - 1 - y) * stride + (width - 1 - x)] = value;
    }
  }
  return mask;
}
