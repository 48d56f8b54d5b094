import { describe, expect, it } from 'vitest';
import { findUnsafeText, unsafeTextMessage, unsafeTextReason } from './text.ts';

describe('the text rule', () => {
  it('refuses NUL and unpaired surrogates, and nothing else', () => {
    expect(unsafeTextReason('a\u0000b')).toBe('nul');
    expect(unsafeTextReason('\ud800')).toBe('lone-surrogate');
    expect(unsafeTextReason('x\udfff')).toBe('lone-surrogate');
    expect(unsafeTextReason('\udfff\ud800')).toBe('lone-surrogate');
    for (const ok of ['', 'Plain', '💥 emoji pairs', 'ünïcödé', '\u202e', 'tab\tnew\nline']) expect(unsafeTextReason(ok), ok).toBeNull();
  });

  it('finds the first unsafe string anywhere in a JSON value, keys included, and names its path', () => {
    expect(findUnsafeText({ a: [1, { b: 'ok' }, { c: 'x\u0000' }] })).toEqual({ path: ['a', '2', 'c'], reason: 'nul' });
    expect(findUnsafeText({ ['k\ud800']: 1 })).toEqual({ path: ['k\ud800'], reason: 'lone-surrogate' });
    expect(findUnsafeText({ fine: ['yes', 2, null, true] })).toBeNull();
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(findUnsafeText(deep)?.reason).toBe('too-deep');
    expect(unsafeTextMessage('body', { path: ['name'], reason: 'nul' })).toBe(
      'The request body.name contains a NUL character, which cannot be stored. Remove it and try again.',
    );
  });
});
