import { CHATBOT_MESSAGE_MAX } from '@onair/protocol';

/**
 * A command's message with its variables filled in ({user}, {args}…). One pass over the template:
 * what a variable brings in (a viewer's {args}, a stream title) is inserted as text and never read
 * again, so `{args}` carrying "{title}" or "{{user}}" stays those characters — no template
 * injection, no recursion. Unknown names stay as typed. The result is cut to the chat's 480.
 */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const out = template.replace(/\{([a-zA-Z][a-zA-Z0-9]{0,15})\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
  return clip(out, CHATBOT_MESSAGE_MAX);
}

/** Cuts to `max` characters (code points), never inside a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join('');
}
