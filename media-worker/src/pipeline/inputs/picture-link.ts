import { linkBranch, linkPads, makeElement, requestPad, staticPad } from '../../gst/elements.ts';
import { loadGst, type GstBin, type GstElement, type GstPad } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';
import { CanvasBranch, type PicturePlacement } from './canvas-branch.ts';
import { FirstData } from './first-data.ts';

export type { PicturePlacement } from './canvas-branch.ts';

interface Branch {
  branch: CanvasBranch;
  teePad: GstPad;
}

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
 * and goes without touching the program's. Each compositor is reached through a CanvasBranch, which
 * crops the picture and rounds its corners as the layer on that canvas asks.
 */
export class PictureLink {
  private program: Branch | undefined;
  private readonly tee: GstElement;
  private vertical: (Branch & { compositor: GstElement }) | undefined;
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
    /** A network feed: its compositor pads are requested once its first frame is there, not before. */
    options: { joinOnFirstFrame?: boolean } = {},
  ) {
    this.tee = makeElement('tee', `${name}-tee`, { 'allow-not-linked': true });
    gst.add(source);
    gst.add(this.tee);
    linkPads(staticPad(source, 'src'), staticPad(this.tee, 'sink'));
    if (options.joinOnFirstFrame) this.firstData = new FirstData(gst, this.tee, `${name}-first`);
    else this.join();
  }

  /** Whether it is on the compositor: a network feed only once its first frame (a decoded keyframe) came. */
  get joined(): boolean {
    return this.program !== undefined;
  }

  /** Its pad on the program's compositor (a picture that joins at once: the slate, the countdown). */
  get pad(): GstPad {
    if (!this.program) throw new Error(`${this.name} has not joined the compositor yet`);
    return this.program.branch.pad;
  }

  /** Its pad on the vertical compositor, while it has one. */
  get verticalPad(): GstPad | undefined {
    return this.vertical?.branch.pad;
  }

  /** Draws it there and so (pad properties, corner radius, crop, fit), now or when it joins. */
  place(placement: PicturePlacement): void {
    this.placement = placement;
    this.program?.branch.place(placement);
  }

  /** The same on the vertical compositor. */
  placeVertical(placement: PicturePlacement): void {
    this.verticalPlacement = placement;
    this.vertical?.branch.place(placement);
  }

  /** A branch to a compositor, laid out and playing, then fed by the tee. */
  private branchTo(compositor: GstElement, part: string, placement: PicturePlacement, queue: boolean): Branch {
    const branch = new CanvasBranch(this.gst, `${this.name}-${part}`, compositor, { queue });
    branch.place(placement);
    // Playing before the tee feeds it: a tee pushing into a pad that is still flushing stops.
    branch.start();
    const teePad = requestPad(this.tee, 'src_%u');
    linkBranch(teePad, branch.sink);
    return { branch, teePad };
  }

  /**
   * The tee's pad first: a tee whose pad is released counts a push in flight through it as done,
   * where a FLUSHING from a branch going down would stop the source's streaming thread. Then the
   * branch releases its compositor pads (a push blocked in the compositor returns) before any
   * element changes state.
   */
  private unbranch({ branch, teePad }: Branch): void {
    teePad.unlink(branch.sink);
    this.tee.releaseRequestPad(teePad);
    branch.remove();
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
    this.program = this.branchTo(this.compositor, 'p', this.placement, false);
    if (this.verticalCompositor) this.buildVertical(this.verticalCompositor);
  }

  /** A branch to the vertical compositor (transparent until laid out); the program's pad is not touched. */
  attachVertical(compositor: GstElement): void {
    this.verticalCompositor = compositor;
    if (this.program && !this.vertical) this.buildVertical(compositor);
  }

  private buildVertical(compositor: GstElement): void {
    this.vertical = { ...this.branchTo(compositor, 'v', this.verticalPlacement, true), compositor };
  }

  detachVertical(): void {
    this.verticalCompositor = undefined;
    this.verticalPlacement = { alpha: 0 };
    const branch = this.vertical;
    if (!branch) return;
    this.vertical = undefined;
    this.unbranch(branch);
  }

  /** Takes the picture out of the pipeline; the compositors go on with their other pads. */
  detach(): void {
    this.detachVertical();
    this.firstData?.remove();
    this.firstData = undefined;
    const { State } = loadGst();
    if (this.program) this.unbranch(this.program);
    this.program = undefined;
    this.source.setState(State.NULL);
    this.tee.setState(State.NULL);
    this.gst.remove(this.source);
    this.gst.remove(this.tee);
  }
}
