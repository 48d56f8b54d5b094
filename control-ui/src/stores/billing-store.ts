import { create } from 'zustand';
import type { BillingOverview } from '@onair/protocol';

/** What the Plan & Billing page is doing now (spec §4 Subscription display: 'Renewing...', 'Cancelling...', 'Finalizing your purchase...'). */
export type BillingBusy = 'checkout' | 'portal' | 'cancelling' | 'renewing' | 'finalizing' | null;

export interface BillingState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  overview: BillingOverview | null;
  /** The Monthly/Annually toggle of the Free page. */
  interval: 'month' | 'year';
  busy: BillingBusy;
  /** The cancel confirmation ('Are you sure?') is open. */
  confirmingCancel: boolean;
}

export function initialBillingState(): BillingState {
  return { status: 'idle', overview: null, interval: 'month', busy: null, confirmingCancel: false };
}

export function createBillingStore() {
  return create<BillingState>()(() => initialBillingState());
}
