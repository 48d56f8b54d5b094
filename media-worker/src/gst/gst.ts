/**
 * The GStreamer binding, loaded once. node-gtk builds its classes from GObject introspection at
 * run time and ships no TypeScript types, so this file describes the small part of the API the
 * worker uses; everything else in the worker goes through these types.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A GStreamer boxed structure; we only read it through its serialisation. */
export interface GstStructure {
  toString(): string;
}

/** An event built here to send into the pipeline. */
export type GstEvent = { readonly __gstEvent: unique symbol };

/** A query; a latency query answers [live, min, max] (ns, as BigInt in node-gtk). */
export interface GstQuery {
  parseLatency(): [boolean, bigint | number, bigint | number];
}

export interface GstPad {
  readonly name: string;
  link(sink: GstPad): number;
  /** Links with the checks and options of `flags` (PadLinkCheck bits). */
  linkFull(sink: GstPad, flags: number): number;
  unlink(sink: GstPad): boolean;
  isLinked(): boolean;
  getParentElement(): GstElement | null;
  /** Hands the pad an event as if its peer had sent it (an upstream event on a source pad). */
  sendEvent(event: GstEvent): boolean;
  /** Asks the pad's element (a source pad's: it answers for its upstream too). */
  query(query: GstQuery): boolean;
  /** The caps negotiated on the pad, or null before there are any. */
  getCurrentCaps(): GstStructure | null;
  /** Added to the running time of everything that passes the pad (ns). */
  setOffset(offsetNs: number): void;
  /** A pad made here (Gst.Pad.new): activates it in push mode (or deactivates it). */
  setActive(active: boolean): boolean;
  /** A pad made here: sends an event downstream (stream-start, caps, segment). */
  pushEvent(event: GstEvent): boolean;
  /** A pad made here: pushes a buffer to its peer, on the calling thread (a GstFlowReturn). */
  push(buffer: GstBuffer): number;
  /** The caps the pad could take (a sink pad's peer query answered by its element). */
  queryCaps(filter: GstCaps | null): GstCaps;
  // Pad properties (compositor and audiomixer sink pads) are plain camelCase fields in node-gtk.
  [property: string]: unknown;
}

export interface GstElement {
  readonly name: string;
  setState(state: number): number;
  getState(timeoutNs: number): [number, number, number];
  syncStateWithParent(): boolean;
  link(dest: GstElement): boolean;
  getStaticPad(name: string): GstPad | null;
  requestPadSimple(template: string): GstPad | null;
  releaseRequestPad(pad: GstPad): void;
  getParent(): GstElement | null;
  seekSimple(format: number, flags: number, position: number): boolean;
  /** node-gtk returns the out parameter with the result: `[found, position]` (or the position alone). */
  queryPosition(format: number): [boolean, number] | number;
  queryDuration(format: number): [boolean, number] | number;
  /** The clock the element runs on (a pipeline's, once playing), and the clock time its running time counts from (ns). */
  getClock(): { getTime(): number | bigint } | null;
  getBaseTime(): number | bigint;
  // Element properties read back as camelCase fields (guint64 ones as BigInt).
  [property: string]: unknown;
}

/** A buffer made here to push from a pad of our own. */
export interface GstBuffer {
  /** Copies `bytes` into the buffer from `offset`. */
  fill(offset: number, bytes: Uint8Array): number | bigint;
}

export interface GstCaps {
  intersect(other: GstCaps): GstCaps;
  fixate(): GstCaps;
  isEmpty(): boolean;
  toString(): string;
}

/** A segment (in TIME format once initialised), for a segment event. */
export interface GstSegment {
  init(format: number): void;
}

export interface GstBin extends GstElement {
  add(element: GstElement): boolean;
  remove(element: GstElement): boolean;
  getByName(name: string): GstElement | null;
  addPad(pad: GstPad): boolean;
  /** Queries the latency of every sink again and configures it (GstBin; on a LATENCY message). */
  recalculateLatency(): boolean;
}

export interface GstMessage {
  readonly type: number;
  readonly src: GstElement | null;
  parseError(): [{ message: string; code: number }, string | null];
  parseWarning(): [{ message: string; code: number }, string | null];
  parseStateChanged(): [number, number, number];
}

export interface GstBus {
  pop(): GstMessage | null;
}

export interface GstModule {
  init(argv: null): void;
  version(): [number, number, number, number];
  Pipeline: new (props: { name: string }) => GstBin & { getBus(): GstBus };
  Bin: new (props: { name: string }) => GstBin;
  GhostPad: { new: (name: string, target: GstPad) => GstPad };
  ElementFactory: { make(factory: string, name: string | null): GstElement | null };
  Caps: { fromString(caps: string): GstCaps };
  Pad: { new: (name: string, direction: number) => GstPad };
  PadDirection: { SRC: number; SINK: number };
  Segment: new () => GstSegment;
  FlowReturn: { OK: number };
  Buffer: { newAllocate(allocator: null, size: number, params: null): GstBuffer };
  Structure: { newFromString(text: string): GstStructure | null };
  Event: {
    newCustom(type: number, structure: GstStructure): GstEvent;
    newEos(): GstEvent;
    newStreamStart(streamId: string): GstEvent;
    newCaps(caps: GstCaps): GstEvent;
    newSegment(segment: GstSegment): GstEvent;
    /** `diff`: how late (ns, positive) the frame of running time `timestamp` was rendered. */
    newQos(type: number, proportion: number, diff: number, timestamp: number): GstEvent;
  };
  EventType: { CUSTOM_UPSTREAM: number };
  QOSType: { OVERFLOW: number; UNDERFLOW: number; THROTTLE: number };
  Query: { newLatency(): GstQuery };
  utilSetObjectArg(object: GstElement, name: string, value: string): void;
  /** A bin from a gst-launch description; links to pads that appear later (a demuxer's) are made by GStreamer itself. */
  parseBinFromDescription(description: string, ghostUnlinkedPads: boolean): GstBin;
  Format: { TIME: number };
  SeekFlags: { FLUSH: number; KEY_UNIT: number; ACCURATE: number };
  debugBinToDotData(bin: GstBin, details: number): string;
  State: { VOID_PENDING: number; NULL: number; READY: number; PAUSED: number; PLAYING: number };
  StateChangeReturn: { FAILURE: number; SUCCESS: number; ASYNC: number; NO_PREROLL: number };
  MessageType: { EOS: number; ERROR: number; WARNING: number; STATE_CHANGED: number; LATENCY: number };
  DebugGraphDetails: { MEDIA_TYPE: number; CAPS_DETAILS: number; STATES: number };
  PadLinkReturn: { OK: number };
  PadLinkCheck: { DEFAULT: number; NO_RECONFIGURE: number };
}

interface GlibMainContext {
  /** One non-blocking iteration (`false`): dispatches what is ready; true if something was. */
  iteration(mayBlock: boolean): boolean;
}

interface NodeGtk {
  require(namespace: 'Gst', version: '1.0'): GstModule;
  require(namespace: 'GLib', version: '2.0'): { MainContext: { default(): GlibMainContext } };
}

/** How often GLib's default main context is run on the JS thread (see pumpMainContext). */
const MAIN_CONTEXT_PUMP_MS = 50;
/** At most this many sources dispatched per pump, so a flood never holds the JS thread. */
const MAIN_CONTEXT_PUMP_MAX = 200;

let gst: GstModule | undefined;
/** Loads GStreamer and initialises it on first use (the binding is native and process-wide). */
export function loadGst(): GstModule {
  if (!gst) {
    const gi = require('node-gtk') as NodeGtk;
    gst = gi.require('Gst', '1.0');
    gst.init(null);
    const context = gi.require('GLib', '2.0').MainContext.default();
    setInterval(() => pumpMainContext(context), MAIN_CONTEXT_PUMP_MS).unref();
  }
  return gst;
}

/**
 * node-gtk frees a GStreamer object in two steps: V8 collects the JS wrapper, and an idle on GLib's
 * default main context then drops the wrapper's reference (GObjectTeardownIdle); a reference
 * dropped on a streaming thread is also reconciled from such an idle (its toggle queue). Nothing
 * iterates that context in this process (Node's loop runs, not GLib's), so without this pump no
 * element, pad or bin JS had seen was ever freed: every input a live pipeline detached kept its
 * bins, decoders, buffers and sockets for the life of the process (issue 35; the leak tracer
 * listed every removed input's bins alive at refcount 1). Each pump dispatches what is ready,
 * without blocking; nothing in this process attaches JS callbacks to GLib sources.
 */
function pumpMainContext(context: GlibMainContext): void {
  for (let i = 0; i < MAIN_CONTEXT_PUMP_MAX && context.iteration(false); i++);
}
