import { describe, expect, it } from 'vitest';
import { createSideLayoutStore, DESTINATIONS_HEIGHT_STORAGE_KEY, DESTINATIONS_OPEN_STORAGE_KEY } from './side-layout-store.ts';

const memory = () => {
  const map = new Map<string, string>();
  return { map, storage: { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) } };
};

describe('the side column arrangement (issue 52)', () => {
  it('starts open at its natural height', () => {
    const store = createSideLayoutStore(memory().storage);
    expect(store.getState()).toEqual({ destinationsOpen: true, destinationsHeight: null });
  });

  it('keeps what the creator folded or resized for the next studio', () => {
    const { map, storage } = memory();
    const first = createSideLayoutStore(storage);
    first.setState({ destinationsOpen: false, destinationsHeight: 132 });
    expect(map.get(DESTINATIONS_OPEN_STORAGE_KEY)).toBe('false');
    expect(map.get(DESTINATIONS_HEIGHT_STORAGE_KEY)).toBe('132');
    expect(createSideLayoutStore(storage).getState()).toEqual({ destinationsOpen: false, destinationsHeight: 132 });
    first.setState({ destinationsHeight: null });
    expect(createSideLayoutStore(storage).getState().destinationsHeight).toBeNull();
  });

  it('ignores a stored height that is not a number, and bounds one out of range', () => {
    const { map, storage } = memory();
    map.set(DESTINATIONS_HEIGHT_STORAGE_KEY, 'tall');
    expect(createSideLayoutStore(storage).getState().destinationsHeight).toBeNull();
    map.set(DESTINATIONS_HEIGHT_STORAGE_KEY, '9000');
    expect(createSideLayoutStore(storage).getState().destinationsHeight).toBe(480);
  });
});
