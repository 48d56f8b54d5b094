import { Download, Wallet as WalletIcon } from 'lucide-react';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { currencySchema, PAYOUT_FAILED_MESSAGE, TRANSACTIONS_PAGE_SIZES, type MoneyCurrency, type Wallet } from '@onair/protocol';
import { closePayouts, openPayouts, refreshWallet, requestPayout, showTransactions, transactionsCsvUrl } from '../../actions/money.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Select } from '../../components/Select.tsx';
import { Table } from '../../components/Table.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { usePartnerStore, usePayoutsStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';
import { toMinor } from '../tip-page/TipPage.tsx';
import { day, money, when } from './format.ts';
import m from './Money.module.css';
import { PaymentMethods, TaxInterviewForm } from './PayoutInformationSection.tsx';
import { Input } from '../../components/FormField.tsx';

const PAGE_SIZE_OPTIONS = TRANSACTIONS_PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }));

/**
 * Payouts (partner spec §2): the balance from the ledger, the tax interview, request payout with
 * the §5 rules and §8 words, and the transaction history. The owner's page only: no permission
 * group of §6 opens money to a collaborator (the api refuses them too).
 */
export function PayoutsPage() {
  useDocumentTitle('Payouts');
  const channel = usePartnerStore((s) => s.channels.find((c) => c.id === s.selectedChannelId) ?? null);
  const wallet = usePayoutsStore((s) => s.wallet);
  const error = usePayoutsStore((s) => s.walletError);
  const [historyVersion, setHistoryVersion] = useState(0);
  const channelId = channel?.owner ? channel.id : null;
  useEffect(() => {
    if (channelId) void openPayouts(channelId);
  }, [channelId]);
  useEffect(() => closePayouts, []);
  // After a payout, the tax interview or a new payment method: the wallet and the history again.
  const refresh = useCallback(() => {
    if (!channelId) return;
    void refreshWallet(channelId);
    setHistoryVersion((v) => v + 1);
  }, [channelId]);
  if (channel && !channel.owner) {
    return <EmptyState title="Payouts are the channel owner's">Only {channel.name} can see this channel's balance and payouts.</EmptyState>;
  }
  if (error) return <EmptyState title="Payouts could not be loaded">{error}</EmptyState>;
  if (!channelId || !wallet) return null;
  // A payment method's currency is any string in its contract, a payout's one of the supported
  // currencies: a method in another currency falls back to the balance's, as if it had none.
  const methodCurrency = currencySchema.safeParse(wallet.paymentMethods.find((p) => p.isDefault)?.currency);
  const currency: MoneyCurrency = (methodCurrency.success ? methodCurrency.data : undefined) ?? wallet.balances[0]?.currency ?? 'usd';
  const balance = wallet.balances.find((b) => b.currency === currency)?.available ?? 0;
  const others = wallet.balances.filter((b) => b.currency !== currency);
  const method = wallet.paymentMethods.find((p) => p.isDefault);

  return (
    <div className={m.wide}>
      <h1 className={styles.title}>Payouts</h1>
      <section className={styles.card} aria-label="Balance">
        <div className={m.figures}>
          <div className={m.figure}>
            <span className={styles.muted}>Available balance</span>
            <span className={m.figureValue} data-testid="available-balance">
              {money(balance, currency)}
            </span>
            {others.map((b) => (
              <span key={b.currency} className={styles.hint}>
                and {money(b.available, b.currency)}
              </span>
            ))}
          </div>
          <div className={m.figure}>
            <span className={styles.muted}>Minimum payout</span>
            <span className={m.figureValue}>{money(wallet.minimumPayout, currency)}</span>
          </div>
          <div className={m.figure}>
            <span className={styles.muted}>Fees</span>
            <span className={m.figureValue}>{money(wallet.fee, currency)}</span>
          </div>
          <div className={m.figure}>
            <span className={styles.muted}>Arrives in</span>
            <span className={m.figureValue}>{method ? `${method.businessDays.from}–${method.businessDays.to} business days` : '—'}</span>
          </div>
        </div>
        <RequestPayout channelId={channelId} wallet={wallet} balance={balance} currency={currency} onDone={refresh} />
      </section>
      {!wallet.taxInterviewCompleted && (
        <section className={styles.card}>
          <TaxInterviewForm channelId={channelId} onDone={refresh} />
        </section>
      )}
      {!wallet.hasPaymentMethod && (
        <section className={styles.card}>
          <PaymentMethods channelId={channelId} onChange={refresh} />
        </section>
      )}
      <TransactionHistory channelId={channelId} version={historyVersion} />
    </div>
  );
}

function RequestPayout({
  channelId,
  wallet,
  balance,
  currency,
  onDone,
}: {
  channelId: string;
  wallet: Wallet;
  balance: number;
  currency: MoneyCurrency;
  onDone: () => void;
}) {
  const [amount, setAmount] = useState('');
  const [message, setMessage] = useState<{ kind: 'error' | 'done'; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    const minor = toMinor(amount);
    const result = await requestPayout(channelId, { amount: Number.isNaN(minor) ? 0 : minor, currency });
    setPending(false);
    if (result.ok) {
      setMessage({
        kind: 'done',
        text: `Payout of ${money(result.value.amount, result.value.currency)} requested. Expected between ${day(result.value.estimatedFrom)} and ${day(result.value.estimatedTo)}.`,
      });
      setAmount('');
      onDone();
    } else {
      setMessage({ kind: 'error', text: result.fieldErrors.amount ?? (result.message || PAYOUT_FAILED_MESSAGE) });
    }
  };
  return (
    <form className={m.payoutForm} onSubmit={(e) => void submit(e)} noValidate aria-label="Request payout">
      <div className={`${styles.field} ${m.field}`}>
        <label className={styles.label} htmlFor="payout-amount">
          Payout amount ({currency.toUpperCase()})
        </label>
        <Input
          id="payout-amount"
          className={styles.input}
          inputMode="decimal"
          value={amount}
          placeholder={(balance / 100).toFixed(2)}
          onChange={(e) => setAmount(e.target.value)}
        />
      </div>
      <Button type="submit" variant="primary" disabled={pending}>
        Request payout
      </Button>
      <div className={m.notes}>
        {wallet.payoutBlockedReason && !message && <span className={styles.hint}>{wallet.payoutBlockedReason}</span>}
        {message && (
          <span className={message.kind === 'error' ? styles.formError : styles.hint} role={message.kind === 'error' ? 'alert' : 'status'}>
            {message.kind === 'error' && message.text !== PAYOUT_FAILED_MESSAGE ? `${PAYOUT_FAILED_MESSAGE}: ${message.text}` : message.text}
          </span>
        )}
        <span className={styles.hint}>
          Bank details and tax interview: <Link to="/partner/settings/payout-information">Settings › Payout information</Link>
        </span>
      </div>
    </form>
  );
}

function TransactionHistory({ channelId, version }: { channelId: string; version: number }) {
  const [tab, setTab] = useState<'credit' | 'payouts'>('credit');
  const [campaign, setCampaign] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(10);
  const data = usePayoutsStore((s) => s.transactions);
  const error = usePayoutsStore((s) => s.transactionsError);
  useEffect(() => {
    void showTransactions(channelId, { tab, campaign: tab === 'credit' ? campaign : '', page, pageSize });
  }, [channelId, tab, campaign, page, pageSize, version]);
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const tabButton = (id: 'credit' | 'payouts', label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={tab === id}
      className={`${m.tab} ${tab === id ? m.tabActive : ''}`}
      onClick={() => {
        setTab(id);
        setPage(1);
      }}
    >
      {label}
    </button>
  );
  return (
    <section className={styles.card} aria-label="Transaction history">
      <h2 className={styles.cardTitle}>Transaction history</h2>
      <div className={m.toolbar}>
        <div role="tablist" aria-label="Transactions" className={m.inline}>
          {tabButton('credit', 'Credit')}
          {tabButton('payouts', 'Payouts')}
        </div>
        {tab === 'credit' && (
          <form
            className={m.search}
            role="search"
            onSubmit={(e) => {
              e.preventDefault();
              setCampaign(search.trim());
              setPage(1);
            }}
          >
            <Input
              className={styles.input}
              aria-label="Search by campaign name"
              placeholder="Search by campaign name"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </form>
        )}
        <a className={styles.navLink} href={transactionsCsvUrl(channelId, tab, tab === 'credit' ? campaign : '')} download>
          <Download size={16} aria-hidden /> Download CSV
        </a>
      </div>
      {error && <p role="alert">{error}</p>}
      {data && data.total === 0 && (
        <EmptyState icon={<WalletIcon size={32} />} title={tab === 'credit' ? (campaign ? 'Nothing matches that search' : 'No credits yet') : 'No payouts yet'}>
          {tab === 'credit' ? 'Tips and campaign earnings appear here once paid.' : 'Payouts you request appear here with their status.'}
        </EmptyState>
      )}
      {data && data.total > 0 && tab === 'credit' && (
        <Table
          aria-label="Credits"
          rows={data.credits}
          rowKey={(c) => c.id}
          columns={[
            { key: 'date', header: 'Date', cell: (c) => when(c.date) },
            { key: 'description', header: 'Description', cell: (c) => c.description },
            { key: 'campaign', header: 'Campaign', cell: (c) => c.campaignName ?? '—' },
            { key: 'status', header: 'Status', cell: (c) => c.status, className: m.status },
            {
              key: 'amount',
              header: 'Amount',
              align: 'end',
              cell: (c) => money(c.amount, c.currency),
              className: (c) => (c.amount < 0 ? `${m.amount} ${m.negative}` : m.amount),
            },
          ]}
        />
      )}
      {data && data.total > 0 && tab === 'payouts' && (
        <Table
          aria-label="Payouts"
          rows={data.payouts}
          rowKey={(p) => p.id}
          columns={[
            { key: 'date', header: 'Date', cell: (p) => when(p.date) },
            { key: 'method', header: 'Method', cell: (p) => p.method },
            { key: 'status', header: 'Status', cell: (p) => p.status, className: m.status, title: (p) => p.failureReason ?? undefined },
            {
              key: 'expected',
              header: 'Expected',
              cell: (p) => (p.status === 'completed' && p.completedAt ? `Arrived ${day(p.completedAt)}` : `${day(p.estimatedFrom)} – ${day(p.estimatedTo)}`),
            },
            { key: 'fee', header: 'Fee', align: 'end', cell: (p) => money(p.fee, p.currency), className: m.amount },
            { key: 'amount', header: 'Amount', align: 'end', cell: (p) => money(p.amount, p.currency), className: m.amount },
          ]}
        />
      )}
      {data && data.total > 0 && (
        <div className={m.pager}>
          <span className={styles.hint} aria-hidden>
            Rows
          </span>
          <span className={m.pageSize}>
            <Select
              aria-label="Rows per page"
              value={String(pageSize)}
              options={PAGE_SIZE_OPTIONS}
              onValueChange={(value) => {
                setPageSize(Number(value));
                setPage(1);
              }}
            />
          </span>
          <span className={styles.hint}>
            Page {data.page} of {pages}
          </span>
          <Button disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <Button disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </div>
      )}
    </section>
  );
}
