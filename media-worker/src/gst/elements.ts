import { loadGst, type GstBin, type GstElement, type GstPad } from './gst.ts';

export type PropertyValue = string | number | boolean;

/**
 * Creates an element and sets its properties by their GStreamer names (`key-int-max`,
 * `speed-preset=veryfast`): values go through `gst_util_set_object_arg`, which parses enums by
 * nick and caps from strings, so call sites read like a gst-launch line.
 */
export function makeElement(factory: string, name: string, props: Record<string, PropertyValue> = {}): GstElement {
  const gst = loadGst();
  const element = gst.ElementFactory.make(factory, name);
  if (!element) throw new Error(`GStreamer element ${factory} is not available`);
  setProperties(element, props);
  return element;
}

export function setProperties(element: GstElement, props: Record<string, PropertyValue>): void {
  const gst = loadGst();
  for (const [key, value] of Object.entries(props)) gst.utilSetObjectArg(element, key, String(value));
}

export function linkChain(elements: readonly GstElement[]): void {
  for (let i = 1; i < elements.length; i++) {
    const from = elements[i - 1]!;
    const to = elements[i]!;
    if (!from.link(to)) throw new Error(`cannot link ${from.name} to ${to.name}`);
  }
}

export function linkPads(src: GstPad, sink: GstPad): void {
  const ret = src.link(sink);
  if (ret !== loadGst().PadLinkReturn.OK) throw new Error(`cannot link pad ${src.name} to ${sink.name} (${ret})`);
}

/**
 * Links a new branch to a tee whose upstream already streams (an input's picture or sound joining
 * a compositor or the mixer, a vertical canvas or a recording joining an encoded stream). The
 * branch takes the caps already flowing, so the link sends no RECONFIGURE upstream: with one, the
 * source renegotiates and runs an ALLOCATION query through every branch of the tee, and that
 * serialized query waits in the new branch's queue until its consumer takes it. Measured with the
 * vertical canvas attached live: a camera's source sat 610 ms in that query, so the program's
 * compositor went without its frames for its 250 ms deadline (the viewers' 245-256 ms hole).
 */
export function linkBranch(teePad: GstPad, sink: GstPad): void {
  const { PadLinkCheck, PadLinkReturn } = loadGst();
  const ret = teePad.linkFull(sink, PadLinkCheck.DEFAULT | PadLinkCheck.NO_RECONFIGURE);
  if (ret !== PadLinkReturn.OK) throw new Error(`cannot link pad ${teePad.name} to ${sink.name} (${ret})`);
}

export function staticPad(element: GstElement, name: string): GstPad {
  const pad = element.getStaticPad(name);
  if (!pad) throw new Error(`${element.name} has no pad ${name}`);
  return pad;
}

export function requestPad(element: GstElement, template: string): GstPad {
  const pad = element.requestPadSimple(template);
  if (!pad) throw new Error(`${element.name} gave no request pad for ${template}`);
  return pad;
}

/**
 * Switches off an element's own QoS, for anything before a compositor. The only QoS in a program is
 * the pacer's (pipeline/pacer.ts), meant for the compositor: the compositor passes it upstream,
 * where decoders, converters and croppers (qos on by default for most) would drop live frames with
 * it. shapewipe has no switch: the pacer clears it instead (clearQosAfterPacer).
 */
export function withoutQos(element: GstElement): GstElement {
  if ('qos' in element) element.qos = false;
  return element;
}

/**
 * A bin holding a linked chain of elements, with ghost pads for the chain's free ends, so the
 * product graph adds and removes a source or an output as one unit.
 */
export function makeChainBin(name: string, chain: readonly GstElement[], ends: { sink?: boolean; src?: boolean }): GstBin {
  const gst = loadGst();
  const bin = new gst.Bin({ name });
  for (const element of chain) bin.add(withoutQos(element));
  linkChain(chain);
  if (ends.sink) bin.addPad(gst.GhostPad.new('sink', staticPad(chain[0]!, 'sink')));
  if (ends.src) bin.addPad(gst.GhostPad.new('src', staticPad(chain[chain.length - 1]!, 'src')));
  return bin;
}

/** Reads a guint64/gint64 property, which node-gtk hands back as a BigInt. */
export function numberProperty(element: GstElement, field: string): number {
  const value = element[field];
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  return 0;
}

/** Reads one numeric field of a GstStructure through its serialisation (`name=(guint64)123`). */
export function structureNumber(structure: { toString(): string } | null | undefined, field: string): number {
  if (!structure) return 0;
  const match = new RegExp(`(?:^|[ ,])${field}=\\([a-z0-9]+\\)(-?\\d+)`).exec(structure.toString());
  return match ? Number(match[1]) : 0;
}

/** A position or duration query's answer in ns (node-gtk gives `[found, value]` or the value alone), if there is one. */
export function timeOf(result: [boolean, number] | number): number | undefined {
  if (typeof result === 'number') return result >= 0 ? result : undefined;
  const [found, value] = result;
  return found && value >= 0 ? Number(value) : undefined;
}
