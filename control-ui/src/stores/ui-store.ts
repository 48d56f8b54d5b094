import { create } from 'zustand';
import { DEFAULT_UI_LANGUAGE, isUiLanguage, LANGUAGE_STORAGE_KEY, type UiLanguage } from '../model/language.ts';
import { browserStorage, type FlagStorage } from './browser-storage.ts';

export interface UiState {
  /** Partner spec §9: the interface language, read from local storage at start. */
  language: UiLanguage;
}

/** The language kept in this browser, or the default. */
export function storedLanguage(storage: FlagStorage | undefined = browserStorage()): UiLanguage {
  try {
    const value = storage?.getItem(LANGUAGE_STORAGE_KEY);
    return isUiLanguage(value) ? value : DEFAULT_UI_LANGUAGE;
  } catch {
    return DEFAULT_UI_LANGUAGE;
  }
}

export function createUiStore(storage?: FlagStorage) {
  return create<UiState>()(() => ({ language: storedLanguage(storage) }));
}
