import type { OutputProfile } from '@onair/protocol';
import { makeChainBin, makeElement, setProperties } from '../gst/elements.ts';
import type { GstBin, GstElement, GstPad } from '../gst/gst.ts';
import type { GstPipeline } from '../gst/pipeline.ts';
import { PictureLink } from './inputs/picture-link.ts';

/**
 * A small picture drawn from SVG over the program: one more compositor pad, fed by a transparent
 * `videotestsrc` through an `rsvgoverlay` (GStreamer 1.22 here has no pango `textoverlay`). What it
 * shows is a property write of the overlay's SVG from JS (no callback on a streaming thread). While
 * hidden, a valve turns the frames into gaps before the overlay: nothing is drawn, and the compositor
 * knows this pad has nothing for that time and never waits for it (a pad that only starves holds
 * every frame until its deadline). The countdown clock and the chat lower third are each one.
 */
export class SvgPlate {
  private link: PictureLink | undefined;
  private overlay: GstElement | undefined;
  private valve: GstElement | undefined;

  constructor(
    private readonly gst: GstPipeline,
    /** Names its elements (`<name>-svg`, `<name>-valve`, …). */
    private readonly name: string,
    readonly width: number,
    readonly height: number,
  ) {}

  /** Adds the plate's pad to the program's compositor, hidden; `pad`: its first properties. */
  attach(compositor: GstElement, profile: OutputProfile, pad: Record<string, number>): void {
    const overlay = makeElement('rsvgoverlay', `${this.name}-svg`);
    const valve = makeElement('valve', `${this.name}-valve`, { drop: true, 'drop-mode': 'transform-to-gap' });
    const bin: GstBin = makeChainBin(
      `${this.name}-video`,
      [
        makeElement('videotestsrc', `${this.name}-src`, { 'is-live': true, pattern: 'solid-color', 'foreground-color': 0 }),
        makeElement('capsfilter', `${this.name}-caps`, {
          caps: `video/x-raw,format=BGRA,width=${this.width},height=${this.height},framerate=${profile.fps}/1`,
        }),
        valve,
        overlay,
        makeElement('queue', `${this.name}-queue`, { 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0, leaky: 'downstream' }),
      ],
      { src: true },
    );
    const link = new PictureLink(this.gst, bin, this.name, compositor);
    Object.assign(link.pad, pad);
    this.link = link;
    this.overlay = overlay;
    this.valve = valve;
    link.start();
  }

  /** Whether it has been added to a compositor. */
  get attached(): boolean {
    return this.link !== undefined;
  }

  /** Its pad on the program's compositor, and on the vertical one while there is one. */
  get pad(): GstPad | undefined {
    return this.link?.pad;
  }

  get verticalPad(): GstPad | undefined {
    return this.link?.verticalPad;
  }

  /** Sets the SVG it draws (its size: width×height). */
  draw(svg: string): void {
    if (this.overlay) setProperties(this.overlay, { data: svg });
  }

  /** Draws frames (true) or turns them into gaps (false); the pads' alpha is the caller's. */
  flow(on: boolean): void {
    if (this.valve) setProperties(this.valve, { drop: !on });
  }

  /** Sets the alpha of its pads on both pictures. */
  setAlpha(alpha: number): void {
    for (const pad of [this.link?.pad, this.link?.verticalPad]) if (pad) Object.assign(pad, { alpha });
  }

  attachVertical(compositor: GstElement): void {
    this.link?.attachVertical(compositor);
  }

  detachVertical(): void {
    this.link?.detachVertical();
  }
}
