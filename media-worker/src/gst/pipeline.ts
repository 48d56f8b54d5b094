import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadGst, type GstBin, type GstBus, type GstElement, type GstMessage } from './gst.ts';

export interface BusError {
  /** The element that posted the message, and the names of its parents up to the pipeline. */
  source: string[];
  message: string;
  debug: string;
}

export interface GstPipelineHandlers {
  onError(error: BusError): void;
  onWarning?(warning: BusError): void;
  onEos?(): void;
}

/** How often the bus is drained on the JS thread. */
const BUS_POLL_MS = 20;

/**
 * A pipeline with its bus drained on Node's own thread. node-gtk 4.1.1 has no `startLoop()` and a
 * `bus.addWatch` callback only runs while a GLib main loop iterates, which blocks Node's loop here;
 * popping the bus from a short interval keeps every message on the JS thread without any callback
 * from GStreamer's streaming threads (those are marshalled to JS and can deadlock, node-gtk #247).
 */
export class GstPipeline {
  readonly bin: GstBin;
  private readonly bus: GstBus;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly name: string,
    private readonly handlers: GstPipelineHandlers,
    private readonly dotDir?: string,
  ) {
    const gst = loadGst();
    const pipeline = new gst.Pipeline({ name });
    this.bin = pipeline;
    this.bus = pipeline.getBus();
  }

  add(element: GstElement): void {
    if (!this.bin.add(element)) throw new Error(`cannot add ${element.name} to ${this.name}`);
  }

  remove(element: GstElement): void {
    this.bin.remove(element);
  }

  play(): void {
    const gst = loadGst();
    if (this.bin.setState(gst.State.PLAYING) === gst.StateChangeReturn.FAILURE) {
      throw new Error(`pipeline ${this.name} refused to go to PLAYING`);
    }
    this.timer ??= setInterval(() => this.drainBus(), BUS_POLL_MS);
  }

  /** Current state once any pending change completed (or after `timeoutMs`). */
  state(timeoutMs = 0): number {
    const [, current] = this.bin.getState(timeoutMs * 1_000_000);
    return current;
  }

  /**
   * Queries every sink's latency again and configures it: after an element's latency was changed
   * on purpose (a jitter buffer set to another latency), so aggregators and sinks wait for the new
   * deadline. Done where the change is made rather than on every LATENCY message: an encoder
   * re-opened for a step-down posts one too, and re-timing the pipeline then cost frames.
   */
  recalculateLatency(): void {
    this.bin.recalculateLatency();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.bin.setState(loadGst().State.NULL);
  }

  /**
   * Writes the graph as a Graphviz file. Element properties are left out on purpose: they hold
   * the destinations' URLs with their stream keys.
   */
  async dumpDot(reason: string): Promise<string | undefined> {
    if (!this.dotDir) return undefined;
    const gst = loadGst();
    const details = gst.DebugGraphDetails.MEDIA_TYPE | gst.DebugGraphDetails.CAPS_DETAILS | gst.DebugGraphDetails.STATES;
    const dot = gst.debugBinToDotData(this.bin, details);
    await mkdir(this.dotDir, { recursive: true });
    const file = join(this.dotDir, `${this.name}-${Date.now()}-${reason.replace(/[^a-z0-9-]/gi, '_')}.dot`);
    await writeFile(file, dot);
    return file;
  }

  private drainBus(): void {
    const gst = loadGst();
    for (let message = this.bus.pop(); message; message = this.bus.pop()) {
      if (message.type === gst.MessageType.ERROR) {
        const [error, debug] = message.parseError();
        this.handlers.onError({ source: sourcePath(message), message: error.message, debug: debug ?? '' });
      } else if (message.type === gst.MessageType.WARNING) {
        const [warning, debug] = message.parseWarning();
        this.handlers.onWarning?.({ source: sourcePath(message), message: warning.message, debug: debug ?? '' });
      } else if (message.type === gst.MessageType.EOS) {
        this.handlers.onEos?.();
      }
    }
  }
}

function sourcePath(message: GstMessage): string[] {
  const names: string[] = [];
  for (let element: GstElement | null = message.src; element; element = element.getParent()) names.push(element.name);
  return names;
}
