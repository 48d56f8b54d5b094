import { useToastStore, type ToastKind } from '../stores/index.ts';

/** Spec §9: a toast stays for 5 s. */
export const TOAST_DURATION_MS = 5000;

let nextToastId = 1;

export interface ShowToastInput {
  kind: ToastKind;
  title: string;
  description?: string;
}

export function showToast({ kind, title, description }: ShowToastInput): number {
  const id = nextToastId++;
  useToastStore.setState((state) => ({ toasts: [...state.toasts, { id, kind, title, description }] }));
  setTimeout(() => dismissToast(id), TOAST_DURATION_MS);
  return id;
}

export function dismissToast(id: number): void {
  useToastStore.setState((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) }));
}
