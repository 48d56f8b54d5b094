import { COUNTDOWN_PLATE, formatCountdown, type OutputProfile, type PlanCountdown } from '@onair/protocol';
import { makeChainBin, makeElement, setProperties } from '../gst/elements.ts';
import type { GstBin, GstElement } from '../gst/gst.ts';
import type { GstPipeline } from '../gst/pipeline.ts';
import { PictureLink } from './inputs/picture-link.ts';
import type { PadProperties } from './layout.ts';

/** Where the time left sits on the 1280×720 scene canvas (the studio draws it at the same place). */
export const COUNTDOWN_BOX = COUNTDOWN_PLATE;

/** Above every layer (plan zorders are at most 10 000), under the holding slate. */
export const COUNTDOWN_ZORDER = 15_000;

export const formatRemaining = formatCountdown;

/** The picture of the time left: white digits on a dark translucent plate, as an SVG of `width`×`height`. */
export function countdownSvg(text: string, width: number, height: number): string {
  const safe = text.replace(/[^0-9:]/g, '');
  const fontSize = Math.round(height * 0.75);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" rx="${Math.round(height / 5)}" fill="#000000" fill-opacity="0.55"/>` +
    `<text x="${width / 2}" y="${Math.round(height * 0.77)}" font-family="DejaVu Sans" font-weight="bold" font-size="${fontSize}" fill="#ffffff" text-anchor="middle">${safe}</text>` +
    `</svg>`
  );
}

/**
 * The countdown's time left drawn over the program (issue 19): one more compositor pad, like the
 * holding slate, fed by a small transparent picture with an `rsvgoverlay` (GStreamer 1.22 here has
 * no pango `textoverlay`). The digits change once a second from a JS timer that sets the overlay's
 * SVG (a property write; no callback on a streaming thread). While no countdown shows, a valve
 * turns the frames into gaps before the overlay, so nothing is drawn and the pad stays transparent; while
 * one shows, drawing the 360×120 plate costs about 0.3 ms a frame here (`gst-launch-1.0 videotestsrc
 * num-buffers=900 ! …BGRA,360×120 ! rsvgoverlay ! fakesink`: 0.24 s of CPU for 900 frames).
 */
export class CountdownClock {
  /** Its picture on the compositors (and on the vertical one while there is one). */
  private link: PictureLink | undefined;
  private verticalSize: { width: number; height: number } | undefined;
  private overlay: GstElement | undefined;
  private valve: GstElement | undefined;
  private endsAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private text = '';
  /** The plate's size in the profile's pixels (the picture it is drawn in). */
  readonly width: number;
  readonly height: number;

  constructor(
    private readonly gst: GstPipeline,
    private readonly profile: OutputProfile,
    private readonly now: () => number = Date.now,
  ) {
    const k = profile.width / 1280;
    this.width = Math.max(2, Math.round((COUNTDOWN_BOX.width * k) / 2) * 2);
    this.height = Math.max(2, Math.round((COUNTDOWN_BOX.height * k) / 2) * 2);
  }

  /** Adds the plate to the program's compositor, transparent until `set` names a countdown. */
  attach(compositor: GstElement): void {
    const overlay = makeElement('rsvgoverlay', 'countdown-svg');
    // Dropped frames become gaps: the compositor then knows this pad has nothing for that time
    // and never waits for it (a pad that only starves holds every frame until its deadline).
    const valve = makeElement('valve', 'countdown-valve', { drop: true, 'drop-mode': 'transform-to-gap' });
    const bin: GstBin = makeChainBin(
      'countdown-video',
      [
        makeElement('videotestsrc', 'countdown-src', { 'is-live': true, pattern: 'solid-color', 'foreground-color': 0 }),
        makeElement('capsfilter', 'countdown-caps', {
          caps: `video/x-raw,format=BGRA,width=${this.width},height=${this.height},framerate=${this.profile.fps}/1`,
        }),
        valve,
        overlay,
        makeElement('queue', 'countdown-queue', { 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0, leaky: 'downstream' }),
      ],
      { src: true },
    );
    const link = new PictureLink(this.gst, bin, 'countdown', compositor);
    Object.assign(link.pad, { alpha: 0, zorder: COUNTDOWN_ZORDER });
    this.link = link;
    this.overlay = overlay;
    this.valve = valve;
    link.start();
  }

  /** On the vertical canvas too (`size`: its picture), centred across at two thirds of its height. */
  attachVertical(compositor: GstElement, size: { width: number; height: number }): void {
    if (!this.link) return;
    this.link.attachVertical(compositor);
    this.verticalSize = size;
    this.placeVertical();
  }

  detachVertical(): void {
    this.link?.detachVertical();
    this.verticalSize = undefined;
  }

  /** On the vertical picture: centred across, at two thirds of its height. */
  private placeVertical(): void {
    const pad = this.link?.verticalPad;
    if (!pad || !this.verticalSize) return;
    const { width, height } = this.verticalSize;
    const w = Math.min(this.width, width);
    const h = Math.round((this.height * w) / this.width);
    Object.assign(pad, {
      xpos: Math.round((width - w) / 2),
      ypos: Math.round(height * 0.66),
      width: w,
      height: h,
      zorder: COUNTDOWN_ZORDER,
      alpha: this.endsAt === undefined ? 0 : 1,
    });
  }

  /** Where the plate sits in the profile's pixels. */
  layout(): PadProperties {
    const k = this.profile.width / 1280;
    return {
      xpos: Math.round(COUNTDOWN_BOX.x * k),
      ypos: Math.round(COUNTDOWN_BOX.y * k),
      width: this.width,
      height: this.height,
      zorder: COUNTDOWN_ZORDER,
      alpha: this.endsAt === undefined ? 0 : 1,
    };
  }

  /** Places the pad (and its vertical twin). */
  place(layout: PadProperties): void {
    if (this.link) Object.assign(this.link.pad, layout);
    this.placeVertical();
  }

  /** Shows the time left until `countdown.endsAt`, or hides the plate. Returns whether that changed what is shown. */
  set(countdown: PlanCountdown | undefined): boolean {
    const endsAt = countdown?.endsAt;
    if (endsAt === this.endsAt) return false;
    this.endsAt = endsAt;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (endsAt === undefined) {
      if (this.valve) setProperties(this.valve, { drop: true });
      this.text = '';
      return true;
    }
    this.draw();
    if (this.valve) setProperties(this.valve, { drop: false });
    return true;
  }

  /** The text on the plate now ('' while hidden). */
  get shown(): string {
    return this.text;
  }

  /** Draws the time left and wakes up when the next whole second starts (or stops at 00:00). */
  private draw(): void {
    if (this.endsAt === undefined) return;
    const remaining = this.endsAt - this.now();
    const text = formatRemaining(remaining);
    if (text !== this.text && this.overlay) setProperties(this.overlay, { data: countdownSvg(text, this.width, this.height) });
    this.text = text;
    if (remaining <= 0) return;
    // The digits change when the time left crosses a whole second; a few ms after, so the rounding has moved.
    const untilNext = remaining % 1000 || 1000;
    this.timer = setTimeout(() => this.draw(), untilNext + 5);
    this.timer.unref?.();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Takes the plate out of both pictures for good (its branch failed). */
  hide(): void {
    this.stop();
    for (const pad of [this.link?.pad, this.link?.verticalPad]) if (pad) Object.assign(pad, { alpha: 0 });
  }
}
