import { COUNTDOWN_PLATE, formatCountdown, type OutputProfile, type PlanCountdown } from '@onair/protocol';
import type { GstElement } from '../gst/gst.ts';
import type { GstPipeline } from '../gst/pipeline.ts';
import type { PadProperties } from './layout.ts';
import { SvgPlate } from './svg-plate.ts';

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
 * The countdown's time left drawn over the program (issue 19): an SvgPlate, like the chat lower
 * third. The digits change once a second from a JS timer that sets the plate's SVG. While one shows,
 * drawing the 360×120 plate costs about 0.3 ms a frame here (`gst-launch-1.0 videotestsrc
 * num-buffers=900 ! …BGRA,360×120 ! rsvgoverlay ! fakesink`: 0.24 s of CPU for 900 frames).
 */
export class CountdownClock {
  /** Its picture on the compositors (and on the vertical one while there is one). */
  private readonly plate: SvgPlate;
  private verticalSize: { width: number; height: number } | undefined;
  private endsAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private text = '';
  /** The plate's size in the profile's pixels (the picture it is drawn in). */
  readonly width: number;
  readonly height: number;

  constructor(
    gst: GstPipeline,
    private readonly profile: OutputProfile,
    private readonly now: () => number = Date.now,
  ) {
    const k = profile.width / 1280;
    this.width = Math.max(2, Math.round((COUNTDOWN_BOX.width * k) / 2) * 2);
    this.height = Math.max(2, Math.round((COUNTDOWN_BOX.height * k) / 2) * 2);
    this.plate = new SvgPlate(gst, 'countdown', this.width, this.height);
  }

  /** Adds the plate to the program's compositor, transparent until `set` names a countdown. */
  attach(compositor: GstElement): void {
    this.plate.attach(compositor, this.profile, { alpha: 0, zorder: COUNTDOWN_ZORDER });
  }

  /** On the vertical canvas too (`size`: its picture), centred across at two thirds of its height. */
  attachVertical(compositor: GstElement, size: { width: number; height: number }): void {
    if (!this.plate.attached) return;
    this.plate.attachVertical(compositor);
    this.verticalSize = size;
    this.placeVertical();
  }

  detachVertical(): void {
    this.plate.detachVertical();
    this.verticalSize = undefined;
  }

  /** On the vertical picture: centred across, at two thirds of its height. */
  private placeVertical(): void {
    const pad = this.plate.verticalPad;
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
    const pad = this.plate.pad;
    if (pad) Object.assign(pad, layout);
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
      this.plate.flow(false);
      this.text = '';
      return true;
    }
    this.draw();
    this.plate.flow(true);
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
    if (text !== this.text) this.plate.draw(countdownSvg(text, this.width, this.height));
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
    this.plate.setAlpha(0);
  }
}
