/**
 * Partner spec §9: the interface language, English by default and kept in local storage. OnAir is
 * written in English only today; the choice and where it is kept are in place for more.
 */
export const uiLanguages = [{ code: 'en', label: 'English' }] as const;
export type UiLanguage = (typeof uiLanguages)[number]['code'];
export const DEFAULT_UI_LANGUAGE: UiLanguage = 'en';
export const LANGUAGE_STORAGE_KEY = 'onair.language';

export function isUiLanguage(value: string | null | undefined): value is UiLanguage {
  return uiLanguages.some((l) => l.code === value);
}
