import { linkChain, linkPads, makeElement, requestPad, staticPad } from '../gst/elements.ts';
import type { GstElement } from '../gst/gst.ts';

/**
 * Keeps a live compositor on the clock. GStreamer's compositor makes its frames one after the
 * other and never skips one by itself: when the machine cannot blend (or encode) a frame in its
 * 33 ms for a while, every later frame comes later, and the program drifts behind real time for
 * good (12 s behind after a minute on a loaded 2-core worker). Live inputs then wait at the
 * compositor for the program to reach their time: their leaky queues drop frames, and a feed that
 * changes size (a studio that reconnects) stalls until the program gets there.
 *
 * A clock-synchronised sink beside the outputs (behind a one-frame leaky queue, so it never holds
 * the program back) sends QoS events upstream. The compositor then skips the blending of frames
 * that are already late and so comes back to real time: the program loses frames (the videorate
 * after it repeats the previous one in their place, counted as dropped frames) instead of its
 * delay growing. An encoder that cannot keep up still holds the program back through its queue,
 * so the session's rate falls and the encoder governor steps it down as before.
 *
 * `tee` is a tee right after the compositor's caps, already in the pipeline; the branch hangs from it.
 */
export function addPacer(tee: GstElement, add: (element: GstElement) => void): void {
  const branch = [
    makeElement('queue', `${tee.name}-queue`, { leaky: 'downstream', 'max-size-buffers': 1, 'max-size-bytes': 0, 'max-size-time': 0 }),
    makeElement('fakesink', `${tee.name}-sink`, { sync: true, qos: true, async: false, 'enable-last-sample': false }),
  ];
  for (const element of branch) add(element);
  linkChain(branch);
  linkPads(requestPad(tee, 'src_%u'), staticPad(branch[0]!, 'sink'));
}
