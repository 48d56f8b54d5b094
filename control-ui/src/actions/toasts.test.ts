import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToastStore } from '../stores/index.ts';
import { TOAST_DURATION_MS, dismissToast, showToast } from './toasts.ts';

beforeEach(() => {
  vi.useFakeTimers();
  useToastStore.setState({ toasts: [] });
});
afterEach(() => vi.useRealTimers());

describe('toasts', () => {
  it('shows a toast for 5000 ms, then removes it', () => {
    const id = showToast({ kind: 'info', title: 'Guest Link Copied' });
    expect(useToastStore.getState().toasts).toEqual([{ id, kind: 'info', title: 'Guest Link Copied', description: undefined }]);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(useToastStore.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(useToastStore.getState().toasts).toEqual([]);
    expect(TOAST_DURATION_MS).toBe(5000);
  });

  it('dismisses one toast without touching the others', () => {
    const first = showToast({ kind: 'success', title: 'Subscription successful' });
    const second = showToast({ kind: 'error', title: 'Failed to copy to clipboard' });
    dismissToast(first);
    expect(useToastStore.getState().toasts.map((toast) => toast.id)).toEqual([second]);
  });
});
