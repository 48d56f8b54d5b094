import { CHAT_ON_SCREEN_VERTICAL_BOX, CHAT_SENDER_MARKS, type ChatOnAir, type ChatOnScreenDrawn, type OutputProfile } from '@onair/protocol';
import type { GstElement } from '../gst/gst.ts';
import type { GstPipeline } from '../gst/pipeline.ts';
import type { PadProperties } from './layout.ts';
import { SvgPlate } from './svg-plate.ts';

/**
 * Where the lower third sits on the 1280×720 scene canvas: the overlay page's card (left 4vw, top
 * 71vh, 70vw × 22vh), so a message looks the same drawn here as on the page in a creator's own tool.
 */
export const LOWER_THIRD_BOX = { x: 51, y: 511, width: 896, height: 158 } as const;

/** Above every layer (plan zorders are at most 10 000) and the countdown, under the holding slate. */
export const LOWER_THIRD_ZORDER = 15_500;

/** The card's layout in canvas units (the page's sizes at 720 high: name 3.8vh, text 3.5vh with 1.25 lines, padding 2vh 3vh). */
const CARD = { badge: 158, padX: 22, nameSize: 27, labelSize: 16, textSize: 25, lineHeight: 31, gap: 6 } as const;
/** Width of the card's text column (canvas units); the name and the platform's label share its first line. */
const TEXT_WIDTH = 694;
const LABEL_GAP = 14;
const TEXT_LINES = 3;
/** How long the transparent pad draws a sample card at start (warmUp). */
const WARM_UP_MS = 1500;

/** User text as SVG character data: every markup character escaped, control characters dropped (rsvg refuses them). */
export function xmlText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- the characters XML 1.0 does not allow
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/**
 * How wide DejaVu Sans draws `text` at `size` (its advance widths, in classes of characters, within
 * a few %; bold about 10 % wider). rsvg cannot be asked from here, and SVG's textLength is not
 * drawn by it: lines are measured with this, and the text column is clipped to the card besides.
 */
export function textWidth(text: string, size: number, bold = false): number {
  let em = 0;
  for (const ch of text) {
    if (/[iljI.,:;!|'`]/.test(ch)) em += 0.3;
    else if (/[ftr ()[\]{}"-]/.test(ch)) em += 0.4;
    else if (/[mwMW@%]/.test(ch)) em += 1.0;
    else if (/[A-Z&#]/.test(ch)) em += 0.74;
    // Latin letters and the rest of the Latin blocks (up to U+02FF).
    else if (ch.codePointAt(0)! <= 0x2ff) em += 0.63;
    // Emoji, CJK and other wide scripts: about a square each.
    else em += 1.0;
  }
  return em * size * (bold ? 1.1 : 1);
}

/** `text` cut to `max` wide (by code point, so no emoji is split), with an ellipsis when it was cut. */
export function cutToWidth(text: string, max: number, size: number, bold = false): string {
  if (textWidth(text, size, bold) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (textWidth(`${out}${ch}…`, size, bold) > max) break;
    out += ch;
  }
  return `${out.trimEnd()}…`;
}

/**
 * The message in at most `lines` lines `width` wide at `size`: broken between words, a word longer
 * than a line broken where it must, the last line ending in an ellipsis when the message goes on.
 */
export function wrapText(text: string, width = TEXT_WIDTH, lines = TEXT_LINES, size: number = CARD.textSize): string[] {
  const fits = (line: string) => textWidth(line, size) <= width;
  const out: string[] = [];
  let line = '';
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (fits(next)) {
      line = next;
      continue;
    }
    if (line) out.push(line);
    // A word longer than a line (a link, a row of emoji): as much of it on each line as fits.
    let rest = word;
    while (!fits(rest)) {
      let head = '';
      for (const ch of rest) {
        if (!fits(head + ch)) break;
        head += ch;
      }
      if (!head) head = [...rest][0]!;
      out.push(head);
      rest = rest.slice(head.length);
    }
    line = rest;
  }
  if (line) out.push(line);
  if (out.length <= lines) return out;
  const kept = out.slice(0, lines);
  kept[lines - 1] = `${cutToWidth(`${kept[lines - 1]!} ${out[lines]!}`, width, size).replace(/…$/, '')}…`;
  if (!fits(kept[lines - 1]!)) kept[lines - 1] = cutToWidth(kept[lines - 1]!, width, size);
  return kept;
}

/**
 * The lower third as an SVG of `width`×`height` pixels drawn in canvas units (LOWER_THIRD_BOX): the
 * platform's colour block with its mark, the sender's name and platform, the message in up to three
 * lines, on the dark card. Every text is the user's and goes in as character data, escaped.
 */
export function lowerThirdSvg(message: Pick<ChatOnScreenDrawn, 'platform' | 'displayName' | 'text'>, width: number, height: number): string {
  const { width: w, height: h } = LOWER_THIRD_BOX;
  const key = message.platform ?? 'room';
  const brand = { ...CHAT_SENDER_MARKS[key], label: CHAT_SENDER_MARKS[key].label.toUpperCase() };
  const lines = wrapText(message.text);
  const blockHeight = CARD.nameSize * 1.2 + CARD.gap + lines.length * CARD.lineHeight;
  const top = Math.round((h - blockHeight) / 2);
  const x = CARD.badge + CARD.padX;
  const glyph = 79 / 24;
  const nameWidth = TEXT_WIDTH - LABEL_GAP - textWidth(brand.label, CARD.labelSize, true) * 1.08;
  const text = lines
    .map((line, i) => `<text x="${x}" y="${top + Math.round(CARD.nameSize * 1.2) + CARD.gap + i * CARD.lineHeight + CARD.textSize}">${xmlText(line)}</text>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${w} ${h}">` +
    `<defs><clipPath id="card"><rect width="${w}" height="${h}" rx="10"/></clipPath>` +
    `<clipPath id="column"><rect x="${x}" width="${TEXT_WIDTH}" height="${h}"/></clipPath></defs>` +
    `<g clip-path="url(#card)">` +
    `<rect width="${w}" height="${h}" fill="#151821"/>` +
    `<rect width="${CARD.badge}" height="${h}" fill="${brand.color}"/>` +
    `<path fill="#ffffff" transform="translate(${(CARD.badge - 79) / 2} ${(h - 79) / 2}) scale(${glyph.toFixed(4)})" d="${brand.path}"/>` +
    `</g>` +
    `<g clip-path="url(#column)">` +
    `<text x="${x}" y="${top + CARD.nameSize}" font-family="DejaVu Sans" fill="#ffffff">` +
    `<tspan font-size="${CARD.nameSize}" font-weight="bold">${xmlText(cutToWidth(message.displayName, nameWidth, CARD.nameSize, true))}</tspan>` +
    `<tspan dx="${LABEL_GAP}" font-size="${CARD.labelSize}" font-weight="bold" fill="#ffffff" fill-opacity="0.7" letter-spacing="1.3">${brand.label}</tspan>` +
    `</text>` +
    `<g font-family="DejaVu Sans" font-size="${CARD.textSize}" fill="#ffffff">${text}</g>` +
    `</g>` +
    `</svg>`
  );
}

/**
 * The chat message on screen drawn over the program as a lower third (issue 53 item 1): an SvgPlate,
 * like the countdown's time left. Showing or taking off a message is one write of the plate's SVG and
 * of its valve, from the JS thread: no plan, no input attached, no page to load, so it is in the
 * next frames. While no message shows, nothing is drawn and the pad costs nothing.
 */
export class ChatLowerThird {
  private readonly plate: SvgPlate;
  private verticalSize: { width: number; height: number } | undefined;
  private current: ChatOnScreenDrawn | undefined;
  /** The card's size in the profile's pixels (the picture it is drawn in). */
  readonly width: number;
  readonly height: number;

  constructor(
    gst: GstPipeline,
    private readonly profile: OutputProfile,
  ) {
    const k = profile.width / 1280;
    this.width = Math.max(2, Math.round((LOWER_THIRD_BOX.width * k) / 2) * 2);
    this.height = Math.max(2, Math.round((LOWER_THIRD_BOX.height * k) / 2) * 2);
    this.plate = new SvgPlate(gst, 'lowerthird', this.width, this.height);
  }

  /** Adds the card's pad to the program's compositor, transparent until `set` names a message. */
  attach(compositor: GstElement): void {
    this.plate.attach(compositor, this.profile, { ...this.layout() });
    this.warmUp();
  }

  /**
   * The first text rsvg draws in a process loads its fonts (fontconfig), a few hundred ms on a busy
   * machine: done once at start, on frames of the transparent pad, so the first message shown is as
   * quick as the next (the first click measured 500 ms against 260 ms for later ones without it).
   */
  private warmUp(): void {
    this.plate.draw(lowerThirdSvg({ platform: null, displayName: 'OnAir', text: 'Ready' }, this.width, this.height));
    this.plate.flow(true);
    const timer = setTimeout(() => {
      if (!this.current) this.plate.flow(false);
    }, WARM_UP_MS);
    timer.unref?.();
  }

  /** On the vertical canvas too (`size`: its picture): in the band the overlay page had there (CHAT_ON_SCREEN_VERTICAL_BOX). */
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

  /** The 1280×720 card scaled into the vertical band (720 wide on a 720×1280 canvas), as the page drew it there. */
  private placeVertical(): void {
    const pad = this.plate.verticalPad;
    if (!pad || !this.verticalSize) return;
    const kv = this.verticalSize.width / 720;
    const band = { x: CHAT_ON_SCREEN_VERTICAL_BOX.x * kv, y: CHAT_ON_SCREEN_VERTICAL_BOX.y * kv, width: CHAT_ON_SCREEN_VERTICAL_BOX.width * kv };
    const k = band.width / 1280;
    Object.assign(pad, {
      xpos: Math.round(band.x + LOWER_THIRD_BOX.x * k),
      ypos: Math.round(band.y + LOWER_THIRD_BOX.y * k),
      width: Math.round(LOWER_THIRD_BOX.width * k),
      height: Math.round(LOWER_THIRD_BOX.height * k),
      zorder: LOWER_THIRD_ZORDER,
      alpha: this.current ? 1 : 0,
    });
  }

  /** Where the card sits in the profile's pixels. */
  layout(): PadProperties {
    const k = this.profile.width / 1280;
    return {
      xpos: Math.round(LOWER_THIRD_BOX.x * k),
      ypos: Math.round(LOWER_THIRD_BOX.y * k),
      width: this.width,
      height: this.height,
      zorder: LOWER_THIRD_ZORDER,
      alpha: this.current ? 1 : 0,
    };
  }

  /**
   * Draws this message (null: none). Returns what is on air from now on when that changed, or
   * undefined when it was already so (the same showing of the same message).
   */
  set(message: ChatOnScreenDrawn | null): { onAir: ChatOnAir | null } | undefined {
    const same = message && this.current && message.messageId === this.current.messageId && message.shownAt === this.current.shownAt;
    if (same || (!message && !this.current)) return undefined;
    this.current = message ?? undefined;
    if (message) this.plate.draw(lowerThirdSvg(message, this.width, this.height));
    this.plate.flow(message !== null);
    this.plate.setAlpha(message ? 1 : 0);
    return { onAir: message ? { messageId: message.messageId, shownAt: message.shownAt } : null };
  }

  /** What the card shows now (undefined: nothing). */
  get shown(): ChatOnScreenDrawn | undefined {
    return this.current;
  }

  /** Takes the card out of both pictures for good (its branch failed). */
  hide(): void {
    this.plate.setAlpha(0);
  }
}
