import type { Balance, LedgerKind, MoneyCurrency } from '@onair/protocol';
import { currencySchema } from '@onair/protocol';
import type { Db, Prisma } from '@onair/db';

export type Tx = Prisma.TransactionClient;

export interface LedgerWrite {
  channelId: string;
  kind: LedgerKind;
  /** Signed minor units: credits positive, debits negative. */
  amount: number;
  currency: string;
  description: string;
  campaignName?: string | null;
  tipId?: string;
  payoutId?: string;
  /** The provider event behind it: a second delivery of the same event cannot write again. */
  providerEventId?: string;
}

/**
 * The one append-only ledger of a channel's money (issue 24): every credit and debit is a row,
 * nothing is ever updated or deleted (a database trigger refuses it), and every balance is a sum
 * of rows. Writes are idempotent by their cause: the provider event id is unique, and so is a
 * (kind, tip) or (kind, payout) pair, so the same tip can be credited, refunded or disputed once.
 */
export class Ledger {
  constructor(private readonly db: Db) {}

  /**
   * Serialises money movements of one channel inside a transaction (a payout's balance check and
   * its debit): a transaction-scoped advisory lock on the channel id, released at commit.
   */
  async lockChannel(tx: Tx, channelId: string): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`ledger:${channelId}`}, 0))`;
  }

  /** Appends an entry; false when its cause was already written (a replayed event). */
  async append(tx: Tx, entry: LedgerWrite): Promise<boolean> {
    const rows = await tx.ledgerEntry.createMany({
      data: [
        {
          channelId: entry.channelId,
          kind: entry.kind,
          amount: entry.amount,
          currency: entry.currency,
          description: entry.description,
          campaignName: entry.campaignName ?? null,
          tipId: entry.tipId ?? null,
          payoutId: entry.payoutId ?? null,
          providerEventId: entry.providerEventId ?? null,
        },
      ],
      skipDuplicates: true,
    });
    return rows.count === 1;
  }

  async balances(channelId: string, tx: Tx | Db = this.db): Promise<Balance[]> {
    const sums = await tx.ledgerEntry.groupBy({ by: ['currency'], where: { channelId }, _sum: { amount: true }, orderBy: { currency: 'asc' } });
    return sums.flatMap((s) => {
      const currency = currencySchema.safeParse(s.currency);
      return currency.success ? [{ currency: currency.data, available: s._sum.amount ?? 0 }] : [];
    });
  }

  async available(channelId: string, currency: MoneyCurrency, tx: Tx | Db = this.db): Promise<number> {
    const sum = await tx.ledgerEntry.aggregate({ where: { channelId, currency }, _sum: { amount: true } });
    return sum._sum.amount ?? 0;
  }
}
