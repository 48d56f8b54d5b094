import { CHAT_ON_SCREEN_VERTICAL_BOX, type ChatOnAir, type ChatOnScreenDrawn, type OutputProfile } from '@onair/protocol';
import { makeChainBin, makeElement, setProperties } from '../gst/elements.ts';
import type { GstBin, GstElement } from '../gst/gst.ts';
import type { GstPipeline } from '../gst/pipeline.ts';
import { PictureLink } from './inputs/picture-link.ts';
import type { PadProperties } from './layout.ts';

/**
 * Where the lower third sits on the 1280×720 scene canvas: the overlay page's card (left 4vw, top
 * 71vh, 70vw × 22vh), so a message looks the same drawn here as on the page in a creator's own tool.
 */
export const LOWER_THIRD_BOX = { x: 51, y: 511, width: 896, height: 158 } as const;

/** Above every layer (plan zorders are at most 10 000) and the countdown, under the holding slate. */
export const LOWER_THIRD_ZORDER = 15_500;

/** Each platform's colour and name, and the room's (the overlay page's and the studio's platform colours). */
const BRANDS = {
  twitch: { color: '#9146FF', label: 'TWITCH' },
  youtube: { color: '#FF0000', label: 'YOUTUBE' },
  facebook: { color: '#1877F2', label: 'FACEBOOK' },
  room: { color: '#6D7CFF', label: 'STUDIO CHAT' },
} as const;

/** The platforms' marks (24×24, the studio's PlatformIcon paths) and a speech bubble for the room, drawn white on the colour. */
const GLYPHS: Record<keyof typeof BRANDS, string> = {
  twitch: 'M5 3 3.5 6.5V19h4v2h2.5l2-2h3L19.5 14V3H5Zm13 10.3L15.7 16h-3.8l-2 2v-2H6.5V4.5H18v8.8ZM15 7.5h-1.5v4.3H15V7.5Zm-4 0H9.5v4.3H11V7.5Z',
  youtube:
    'M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 0 0 2.4 7.2 26 26 0 0 0 2 12a26 26 0 0 0 .4 4.8 2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8A26 26 0 0 0 22 12a26 26 0 0 0-.4-4.8ZM10 15V9l5.2 3L10 15Z',
  facebook:
    'M22 12a10 10 0 1 0-11.6 9.9v-7H7.9V12h2.5V9.8c0-2.5 1.5-3.9 3.8-3.9 1.1 0 2.2.2 2.2.2v2.5h-1.2c-1.2 0-1.6.8-1.6 1.6V12h2.8l-.5 2.9h-2.3v7A10 10 0 0 0 22 12Z',
  room: 'M7.9 20A9 9 0 1 0 4 16.1L2 22Z',
};

/** The card's layout in canvas units (the page's sizes at 720 high: name 3.8vh, text 3.5vh with 1.25 lines, padding 2vh 3vh). */
const CARD = { badge: 158, padX: 22, nameSize: 27, labelSize: 16, textSize: 25, lineHeight: 31, gap: 6 } as const;
/** Characters that fit a line of the message and the name (DejaVu Sans, about 0.6 em a character): measured by eye on the output. */
const TEXT_LINE_CHARS = 46;
const NAME_CHARS = 34;
const TEXT_LINES = 3;

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

/** Cuts `text` to `max` characters (by code point, so no emoji is split) with an ellipsis. */
function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/**
 * The message in at most `lines` lines of `width` characters: broken between words, a word longer
 * than a line broken where it must, the last line ending in an ellipsis when the message goes on.
 */
export function wrapText(text: string, width = TEXT_LINE_CHARS, lines = TEXT_LINES): string[] {
  const out: string[] = [];
  let line = '';
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    let word = words[i]!;
    while ([...word].length > width) {
      // A long word (a link, a row of emoji): what fits of it on this line, the rest on the next.
      const room = line ? width - [...line].length - 1 : width;
      if (room < 8) {
        out.push(line);
        line = '';
        continue;
      }
      const chars = [...word];
      out.push(line ? `${line} ${chars.slice(0, room).join('')}` : chars.slice(0, room).join(''));
      line = '';
      word = chars.slice(room).join('');
    }
    const next = line ? `${line} ${word}` : word;
    if ([...next].length <= width) line = next;
    else {
      out.push(line);
      line = word;
    }
  }
  if (line) out.push(line);
  if (out.length <= lines) return out;
  const kept = out.slice(0, lines);
  kept[lines - 1] = cut(`${kept[lines - 1]!} ${out[lines]!}`, width);
  if (!kept[lines - 1]!.endsWith('…')) kept[lines - 1] = `${cut(kept[lines - 1]!, width - 1)}…`;
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
  const brand = BRANDS[key];
  const lines = wrapText(message.text);
  const blockHeight = CARD.nameSize * 1.2 + CARD.gap + lines.length * CARD.lineHeight;
  const top = Math.round((h - blockHeight) / 2);
  const x = CARD.badge + CARD.padX;
  const glyph = 79 / 24;
  const text = lines
    .map((line, i) => `<text x="${x}" y="${top + Math.round(CARD.nameSize * 1.2) + CARD.gap + i * CARD.lineHeight + CARD.textSize}">${xmlText(line)}</text>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${w} ${h}">` +
    `<defs><clipPath id="card"><rect width="${w}" height="${h}" rx="10"/></clipPath></defs>` +
    `<g clip-path="url(#card)">` +
    `<rect width="${w}" height="${h}" fill="#151821"/>` +
    `<rect width="${CARD.badge}" height="${h}" fill="${brand.color}"/>` +
    `<path fill="#ffffff" transform="translate(${(CARD.badge - 79) / 2} ${(h - 79) / 2}) scale(${glyph.toFixed(4)})" d="${GLYPHS[key]}"/>` +
    `</g>` +
    `<text x="${x}" y="${top + CARD.nameSize}" font-family="DejaVu Sans" fill="#ffffff">` +
    `<tspan font-size="${CARD.nameSize}" font-weight="bold">${xmlText(cut(message.displayName, NAME_CHARS))}</tspan>` +
    `<tspan dx="14" font-size="${CARD.labelSize}" font-weight="bold" fill="#ffffff" fill-opacity="0.7" letter-spacing="1.3">${brand.label}</tspan>` +
    `</text>` +
    `<g font-family="DejaVu Sans" font-size="${CARD.textSize}" fill="#ffffff">${text}</g>` +
    `</svg>`
  );
}

/**
 * The chat message on screen drawn over the program as a lower third (issue 53 item 1), the way
 * countdown-clock.ts draws the time left: one more compositor pad fed by a transparent picture with
 * an `rsvgoverlay` (GStreamer 1.22 here has no pango). Showing or taking off a message is one write
 * of the overlay's SVG and of a valve, from the JS thread: no plan, no input attached, no page to
 * load, so it is in the next frames. While no message shows, the valve turns the frames into gaps
 * before the overlay, so nothing is drawn and the pad costs nothing.
 */
export class ChatLowerThird {
  private link: PictureLink | undefined;
  private verticalSize: { width: number; height: number } | undefined;
  private overlay: GstElement | undefined;
  private valve: GstElement | undefined;
  private current: ChatOnScreenDrawn | undefined;
  /** The card's size in the profile's pixels (the picture it is drawn in). */
  readonly width: number;
  readonly height: number;

  constructor(
    private readonly gst: GstPipeline,
    private readonly profile: OutputProfile,
  ) {
    const k = profile.width / 1280;
    this.width = Math.max(2, Math.round((LOWER_THIRD_BOX.width * k) / 2) * 2);
    this.height = Math.max(2, Math.round((LOWER_THIRD_BOX.height * k) / 2) * 2);
  }

  /** Adds the card's pad to the program's compositor, transparent until `set` names a message. */
  attach(compositor: GstElement): void {
    const overlay = makeElement('rsvgoverlay', 'lowerthird-svg');
    // Dropped frames become gaps, so the compositor never waits for this pad (countdown-clock.ts).
    const valve = makeElement('valve', 'lowerthird-valve', { drop: true, 'drop-mode': 'transform-to-gap' });
    const bin: GstBin = makeChainBin(
      'lowerthird-video',
      [
        makeElement('videotestsrc', 'lowerthird-src', { 'is-live': true, pattern: 'solid-color', 'foreground-color': 0 }),
        makeElement('capsfilter', 'lowerthird-caps', {
          caps: `video/x-raw,format=BGRA,width=${this.width},height=${this.height},framerate=${this.profile.fps}/1`,
        }),
        valve,
        overlay,
        makeElement('queue', 'lowerthird-queue', { 'max-size-buffers': 3, 'max-size-bytes': 0, 'max-size-time': 0, leaky: 'downstream' }),
      ],
      { src: true },
    );
    const link = new PictureLink(this.gst, bin, 'lowerthird', compositor);
    this.link = link;
    this.overlay = overlay;
    this.valve = valve;
    Object.assign(link.pad, this.layout());
    link.start();
  }

  /** On the vertical canvas too (`size`: its picture): in the band the overlay page had there (CHAT_ON_SCREEN_VERTICAL_BOX). */
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

  /** The 1280×720 card scaled into the vertical band (720 wide on a 720×1280 canvas), as the page drew it there. */
  private placeVertical(): void {
    const pad = this.link?.verticalPad;
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
    if (message) {
      if (this.overlay) setProperties(this.overlay, { data: lowerThirdSvg(message, this.width, this.height) });
      if (this.valve) setProperties(this.valve, { drop: false });
    } else if (this.valve) setProperties(this.valve, { drop: true });
    for (const pad of [this.link?.pad, this.link?.verticalPad]) if (pad) Object.assign(pad, { alpha: message ? 1 : 0 });
    return { onAir: message ? { messageId: message.messageId, shownAt: message.shownAt } : null };
  }

  /** What the card shows now (undefined: nothing). */
  get shown(): ChatOnScreenDrawn | undefined {
    return this.current;
  }

  /** Takes the card out of both pictures for good (its branch failed). */
  hide(): void {
    for (const pad of [this.link?.pad, this.link?.verticalPad]) if (pad) Object.assign(pad, { alpha: 0 });
  }
}
