import { timeOf } from '../gst/elements.ts';
import { loadGst, type GstBin, type GstElement, type GstPad } from '../gst/gst.ts';

/** How often the compositor's place against the clock is read. */
const CHECK_EVERY_MS = 250;
/** Behind by more than this, the compositor is told to skip the frames already late. */
export const PACER_TOLERANCE_MS = 200;

/**
 * Keeps a live compositor on the clock. GStreamer's compositor makes its frames one after the
 * other and never skips one by itself: when the machine cannot blend (or encode) a frame in its
 * 33 ms for a while, every later frame comes later, and the program drifts behind real time for
 * good (12 s behind after a minute on a loaded 2-core worker). Live inputs then wait at the
 * compositor for the program to reach their time: their leaky queues drop frames, and a feed that
 * changes size (a studio that reconnects) stalls until the program gets there.
 *
 * Four times a second the pacer reads how far the compositor's output is behind the pipeline
 * clock, beyond the latency it declares (the jitter buffers' before WebRTC inputs, a frame or two
 * otherwise: the compositor waits that long for its inputs by design); past PACER_TOLERANCE_MS it sends the compositor a QoS event saying so, as a late
 * clock-synchronised sink would, and the compositor skips the blending of the frames that are
 * already late and comes back to real time: the program loses frames (the videorate after it
 * repeats the previous one in their place, counted as dropped frames) instead of its delay
 * growing. Only then: a sink sending QoS for every frame (the first pacer, a `fakesink sync=true
 * qos=true` beside the outputs) made the compositor skip frames all the time on an idle machine,
 * and a scene patch took 373 ms median to reach the output instead of 69 (bench/patch-api-bench.ts).
 * An encoder that cannot keep up still holds the program back through its queue, so the
 * session's rate falls and the encoder governor steps it down as before.
 */
export class Pacer {
  private timer: NodeJS.Timeout | undefined;
  private lastBehindMs: number | undefined;

  constructor(
    private readonly pipeline: GstBin,
    private readonly compositor: GstElement,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.check(), CHECK_EVERY_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** How far behind the clock (ms) the compositor's output was at the last check, beyond its latency. */
  get behindMs(): number | undefined {
    return this.lastBehindMs;
  }

  /** Reads the compositor's lag and, past the tolerance, tells it to skip what is already late. */
  check(): number | undefined {
    const Gst = loadGst();
    const clock = this.pipeline.getClock();
    const position = timeOf(this.compositor.queryPosition(Gst.Format.TIME));
    if (!clock || position === undefined) return undefined;
    const pad = this.compositor.getStaticPad('src');
    const query = Gst.Query.newLatency();
    if (!pad?.query(query)) return undefined;
    const [, minLatency] = query.parseLatency();
    const behindNs = Number(clock.getTime()) - Number(this.pipeline.getBaseTime()) - position - Number(minLatency);
    this.lastBehindMs = Math.round(behindNs / 1e6);
    if (this.lastBehindMs > PACER_TOLERANCE_MS) {
      // Upstream into the compositor's source pad: as if its downstream had rendered the frame
      // of `position` late. The compositor skips frames up to `position + 2 × diff` (plus one
      // frame), so half the lag brings it to now and not as far past it again.
      const event = Gst.Event.newQos(Gst.QOSType.UNDERFLOW, 1, Math.round(behindNs / 2), position);
      pad.sendEvent(event);
      this.clearShapeQos();
    }
    return this.lastBehindMs;
  }

  /**
   * The compositor passes the event upstream to every pad. Everything upstream of it has its QoS
   * switched off (`qos=false`: a live frame is never dropped for being late there), but shapewipe
   * (a rounded picture's branch, inputs/corner-mask.ts) has no switch: from the event it would drop
   * every frame up to the clock's now, and, told again 4 times a second while the program is behind,
   * starve the tile (live-edit.test on a loaded machine: a rounded test picture never seen). Each one
   * feeding this compositor is told at once, on this thread, that running time 0 was on time: it
   * then drops nothing after it. (A QoS at no time would clear it too, but the converters upstream
   * that the event goes on to assert on a timestamp.)
   */
  private clearShapeQos(): void {
    const pads = qosKeepers.get(this.compositor);
    if (!pads) return;
    const Gst = loadGst();
    for (const pad of pads) pad.sendEvent(Gst.Event.newQos(Gst.QOSType.UNDERFLOW, 1, 0, 0));
  }
}

/** Per compositor, the source pads feeding it whose element acts on QoS whatever its `qos` says. */
const qosKeepers = new WeakMap<GstElement, Set<GstPad>>();

/** `pad` (feeding `compositor`) belongs to an element that cannot be told to ignore QoS: its pacer clears it after each event. */
export function clearQosAfterPacer(compositor: GstElement, pad: GstPad): () => void {
  const pads = qosKeepers.get(compositor) ?? new Set<GstPad>();
  qosKeepers.set(compositor, pads);
  pads.add(pad);
  return () => pads.delete(pad);
}
