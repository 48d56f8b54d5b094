import { linkPads, makeElement, requestPad, staticPad } from '../../gst/elements.ts';
import { loadGst, type GstElement, type GstPad } from '../../gst/gst.ts';
import type { GstPipeline } from '../../gst/pipeline.ts';

/** How often a waiting input is looked at: its first frame joins the program at most this late. */
const POLL_MS = 20;

/**
 * Tells when the first buffer comes out of an input (issue 35). A live aggregator (the compositor,
 * the mixer) that gets a pad with no data yet holds every output frame back to its deadline, the
 * inputs' latency (~0.25 s), until data comes; `ignore-inactive-pads` does not help, it only stops
 * waiting after the first timeout. A network input's pads requested when it was added held the whole
 * program for that long (bench/live-edit-bench.ts: 215-257 ms with nothing at the reader when a
 * camera or a web page was added; a bare compositor with one silent pad: 309 ms). So such an input joins the
 * aggregators only once it has something to give them. Until then its tee feeds this probe: a
 * leaky one-buffer queue into a fakesink that keeps its last sample, which the JS thread reads
 * every POLL_MS (no callback from a streaming thread).
 */
export class FirstData {
  private readonly queue: GstElement;
  private readonly sink: GstElement;
  private teePad: GstPad | undefined;
  private timer: NodeJS.Timeout | undefined;
  private removed = false;

  constructor(
    private readonly gst: GstPipeline,
    private readonly tee: GstElement,
    name: string,
  ) {
    this.queue = makeElement('queue', `${name}-q`, { leaky: 'downstream', 'max-size-buffers': 1, 'max-size-bytes': 0, 'max-size-time': 0 });
    this.sink = makeElement('fakesink', `${name}-sink`, { sync: false, async: false, 'enable-last-sample': true });
    gst.add(this.queue);
    gst.add(this.sink);
    if (!this.queue.link(this.sink)) throw new Error(`${name}: the probe could not be linked`);
    this.teePad = requestPad(tee, 'src_%u');
    linkPads(this.teePad, staticPad(this.queue, 'sink'));
  }

  /** Starts looking (the probe plays from now on); `arrived` is called once, on the JS thread, and the probe goes. */
  start(arrived: () => void): void {
    // Playing before the tee feeds it (a tee pushing into a flushing pad stops).
    this.sink.syncStateWithParent();
    this.queue.syncStateWithParent();
    this.timer = setInterval(() => {
      if (this.removed || !this.sink.lastSample) return;
      this.remove();
      arrived();
    }, POLL_MS);
  }

  /** Takes the probe out (the input's data arrived, or the input left first). */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.teePad) {
      this.teePad.unlink(staticPad(this.queue, 'sink'));
      this.tee.releaseRequestPad(this.teePad);
      this.teePad = undefined;
    }
    const { State } = loadGst();
    for (const element of [this.queue, this.sink]) {
      element.setState(State.NULL);
      this.gst.remove(element);
    }
  }
}
