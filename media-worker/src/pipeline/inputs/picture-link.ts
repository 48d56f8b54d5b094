import { linkPads, makeElement, requestPad, staticPad } from '../../gst/elements.ts';
import { loadGst, type GstBin, type GstElement, type GstPad } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';

/** A leaky queue of a few frames: a compositor that waits never holds the other's frames. */
const BRANCH_QUEUE = { leaky: 'downstream', 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0 } as const;

interface VerticalBranch {
  compositor: GstElement;
  queue: GstElement;
  teePad: GstPad;
  pad: GstPad;
}

/**
 * One picture on the session's canvases: its source bin, a tee, a pad on the program's compositor
 * and, while the vertical canvas is attached, a branch to the vertical compositor. Everything here
 * joins and leaves a pipeline that plays, and touches nothing else:
 * - Joining: the pads downstream are requested and linked before the source is brought to the
 *   pipeline's state. Every source is live and stamps its buffers with the pipeline's running time
 *   (the pipeline's clock and base time, taken by syncStateWithParent), so a late source needs no
 *   pad offset: its first frame is already "now" for the compositor. The pad stays transparent
 *   until the caller lays it out.
 * - Leaving: the compositor's pad is unlinked and released first; the aggregator stops waiting for
 *   it, a push in flight returns FLUSHING (a stop, not an error, for the tee and the source's queue),
 *   and only then does the source go to NULL, which therefore never waits on a compositor.
 * A tee whose branch is unlinked drops its frames (allow-not-linked), so the vertical branch comes
 * and goes without touching the program's.
 */
export class PictureLink {
  readonly pad: GstPad;
  private readonly tee: GstElement;
  private readonly teePad: GstPad;
  private vertical: VerticalBranch | undefined;

  constructor(
    private readonly gst: GstPipeline,
    readonly source: GstBin,
    private readonly name: string,
    private readonly compositor: GstElement,
  ) {
    this.tee = makeElement('tee', `${name}-tee`, { 'allow-not-linked': true });
    gst.add(source);
    gst.add(this.tee);
    linkPads(staticPad(source, 'src'), staticPad(this.tee, 'sink'));
    this.pad = requestPad(compositor, 'sink_%u');
    Object.assign(this.pad, { alpha: 0 });
    this.teePad = requestPad(this.tee, 'src_%u');
    linkPads(this.teePad, this.pad);
  }

  /** Its pad on the vertical compositor, while it has one. */
  get verticalPad(): GstPad | undefined {
    return this.vertical?.pad;
  }

  /** Brings the picture to the pipeline's state; throws if its source refuses (a file that cannot open, a port taken). */
  start(): void {
    if (!this.tee.syncStateWithParent() || !this.source.syncStateWithParent()) throw new Error(`${this.name} could not start`);
  }

  /** A branch to the vertical compositor (transparent until laid out); the program's pad is not touched. */
  attachVertical(compositor: GstElement): GstPad {
    if (this.vertical) return this.vertical.pad;
    const queue = makeElement('queue', `${this.name}-vq`, BRANCH_QUEUE);
    this.gst.add(queue);
    const pad = requestPad(compositor, 'sink_%u');
    Object.assign(pad, { alpha: 0 });
    linkPads(staticPad(queue, 'src'), pad);
    // Playing before the tee feeds it: a tee pushing into a pad that is still flushing stops.
    queue.syncStateWithParent();
    const teePad = requestPad(this.tee, 'src_%u');
    linkPads(teePad, staticPad(queue, 'sink'));
    this.vertical = { compositor, queue, teePad, pad };
    return pad;
  }

  detachVertical(): void {
    const branch = this.vertical;
    if (!branch) return;
    this.vertical = undefined;
    const queueSink = staticPad(branch.queue, 'sink');
    branch.teePad.unlink(queueSink);
    this.tee.releaseRequestPad(branch.teePad);
    staticPad(branch.queue, 'src').unlink(branch.pad);
    branch.compositor.releaseRequestPad(branch.pad);
    branch.queue.setState(loadGst().State.NULL);
    this.gst.remove(branch.queue);
  }

  /** Takes the picture out of the pipeline; the compositors go on with their other pads. */
  detach(): void {
    this.detachVertical();
    const { State } = loadGst();
    this.teePad.unlink(this.pad);
    this.compositor.releaseRequestPad(this.pad);
    this.tee.releaseRequestPad(this.teePad);
    this.source.setState(State.NULL);
    this.tee.setState(State.NULL);
    this.gst.remove(this.source);
    this.gst.remove(this.tee);
  }
}
