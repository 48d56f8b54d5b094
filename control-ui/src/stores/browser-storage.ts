/** The slice of Web Storage the stores use; tests pass a Map-backed one. */
export type FlagStorage = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * localStorage when the browser lets us use it. Private modes and locked-down embeds throw on
 * access, and the studio must still start there, only without remembering flags.
 */
export function browserStorage(): FlagStorage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

export function readBooleanFlag(storage: FlagStorage | undefined, key: string, fallback: boolean): boolean {
  try {
    const value = storage?.getItem(key);
    if (value === 'true') return true;
    if (value === 'false') return false;
    return fallback;
  } catch {
    return fallback;
  }
}

export function writeBooleanFlag(storage: FlagStorage | undefined, key: string, value: boolean): void {
  try {
    storage?.setItem(key, String(value));
  } catch {
    // Quota or privacy settings: the flag then lasts only for this page, which is acceptable.
  }
}
