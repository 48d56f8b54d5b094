import { create } from 'zustand';
import type { TaxInterviewView, TransactionsPage, Wallet } from '@onair/protocol';

/**
 * The Payouts page of the owner's channel (its wallet and transaction history) and the tax
 * interview, which Payouts and Settings › Payout information both show. Each is null until read;
 * an error is the api's words for the read that did not work.
 */
export interface PayoutsState {
  channelId: string | null;
  wallet: Wallet | null;
  walletError: string | null;
  transactions: TransactionsPage | null;
  transactionsError: string | null;
  taxInterview: TaxInterviewView | null;
  taxInterviewError: string | null;
}

export const initialPayoutsState = (): PayoutsState => ({
  channelId: null,
  wallet: null,
  walletError: null,
  transactions: null,
  transactionsError: null,
  taxInterview: null,
  taxInterviewError: null,
});

export function createPayoutsStore() {
  return create<PayoutsState>()(() => initialPayoutsState());
}
