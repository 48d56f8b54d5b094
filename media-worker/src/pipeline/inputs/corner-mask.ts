import { linkBranch, linkChain, linkPads, makeElement, requestPad, setProperties, staticPad, withoutQos } from '../../gst/elements.ts';
import { loadGst, type GstElement, type GstPad } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';
import { CANVAS_COLORIMETRY } from '../build/video.ts';
import { clearQosAfterPacer } from '../pacer.ts';

/** A leaky queue of a few frames: the rounded branch works on its own thread and never holds the picture's tee. */
const MASK_QUEUE = { leaky: 'downstream', 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0 } as const;

/**
 * shapewipe's ramp at position 0.5 runs from 0.5 - border/2 to 0.5 + border/2 of the mask's
 * range; with 0.99 a mask of 255 (65280 of 65536 as it counts) is above it, fully opaque, where a
 * border of 1 would leave the inside at alpha 254.
 */
const SHAPE_BORDER = 0.99;

export interface MaskSize {
  width: number;
  height: number;
  radius: number;
}

/**
 * A picture with rounded corners, at the size it is drawn: one more branch from the picture's
 * (cropped) tee to a compositor pad of its own,
 * `valve ! queue ! videoconvertscale ! AYUV at the tile's size ! shapewipe ! compositor pad`, with a
 * still GRAY8 mask of that size handed to shapewipe's mask pad. GStreamer 1.22 has no element that
 * rounds corners; shapewipe sets each pixel's alpha from the mask (position 0.5 with a wide border:
 * alpha follows the mask, so the arcs are anti-aliased).
 * - The size is fixed for the branch's life: shapewipe refuses any other frame size once it has
 *   negotiated one (its sink caps are pinned to the first size). Fed the source's own frames, a
 *   camera that adapts its resolution, as every WebRTC sender does in its first seconds, got
 *   `not-negotiated`, which stopped the source's streaming thread for good: the layer went to its
 *   'Camera Offline' placeholder. Scaled to the tile here first, the frames shapewipe sees never
 *   change size whatever the sender does; a layer drawn at another size gets a new branch.
 *   Scaled as the compositor scales the plain pad: stretched to the tile (`add-borders=false`; the
 *   converter's default letterboxed a picture of another shape, so a 4:3 test picture on a 16:9 tile
 *   had black bars once the rounded branch took over; `cover` is already cut to the tile's shape).
 * - The mask is pushed from a pad made here, on the JS thread. (An appsrc did this before, on a
 *   streaming thread of its own; now and then, with several branches built at once, its one buffer
 *   never reached shapewipe: templates.test saw Interview's Panel scene with a black tile.)
 * - No frame enters shapewipe before it holds its mask: the valve stays shut until the mask was
 *   taken, and a mask refused (a branch built before the pipeline plays: its pad is still flushing)
 *   is pushed again at the next look. A frame in shapewipe without a mask holds the branch's thread
 *   until one comes, so stopping that thread (removing the branch) waits for ever; and shapewipe
 *   (GStreamer 1.22) leaves its lock taken when such a frame is woken without one, as going down
 *   wakes it, so its own state change then waits on that lock for ever: a pipeline with a layer
 *   rounded before it played never stopped (pacer.test, before this). Until the mask is in, the
 *   layer is drawn square by the plain pad.
 * - Converted into the canvas's colour space (BT.709) in that same pass, so the compositor takes its
 *   frames as they are.
 * - The per-pixel work (scale and conversion in one pass, the mask, the compositor's blend with
 *   alpha) is on the tile's pixels, not the source's, and the compositor does not scale it again.
 * - No QoS: the pacer's event, which the compositor passes upstream to every pad, would have the
 *   converter and shapewipe drop the branch's live frames on a loaded machine (the tile starved
 *   while the program was behind). The converter's is switched off (withoutQos); shapewipe has no
 *   switch, so the pacer clears what it took from the event right after sending it (pacer.ts).
 * - A square layer does not use it: its valve drops (as GAP events, so the compositor never waits
 *   for this pad) and its pad is transparent, which the compositor skips.
 */
export class CornerMask {
  readonly pad: GstPad;
  private readonly teePad: GstPad;
  private readonly valve: GstElement;
  private readonly shape: GstElement;
  /** Ours: feeds shapewipe's mask pad its one picture. */
  private readonly maskPad: GstPad;
  private readonly elements: GstElement[];
  /** Takes shapewipe off the pacer's list. */
  private readonly unclearQos: () => void;
  /** The layer wants it drawn rounded. */
  private open = true;
  /** shapewipe holds the mask: only then may frames go in (see above). */
  private masked = false;

  constructor(
    private readonly gst: GstPipeline,
    name: string,
    private readonly tee: GstElement,
    private readonly compositor: GstElement,
    readonly size: MaskSize,
  ) {
    const { width, height } = size;
    this.valve = makeElement('valve', `${name}-rvalve`, { drop: true, 'drop-mode': 'transform-to-gap' });
    const queue = makeElement('queue', `${name}-rq`, MASK_QUEUE);
    const scale = withoutQos(makeElement('videoconvertscale', `${name}-rscale`, { 'add-borders': false }));
    const format = makeElement('capsfilter', `${name}-rfmt`, {
      caps: `video/x-raw,format=AYUV,width=${width},height=${height},pixel-aspect-ratio=1/1,colorimetry=${CANVAS_COLORIMETRY}`,
    });
    this.shape = makeElement('shapewipe', `${name}-round`, { position: 0.5, border: SHAPE_BORDER });
    const video = [this.valve, queue, scale, format];
    this.elements = [...video, this.shape];
    for (const element of this.elements) gst.add(element);
    linkChain(video);
    linkPads(staticPad(format, 'src'), staticPad(this.shape, 'video_sink'));
    this.pad = requestPad(compositor, 'sink_%u');
    Object.assign(this.pad, { alpha: 0, width, height });
    linkPads(staticPad(this.shape, 'src'), this.pad);
    this.unclearQos = clearQosAfterPacer(compositor, staticPad(this.shape, 'src'));
    // Playing before the tee feeds it (a tee pushing into a flushing pad stops), then its mask.
    for (const element of [this.shape, format, scale, queue, this.valve]) element.syncStateWithParent();
    const { Pad, PadDirection } = loadGst();
    this.maskPad = Pad.new(`${name}-rmask`, PadDirection.SRC);
    linkPads(this.maskPad, staticPad(this.shape, 'mask_sink'));
    this.teePad = requestPad(tee, 'src_%u');
    linkBranch(this.teePad, staticPad(this.valve, 'sink'));
    this.tryMask();
  }

  /**
   * Whether its frames reach the compositor: shapewipe has its mask and their caps. A mask not
   * taken yet is pushed again first (the branch's owner asks every look while it waits).
   */
  ready(): boolean {
    if (!this.masked) this.tryMask();
    return this.open && this.masked && staticPad(this.shape, 'src').getCurrentCaps() !== null;
  }

  /** Lets frames through (a rounded layer, once masked) or drops them (square or hidden: nothing to compute). */
  setOpen(open: boolean): void {
    if (open === this.open) return;
    this.open = open;
    this.updateValve();
  }

  private updateValve(): void {
    setProperties(this.valve, { drop: !(this.open && this.masked) });
  }

  private tryMask(): void {
    this.masked = this.pushMask();
    if (this.masked) this.updateValve();
  }

  /**
   * Takes the branch out while the picture goes on: the tee's pad first (a tee counts a push into a
   * released pad as done, where a FLUSHING from this branch would stop the picture's streaming
   * thread), then the compositor's, before any element changes state.
   */
  remove(): void {
    const { State } = loadGst();
    setProperties(this.valve, { drop: true });
    this.unclearQos();
    this.teePad.unlink(staticPad(this.valve, 'sink'));
    this.tee.releaseRequestPad(this.teePad);
    staticPad(this.shape, 'src').unlink(this.pad);
    this.compositor.releaseRequestPad(this.pad);
    this.maskPad.unlink(staticPad(this.shape, 'mask_sink'));
    this.maskPad.setActive(false);
    // Upstream first: once the queue is down, no thread is in shapewipe when it goes down.
    for (const element of this.elements) element.setState(State.NULL);
    for (const element of this.elements) this.gst.remove(element);
  }

  /**
   * The mask, as a stream of one still picture: stream-start, caps that shapewipe's mask pad takes
   * (its own answer, GRAY8 at the tile's size: it adds the video's fields), a segment, the buffer.
   */
  private pushMask(): boolean {
    const { width, height, radius } = this.size;
    const { Buffer, Caps, Event, Segment, Format, FlowReturn } = loadGst();
    this.maskPad.setActive(true);
    this.maskPad.pushEvent(Event.newStreamStart(`${this.shape.name}-mask`));
    const wanted = Caps.fromString(`video/x-raw,format=GRAY8,width=${width},height=${height},framerate=0/1`);
    const caps = staticPad(this.shape, 'mask_sink').queryCaps(null).intersect(wanted);
    if (caps.isEmpty()) return false;
    this.maskPad.pushEvent(Event.newCaps(caps.fixate()));
    const segment = new Segment();
    segment.init(Format.TIME);
    this.maskPad.pushEvent(Event.newSegment(segment));
    const bytes = roundedRectMask(width, height, radius, radius);
    const buffer = Buffer.newAllocate(null, bytes.length, null);
    buffer.fill(0, bytes);
    return this.maskPad.push(buffer) === FlowReturn.OK;
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
