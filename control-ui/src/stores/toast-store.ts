import { create } from 'zustand';

export type ToastKind = 'success' | 'warning' | 'info' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  title: string;
  description?: string | undefined;
}

export interface ToastState {
  toasts: Toast[];
}

export function createToastStore() {
  return create<ToastState>()(() => ({ toasts: [] }));
}
