import { describe, expect, it } from 'vitest';
import { setLanguage } from './app.ts';
import { storedLanguage, useUiStore } from '../stores/index.ts';
import { DEFAULT_UI_LANGUAGE, LANGUAGE_STORAGE_KEY } from '../model/language.ts';

const memory = () => {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
};

describe('the interface language (partner spec §9)', () => {
  it('is English by default, and what this browser kept when it is one OnAir speaks', () => {
    const storage = memory();
    expect(storedLanguage(storage)).toBe(DEFAULT_UI_LANGUAGE);
    storage.setItem(LANGUAGE_STORAGE_KEY, 'xx');
    expect(storedLanguage(storage)).toBe('en');
    storage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    expect(storedLanguage(storage)).toBe('en');
  });

  it('is kept in local storage when chosen', () => {
    const storage = memory();
    setLanguage('en', storage);
    expect(storage.map.get(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(useUiStore.getState().language).toBe('en');
  });
});
