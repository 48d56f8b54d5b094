import { describe, expect, it } from 'vitest';
import { canConfirmDelete, canSaveDisplayName } from './account.ts';

describe('account page rules (spec §5)', () => {
  it('enables delete only for the word delete in any case', () => {
    for (const typed of ['delete', 'DELETE', 'DeLeTe']) expect(canConfirmDelete(typed), typed).toBe(true);
    for (const typed of ['', 'delet', 'delete ', ' delete', 'deleted', 'remove']) expect(canConfirmDelete(typed), typed).toBe(false);
  });

  it('disables saving the name while pending, when empty and when unchanged', () => {
    expect(canSaveDisplayName('Ada', 'Bob', false)).toBe(true);
    expect(canSaveDisplayName('Ada', 'Bob', true)).toBe(false);
    expect(canSaveDisplayName('   ', 'Bob', false)).toBe(false);
    expect(canSaveDisplayName(' Bob ', 'Bob', false)).toBe(false);
  });
});
