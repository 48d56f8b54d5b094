import { linkBranch, linkPads, makeElement, requestPad, staticPad } from '../../gst/elements.ts';
import { loadGst, type GstBin, type GstElement, type GstPad } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';
import type { VideoPadLayout } from '../layout.ts';
import { CornerMask } from './corner-mask.ts';
import { FirstData } from './first-data.ts';

/** A leaky queue of a few frames: a compositor that waits never holds the other's frames. */
const BRANCH_QUEUE = { leaky: 'downstream', 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0 } as const;

interface VerticalBranch {
  compositor: GstElement;
  queue: GstElement;
  teePad: GstPad;
  pad: GstPad;
  corners?: CornerMask;
}

/** Compositor pad properties, and the corner radius a rounded picture is drawn with (compositor pixels). */
export type PicturePlacement = Partial<VideoPadLayout>;

/**
 * One picture on the session's canvases: its source bin, a tee, a pad on the program's compositor
 * and, while the vertical canvas is attached, a branch to the vertical compositor. Everything here
 * joins and leaves a pipeline that plays, and touches nothing else:
 * - Joining: the pads downstream are requested and linked before the source is brought to the
 *   pipeline's state. Every source is live and stamps its buffers with the pipeline's running time
 *   (the pipeline's clock and base time, taken by syncStateWithParent), so a late source needs no
 *   pad offset: its first frame is already "now" for the compositor. The pad stays transparent
 *   until the caller lays it out. A network feed, whose first frame comes a jitter buffer's latency
 *   or more after it is added, gets its pads only once that frame is there (FirstData): a pad
 *   without data would hold the compositor, and the whole program, back until it came.
 * - Leaving: the compositor's pad is unlinked and released first; the aggregator stops waiting for
 *   it, a push in flight returns FLUSHING (a stop, not an error, for the tee and the source's queue),
 *   and only then does the source go to NULL, which therefore never waits on a compositor.
 * A tee whose branch is unlinked drops its frames (allow-not-linked), so the vertical branch comes
 * and goes without touching the program's. A rounded picture has a CornerMask in each branch,
 * built with the branch: rounding, resizing or squaring it later changes only the mask.
 */
export class PictureLink {
  private programPad: GstPad | undefined;
  private teePad: GstPad | undefined;
  private programCorners: CornerMask | undefined;
  private readonly rounded: boolean;
  private readonly tee: GstElement;
  private vertical: VerticalBranch | undefined;
  /** The vertical compositor it is to have a branch to (built once it has joined). */
  private verticalCompositor: GstElement | undefined;
  /** Where it is drawn, kept for a picture that has not joined yet (transparent until laid out). */
  private placement: PicturePlacement = { alpha: 0 };
  private verticalPlacement: PicturePlacement = { alpha: 0 };
  /** While a network feed waits for its first frame (see FirstData). */
  private firstData: FirstData | undefined;

  constructor(
    private readonly gst: GstPipeline,
    readonly source: GstBin,
    private readonly name: string,
    private readonly compositor: GstElement,
    /**
     * joinOnFirstFrame: a network feed, whose compositor pads are requested once its first frame
     * is there, not before. rounded: it may be drawn with rounded corners (a corner mask per branch).
     */
    options: { joinOnFirstFrame?: boolean; rounded?: boolean } = {},
  ) {
    this.rounded = options.rounded === true;
    this.tee = makeElement('tee', `${name}-tee`, { 'allow-not-linked': true });
    gst.add(source);
    gst.add(this.tee);
    linkPads(staticPad(source, 'src'), staticPad(this.tee, 'sink'));
    if (options.joinOnFirstFrame) this.firstData = new FirstData(gst, this.tee, `${name}-first`);
    else this.join();
  }

  /** Its pad on the program's compositor (a picture that joins at once: the slate, the countdown). */
  get pad(): GstPad {
    if (!this.programPad) throw new Error(`${this.name} has not joined the compositor yet`);
    return this.programPad;
  }

  /** Its pad on the vertical compositor, while it has one. */
  get verticalPad(): GstPad | undefined {
    return this.vertical?.pad;
  }

  /** Draws it with these compositor pad properties and corner radius (now, or when it joins). */
  place(properties: PicturePlacement): void {
    this.placement = properties;
    if (this.programPad) PictureLink.apply(this.programPad, this.programCorners, properties);
  }

  /** The same on the vertical compositor. */
  placeVertical(properties: PicturePlacement): void {
    this.verticalPlacement = properties;
    if (this.vertical) PictureLink.apply(this.vertical.pad, this.vertical.corners, properties);
  }

  private static apply(pad: GstPad, corners: CornerMask | undefined, properties: PicturePlacement): void {
    const { cornerRadius, ...padProperties } = properties;
    Object.assign(pad, padProperties);
    // A placement of alpha alone (hidden) leaves the corners as they were.
    if (corners && typeof padProperties.width === 'number' && typeof padProperties.height === 'number')
      corners.set(padProperties.width, padProperties.height, cornerRadius ?? 0);
  }

  /** Its own elements between the tee and a compositor pad: a corner mask for a rounded picture. */
  private cornersFor(part: string): CornerMask | undefined {
    return this.rounded ? new CornerMask(this.gst, `${this.name}-${part}`) : undefined;
  }

  /** Brings the picture to the pipeline's state; throws if its source refuses (a file that cannot open, a port taken). */
  start(): void {
    this.firstData?.start(() => {
      this.firstData = undefined;
      this.join();
    });
    if (!this.tee.syncStateWithParent() || !this.source.syncStateWithParent()) throw new Error(`${this.name} could not start`);
  }

  /** Its pad on the program's compositor, laid out, then its vertical branch if the canvas is there. */
  private join(): void {
    const pad = requestPad(this.compositor, 'sink_%u');
    const corners = this.cornersFor('p');
    PictureLink.apply(pad, corners, this.placement);
    if (corners) {
      linkPads(corners.src, pad);
      // Playing before the tee feeds it, as the vertical branch's queue.
      corners.start();
    }
    const teePad = requestPad(this.tee, 'src_%u');
    linkBranch(teePad, corners?.sink ?? pad);
    this.programPad = pad;
    this.programCorners = corners;
    this.teePad = teePad;
    if (this.verticalCompositor) this.buildVertical(this.verticalCompositor);
  }

  /** A branch to the vertical compositor (transparent until laid out); the program's pad is not touched. */
  attachVertical(compositor: GstElement): void {
    this.verticalCompositor = compositor;
    if (this.programPad && !this.vertical) this.buildVertical(compositor);
  }

  private buildVertical(compositor: GstElement): void {
    const queue = makeElement('queue', `${this.name}-vq`, BRANCH_QUEUE);
    this.gst.add(queue);
    const pad = requestPad(compositor, 'sink_%u');
    const corners = this.cornersFor('v');
    PictureLink.apply(pad, corners, this.verticalPlacement);
    if (corners) {
      linkPads(staticPad(queue, 'src'), corners.sink);
      linkPads(corners.src, pad);
      corners.start();
    } else linkPads(staticPad(queue, 'src'), pad);
    // Playing before the tee feeds it: a tee pushing into a pad that is still flushing stops.
    queue.syncStateWithParent();
    const teePad = requestPad(this.tee, 'src_%u');
    linkBranch(teePad, staticPad(queue, 'sink'));
    this.vertical = { compositor, queue, teePad, pad, corners };
  }

  detachVertical(): void {
    this.verticalCompositor = undefined;
    this.verticalPlacement = { alpha: 0 };
    const branch = this.vertical;
    if (!branch) return;
    this.vertical = undefined;
    const queueSink = staticPad(branch.queue, 'sink');
    branch.teePad.unlink(queueSink);
    this.tee.releaseRequestPad(branch.teePad);
    if (branch.corners) branch.corners.src.unlink(branch.pad);
    else staticPad(branch.queue, 'src').unlink(branch.pad);
    branch.compositor.releaseRequestPad(branch.pad);
    branch.corners?.remove();
    branch.queue.setState(loadGst().State.NULL);
    this.gst.remove(branch.queue);
  }

  /** Takes the picture out of the pipeline; the compositors go on with their other pads. */
  detach(): void {
    this.detachVertical();
    this.firstData?.remove();
    this.firstData = undefined;
    const { State } = loadGst();
    if (this.programPad && this.teePad) {
      const corners = this.programCorners;
      if (corners) {
        this.teePad.unlink(corners.sink);
        corners.src.unlink(this.programPad);
      } else this.teePad.unlink(this.programPad);
      this.compositor.releaseRequestPad(this.programPad);
      this.tee.releaseRequestPad(this.teePad);
      corners?.remove();
    }
    this.programPad = undefined;
    this.programCorners = undefined;
    this.teePad = undefined;
    this.source.setState(State.NULL);
    this.tee.setState(State.NULL);
    this.gst.remove(this.source);
    this.gst.remove(this.tee);
  }
}
