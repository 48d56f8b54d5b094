import type { BusError } from '../gst/pipeline.ts';
import type { InputSet } from './inputs/input-set.ts';

/** Whose fault a bus error is: what the program can survive, and what it cannot. */
export type BusFault =
  | { of: 'slate' }
  | { of: 'countdown' }
  | { of: 'lowerthird' }
  /** An input's (attached now), or one already left out (`inputId` undefined). */
  | { of: 'input'; inputId: string | undefined }
  | { of: 'program' };

/**
 * Every element is named after what it belongs to: `slate-…`, `countdown-…`, `lowerthird-…`, `inN-…` for input N.
 * A fault of one of those stays theirs; anything else is the program's.
 */
export function faultOf(error: BusError, inputs: InputSet): BusFault {
  if (error.source.some((name) => name.startsWith('slate-') || name === 'slate')) return { of: 'slate' };
  if (error.source.some((name) => name.startsWith('countdown-') || name === 'countdown')) return { of: 'countdown' };
  if (error.source.some((name) => name.startsWith('lowerthird-') || name === 'lowerthird')) return { of: 'lowerthird' };
  const input = inputs.inputOfElements(error.source);
  if (input.matched) return { of: 'input', inputId: input.inputId };
  return { of: 'program' };
}

/** Stream keys out of any text GStreamer produced, in case an element quoted its location. */
export function scrubKeys(text: string, keys: readonly string[]): string {
  let out = text;
  for (const key of keys) out = out.split(key).join('[redacted]');
  return out;
}
