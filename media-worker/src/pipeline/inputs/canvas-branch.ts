import { linkChain, linkPads, makeElement, requestPad, setProperties, staticPad, withoutQos } from '../../gst/elements.ts';
import { loadGst, type GstElement, type GstPad } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';
import type { PadProperties, VideoPadLayout } from '../layout.ts';
import { CornerMask, type MaskSize } from './corner-mask.ts';
import { frameCrop, type Crop } from './crop.ts';

/** A leaky queue of a few frames: a compositor that waits never holds the other's frames. */
const BRANCH_QUEUE = { leaky: 'downstream', 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0 } as const;

/** How often a new rounded branch is looked at: a layer just rounded is drawn square until it has frames. */
const LOOK_MS = 50;
/**
 * Every how many looks a shown picture's frame size is read (its cut is computed from it): frames
 * of a new size are drawn with the previous cut for at most this long (250 ms). One caps read per
 * shown picture and canvas 4 times a second, on the pipeline process's JS thread.
 */
const SIZE_EVERY_LOOKS = 5;

/** Where and how a picture is drawn; the slate and the countdown give pad properties only. */
export type PicturePlacement = Partial<VideoPadLayout>;

const NO_CROP: Crop = { top: 0, right: 0, bottom: 0, left: 0 };

/**
 * One picture's way to one compositor (the program's, or the vertical canvas's):
 * `[queue] ! videocrop ! tee`, the tee feeding the picture's plain pad and, while the layer is
 * drawn rounded, a CornerMask branch with a pad of its own.
 * - videocrop cuts the layer's crop (pixels of the source's frames, kept inside them) and, for
 *   `cover`, what is left to the box's aspect, centred (frameCrop), computed here from the size of
 *   the frames it gets, again whenever that changes. New values apply live: videocrop renegotiates
 *   and the compositor's pad takes the new frame size; with nothing to cut it passes frames through.
 *   (aspectratiocrop, which would recompute its cut itself, deadlocks as soon as a branch after it
 *   asks upstream for caps, as the rounded branch does: it holds its lock while renegotiating.)
 *   videocrop refuses frames smaller than its cut, and that stops the source's stream for good, so
 *   a cut is computed to survive frames that shrink to half their size before it is recomputed
 *   (frameCrop: a WebRTC sender steps its resolution down by 3/4 or 2/3).
 * - A square layer is drawn by the plain pad, as before; the rounded branch is built the first time
 *   the layer is drawn rounded, at the size it is drawn, and the plain pad shows until the branch
 *   has frames. Squared again, the branch's valve closes and its pad turns transparent (kept, so
 *   rounding again at that size is immediate); drawn rounded at another size, a new one is built.
 */
export class CanvasBranch {
  private readonly queue: GstElement | undefined;
  private readonly crop: GstElement;
  private readonly tee: GstElement;
  private readonly plainPad: GstPad;
  private readonly plainTeePad: GstPad;
  private mask: CornerMask | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The placement as last given (a picture not laid out yet is transparent). */
  private placement: PicturePlacement = { alpha: 0 };
  private appliedCrop = '0,0,0,0';
  /** The placement wants the rounded branch, and that branch is not drawn yet (waiting for its frames). */
  private maskPending = false;
  private looks = 0;

  constructor(
    private readonly gst: GstPipeline,
    private readonly name: string,
    private readonly compositor: GstElement,
    options: { queue: boolean },
  ) {
    this.queue = options.queue ? makeElement('queue', `${name}-q`, BRANCH_QUEUE) : undefined;
    this.crop = withoutQos(makeElement('videocrop', `${name}-crop`));
    this.tee = makeElement('tee', `${name}-btee`, { 'allow-not-linked': true });
    const chain = [...(this.queue ? [this.queue] : []), this.crop, this.tee];
    for (const element of chain) gst.add(element);
    linkChain(chain);
    this.plainPad = requestPad(compositor, 'sink_%u');
    Object.assign(this.plainPad, { alpha: 0 });
    this.plainTeePad = requestPad(this.tee, 'src_%u');
    linkPads(this.plainTeePad, this.plainPad);
  }

  /** Where the picture's tee links it. */
  get sink(): GstPad {
    return staticPad(this.queue ?? this.crop, 'sink');
  }

  /** The pad that draws the picture square (the slate's and the countdown's only one). */
  get pad(): GstPad {
    return this.plainPad;
  }

  /** Brings it to the pipeline's state, downstream first, before the picture's tee feeds it. */
  start(): void {
    for (const element of [this.tee, this.crop, ...(this.queue ? [this.queue] : [])]) element.syncStateWithParent();
    this.timer = setInterval(() => this.look(), LOOK_MS);
    this.timer.unref();
  }

  place(placement: PicturePlacement): void {
    this.placement = placement;
    this.apply();
  }

  /** Once the picture's tee no longer feeds it: its compositor pads released (nothing waits on them), then its elements stopped. */
  remove(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.mask?.remove();
    this.mask = undefined;
    this.plainTeePad.unlink(this.plainPad);
    this.tee.releaseRequestPad(this.plainTeePad);
    this.compositor.releaseRequestPad(this.plainPad);
    const { State } = loadGst();
    const elements = [...(this.queue ? [this.queue] : []), this.crop, this.tee];
    for (const element of elements) element.setState(State.NULL);
    for (const element of elements) this.gst.remove(element);
  }

  private apply(): void {
    const { cornerRadius = 0, crop = NO_CROP, fit = 'fill', ...pad } = this.placement;
    this.applyCrop(crop, fit, pad);
    const wanted = this.roundedSize(pad, cornerRadius);
    if (wanted && !(this.mask && sameSize(this.mask.size, wanted))) {
      this.mask?.remove();
      this.mask = new CornerMask(this.gst, `${this.name}-${Math.round(wanted.width)}x${Math.round(wanted.height)}`, this.tee, this.compositor, wanted);
    }
    this.mask?.setOpen(wanted !== undefined);
    const masked = wanted !== undefined && this.mask?.ready() === true;
    this.maskPending = wanted !== undefined && !masked;
    Object.assign(this.plainPad, masked ? { ...pad, alpha: 0 } : pad);
    if (this.mask) Object.assign(this.mask.pad, masked ? pad : { ...pad, alpha: 0 });
  }

  /** The rounded branch a placement needs: drawn, visible, with a radius. */
  private roundedSize(pad: Partial<PadProperties>, radius: number): MaskSize | undefined {
    const { width, height, alpha } = pad;
    if (!(radius > 0) || !width || !height || !alpha) return undefined;
    return { width, height, radius };
  }

  private look(): void {
    this.looks++;
    // A new rounded branch is drawn once it has frames; a shown picture's cut follows its frames' size.
    if (this.maskPending) this.apply();
    else if (this.looks % SIZE_EVERY_LOOKS === 0) {
      const { crop = NO_CROP, fit = 'fill', width, height, alpha } = this.placement;
      if (alpha && (fit === 'cover' || crop.top || crop.right || crop.bottom || crop.left)) this.applyCrop(crop, fit, { width, height });
    }
  }

  private applyCrop(crop: Crop, fit: 'fill' | 'cover', box: Partial<PadProperties>): void {
    const frame = frameSize(staticPad(this.crop, 'sink'));
    const cut = frame ? frameCrop(frame, crop, { width: box.width ?? 0, height: box.height ?? 0 }, fit) : NO_CROP;
    const key = `${cut.top},${cut.right},${cut.bottom},${cut.left}`;
    if (key === this.appliedCrop) return;
    setProperties(this.crop, { ...cut });
    this.appliedCrop = key;
  }
}

function sameSize(a: MaskSize, b: MaskSize): boolean {
  return a.width === b.width && a.height === b.height && a.radius === b.radius;
}

/** The size of the frames negotiated on a pad, once they are. */
function frameSize(pad: GstPad): { width: number; height: number } | undefined {
  const caps = pad.getCurrentCaps()?.toString();
  const width = caps && /width=\(int\)(\d+)/.exec(caps)?.[1];
  const height = caps && /height=\(int\)(\d+)/.exec(caps)?.[1];
  return width && height ? { width: Number(width), height: Number(height) } : undefined;
}
