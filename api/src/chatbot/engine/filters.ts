import { RE2 } from 're2-wasm';
import type { ChatSegment, ChatbotFilterName, ChatbotFilters } from '@onair/protocol';

/** A message as the filters see it: its text, and Twitch's parse of it (emotes, links). */
export interface FilterInput {
  text: string;
  segments: readonly ChatSegment[];
}

export interface FilterHit {
  filter: ChatbotFilterName;
  /** The notice the chat is told (when the punishment has one), without the @user. */
  notice: string;
}

const NOTICES: Record<ChatbotFilterName, string> = {
  duplicates: 'please do not repeat the same message.',
  emotes: 'please use fewer emotes.',
  links: 'links are not allowed here without permission.',
  symbols: 'please use fewer symbols.',
  caps: 'please do not shout (too many capital letters).',
  bannedWords: 'that word is not allowed here.',
};

/**
 * Banned words as RE2 patterns: RE2 runs in time linear in the message, so a pattern such as
 * `(a+)+$` cannot backtrack catastrophically; what RE2 cannot run (backreferences, lookaround) is
 * refused when saved, in words.
 */
export function compileBannedWords(patterns: readonly string[]): RE2[] {
  return patterns.map((p) => new RE2(p, 'iu'));
}

/** Why a pattern is refused, or null when RE2 takes it. */
export function bannedWordError(pattern: string): string | null {
  try {
    new RE2(pattern, 'iu');
    return null;
  } catch (err) {
    return `"${pattern.slice(0, 40)}" is not a pattern the filter can run: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
}

/** Domains of the links whitelist, one per line (a leading *. or scheme is ignored). */
export function parseWhitelist(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) =>
      l
        .trim()
        .toLowerCase()
        .replace(/^[a-z]+:\/\//, '')
        .replace(/^\*\./, '')
        .replace(/\/.*$/, ''),
    )
    .filter((l) => l !== '');
}

function hostAllowed(host: string, whitelist: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return whitelist.some((d) => h === d || h.endsWith(`.${d}`));
}

/** The letters a viewer typed: text and links, emotes left out (an emote named KEKW is not shouting). */
function typedText(input: FilterInput): string {
  return input.segments.length === 0
    ? input.text
    : input.segments
        .filter((s) => s.kind !== 'emoticon')
        .map((s) => s.value)
        .join('');
}

/**
 * The filters in the order the anchors apply them; the first that matches decides. `permitted`
 * says whether the sender holds a !permit for links; `recent` whether this sender said the same
 * text within the duplicates window.
 */
export function runFilters(
  filters: ChatbotFilters,
  compiled: readonly RE2[],
  whitelist: readonly string[],
  input: FilterInput,
  ctx: { permitted: boolean; repeated: boolean },
): FilterHit | null {
  const hit = (filter: ChatbotFilterName): FilterHit => ({ filter, notice: NOTICES[filter] });
  if (filters.bannedWords.enabled && compiled.length > 0) {
    for (const re of compiled) if (re.test(input.text)) return hit('bannedWords');
  }
  if (filters.links.enabled && !ctx.permitted) {
    for (const s of input.segments) {
      if (s.kind !== 'link') continue;
      let host: string;
      try {
        host = new URL(s.href).hostname;
      } catch {
        return hit('links');
      }
      if (!hostAllowed(host, whitelist)) return hit('links');
    }
  }
  if (filters.emotes.enabled) {
    const count = input.segments.filter((s) => s.kind === 'emoticon').length;
    if (count > filters.emotes.maxCount) return hit('emotes');
  }
  const typed = typedText(input);
  const visible = Array.from(typed.replace(/\s+/g, ''));
  if (filters.caps.enabled && visible.length >= filters.caps.minLength) {
    const letters = visible.filter((c) => /\p{L}/u.test(c));
    const upper = letters.filter((c) => /\p{Lu}/u.test(c)).length;
    if (letters.length > 0 && (upper * 100) / letters.length >= filters.caps.minPercent) return hit('caps');
  }
  if (filters.symbols.enabled && visible.length >= filters.symbols.minLength) {
    const symbols = visible.filter((c) => !/[\p{L}\p{N}]/u.test(c)).length;
    if ((symbols * 100) / visible.length >= filters.symbols.minPercent) return hit('symbols');
  }
  if (filters.duplicates.enabled && ctx.repeated) return hit('duplicates');
  return null;
}
