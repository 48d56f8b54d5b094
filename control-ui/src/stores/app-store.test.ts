import { describe, expect, it } from 'vitest';
import { createAppStore, IS_MIRRORED_STORAGE_KEY, UserType } from './app-store.ts';
import type { FlagStorage } from './browser-storage.ts';

function memoryStorage(entries: Record<string, string> = {}): FlagStorage {
  const map = new Map(Object.entries(entries));
  return { getItem: (key) => map.get(key) ?? null, setItem: (key, value) => void map.set(key, value) };
}

describe('app store', () => {
  it('starts as spec §3 says: a guest, not live, no project, editor not ready, 1280x720', () => {
    expect(createAppStore(memoryStorage()).getState()).toEqual({
      userType: UserType.GUEST,
      guestToken: null,
      commandToken: null,
      isLive: false,
      isMirrored: false,
      project: null,
      isEditorReady: false,
      canvas: { width: 1280, height: 720 },
    });
    expect(UserType).toEqual({ HOST: 0, GUEST: 1, ADMIN: 2 });
  });

  it('restores isMirrored from browser storage under the key isMirrored', () => {
    expect(IS_MIRRORED_STORAGE_KEY).toBe('isMirrored');
    expect(createAppStore(memoryStorage({ isMirrored: 'true' })).getState().isMirrored).toBe(true);
    expect(createAppStore(memoryStorage({ isMirrored: 'nonsense' })).getState().isMirrored).toBe(false);
  });

  it('still starts when storage refuses access', () => {
    const locked: FlagStorage = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    expect(createAppStore(locked).getState().isMirrored).toBe(false);
  });
});
