import { stringify } from 'csv-stringify/sync';
import { ledgerKinds, type CreditTransaction, type LedgerKind, type TransactionsPage } from '@onair/protocol';
import type { Db, Prisma } from '@onair/db';
import { escapeCsvCell } from '../partner/data-exports/archive-builder.ts';
import { payoutView } from './payouts-service.ts';

/** What the Credit tab lists: every ledger entry but the payouts' own (those are the Payouts tab). */
const CREDIT_KINDS: LedgerKind[] = ledgerKinds.filter((k) => k !== 'payout' && k !== 'payout_returned');

const KIND_WORDS: Record<LedgerKind, string> = {
  tip: 'Tip',
  tip_refund: 'Tip refund',
  tip_dispute: 'Chargeback',
  tip_dispute_won: 'Chargeback won',
  charity: 'Charity',
  payout: 'Payout',
  payout_returned: 'Payout returned',
  campaign_revenue: 'Revenue share',
};

/** Minor units as a number of major units (1234 → 12.34): spreadsheets sum them. */
const major = (minor: number) => Math.round(minor) / 100;

/**
 * The transaction history (partner spec §2 Payouts): the Credit tab reads the ledger, the Payouts
 * tab the payouts; the search matches the campaign name (and, for credits without a campaign, the
 * description, so a tipper's name finds their tips). CSV downloads carry amounts as numbers and
 * escape every text cell against formula injection.
 */
export class TransactionsService {
  constructor(private readonly db: Db) {}

  private creditWhere(channelId: string, campaign: string): Prisma.LedgerEntryWhereInput {
    return {
      channelId,
      kind: { in: CREDIT_KINDS },
      ...(campaign
        ? { OR: [{ campaignName: { contains: campaign, mode: 'insensitive' } }, { description: { contains: campaign, mode: 'insensitive' } }] }
        : {}),
    };
  }

  async page(channelId: string, query: { tab: 'credit' | 'payouts'; campaign: string; page: number; pageSize: number }): Promise<TransactionsPage> {
    const skip = (query.page - 1) * query.pageSize;
    if (query.tab === 'credit') {
      const where = this.creditWhere(channelId, query.campaign);
      const [total, rows] = await Promise.all([
        this.db.ledgerEntry.count({ where }),
        this.db.ledgerEntry.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take: query.pageSize }),
      ]);
      return { tab: 'credit', total, page: query.page, pageSize: query.pageSize, credits: rows.map(creditView), payouts: [] };
    }
    const where: Prisma.PayoutWhereInput = { channelId, ...(query.campaign ? { methodLabel: { contains: query.campaign, mode: 'insensitive' } } : {}) };
    const [total, rows] = await Promise.all([
      this.db.payout.count({ where }),
      this.db.payout.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take: query.pageSize }),
    ]);
    return { tab: 'payouts', total, page: query.page, pageSize: query.pageSize, credits: [], payouts: rows.map(payoutView) };
  }

  async csv(channelId: string, query: { tab: 'credit' | 'payouts'; campaign: string }): Promise<{ filename: string; body: string }> {
    const text = (v: string | null) => escapeCsvCell(v ?? '');
    if (query.tab === 'credit') {
      const rows = await this.db.ledgerEntry.findMany({ where: this.creditWhere(channelId, query.campaign), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      const body = stringify(
        rows.map((r) => [
          r.createdAt.toISOString(),
          text(KIND_WORDS[r.kind as LedgerKind] ?? r.kind),
          text(r.description),
          text(r.campaignName),
          major(r.amount),
          r.currency.toUpperCase(),
          'completed',
        ]),
        { header: true, columns: ['Date', 'Type', 'Description', 'Campaign', 'Amount', 'Currency', 'Status'], cast: { number: (n) => String(n) } },
      );
      return { filename: 'onair-credit.csv', body };
    }
    const rows = await this.db.payout.findMany({ where: { channelId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    const body = stringify(
      rows.map((r) => {
        const v = payoutView(r);
        return [
          v.date,
          major(v.amount),
          major(v.fee),
          v.currency.toUpperCase(),
          text(v.method),
          v.status,
          `${v.estimatedFrom} – ${v.estimatedTo}`,
          v.completedAt ?? '',
        ];
      }),
      {
        header: true,
        columns: ['Date', 'Amount', 'Fee', 'Currency', 'Method', 'Status', 'Estimated arrival', 'Completed'],
        cast: { number: (n) => String(n) },
      },
    );
    return { filename: 'onair-payouts.csv', body };
  }
}

export function creditView(row: {
  id: string;
  kind: string;
  amount: number;
  currency: string;
  description: string;
  campaignName: string | null;
  createdAt: Date;
}): CreditTransaction {
  return {
    id: row.id,
    kind: (ledgerKinds as readonly string[]).includes(row.kind) ? (row.kind as LedgerKind) : 'tip',
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    campaignName: row.campaignName,
    status: 'completed',
    date: row.createdAt.toISOString(),
  };
}
