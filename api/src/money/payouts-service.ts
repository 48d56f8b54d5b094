import type Stripe from 'stripe';
import {
  addBusinessDays,
  availableBalanceMessage,
  currencySchema,
  formatMoney,
  OnAirError,
  PAYOUT_BUSINESS_DAYS,
  PAYOUT_FEE,
  PAYOUT_MINIMUM,
  type MoneyCurrency,
  type PaymentMethodInput,
  type PaymentMethodView,
  type PayoutView,
  type TaxInterviewInput,
  type TaxInterviewView,
  type TransactionStatus,
  type Wallet,
} from '@onair/protocol';
import type { Db, PaymentMethod, Payout } from '@onair/db';
import type { Logger, SecretBox } from '@onair/runtime';
import type { Ledger, Tx } from './ledger.ts';
import { providerCall } from './stripe-client.ts';

/** Payout statuses (§4) and the moves between them, written once; completed and canceled are final. */
const PAYOUT_TRANSITIONS: Record<TransactionStatus, readonly TransactionStatus[]> = {
  new: ['processing', 'delayed', 'completed', 'canceled'],
  processing: ['delayed', 'completed', 'canceled'],
  delayed: ['processing', 'completed', 'canceled'],
  completed: [],
  canceled: [],
};

const region = (r: string) => (r === 'usa' ? 'usa' : 'international') as 'usa' | 'international';
const isoDate = (d: Date) => d.toISOString().slice(0, 10);

export function paymentMethodView(row: PaymentMethod): PaymentMethodView {
  return {
    id: row.id,
    region: region(row.region),
    name: row.name,
    email: row.email,
    addressLine1: row.addressLine1,
    addressLine2: row.addressLine2,
    accountHolder: row.accountHolder,
    accountLast4: row.accountLast4,
    bankName: row.bankName,
    routingCode: row.routingCode,
    bankAddress: row.bankAddress,
    country: row.country,
    currency: row.currency,
    swift: row.swift,
    isDefault: row.isDefault,
    businessDays: PAYOUT_BUSINESS_DAYS[region(row.region)],
  };
}

export function payoutView(row: Payout): PayoutView {
  return {
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    fee: row.fee,
    status: row.status as TransactionStatus,
    method: row.methodLabel,
    estimatedFrom: isoDate(row.estimatedFrom),
    estimatedTo: isoDate(row.estimatedTo),
    failureReason: row.failureReason,
    date: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/**
 * Payouts (partner spec §2 Payouts, §3 Payment method details, §4, §5, §8, §9): payment methods
 * with sealed account numbers, the tax interview, and payout requests. A request is checked and
 * debited in one transaction under the channel's ledger lock, so two requests at once can never
 * take more than the balance; then the money goes through Stripe Connect (a transfer to the
 * channel's connected account and a payout from it to the bank), whose webhooks move the payout
 * on. A payout that fails or is canceled gives its debit back, once.
 */
export class PayoutsService {
  constructor(private readonly deps: { db: Db; logger: Logger; ledger: Ledger; stripe: Stripe | undefined; box: SecretBox | undefined; now?: () => Date }) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private requireBox(): SecretBox {
    if (!this.deps.box) throw new OnAirError('MONEY_UNAVAILABLE', 'Payment details cannot be stored on this server: it has no SECRETS_KEY.');
    return this.deps.box;
  }

  async paymentMethods(channelId: string): Promise<PaymentMethodView[]> {
    const rows = await this.deps.db.paymentMethod.findMany({ where: { channelId }, orderBy: [{ isDefault: 'desc' }, { createdAt: 'asc' }] });
    return rows.map(paymentMethodView);
  }

  async addPaymentMethod(channelId: string, input: PaymentMethodInput): Promise<PaymentMethodView> {
    const box = this.requireBox();
    const account = input.region === 'usa' ? input.accountNumber : input.iban;
    const row = await this.deps.db.$transaction(async (tx) => {
      const count = await tx.paymentMethod.count({ where: { channelId } });
      const isDefault = input.isDefault || count === 0;
      if (isDefault) await tx.paymentMethod.updateMany({ where: { channelId, isDefault: true }, data: { isDefault: false } });
      return tx.paymentMethod.create({
        data: {
          channelId,
          region: input.region,
          name: input.name,
          email: input.email,
          addressLine1: input.addressLine1,
          addressLine2: input.addressLine2,
          accountHolder: input.accountHolder,
          accountSealed: box.seal(account, `payment-method:${channelId}`),
          accountLast4: account.slice(-4),
          bankName: input.bankName,
          routingCode: input.region === 'usa' ? input.routingCode : '',
          bankAddress: input.bankAddress,
          country: input.country,
          currency: input.currency,
          swift: input.region === 'international' ? input.swift : '',
          isDefault,
        },
      });
    });
    this.deps.logger.info({ audit: 'payment-method-added', channelId, region: input.region }, 'payment method added');
    return paymentMethodView(row);
  }

  async setDefault(channelId: string, methodId: string): Promise<PaymentMethodView[]> {
    await this.deps.db.$transaction(async (tx) => {
      const method = await tx.paymentMethod.findFirst({ where: { id: methodId, channelId } });
      if (!method) throw new OnAirError('NOT_FOUND', 'That payment method does not exist.');
      await tx.paymentMethod.updateMany({ where: { channelId, isDefault: true }, data: { isDefault: false } });
      await tx.paymentMethod.update({ where: { id: methodId }, data: { isDefault: true } });
    });
    return this.paymentMethods(channelId);
  }

  async removePaymentMethod(channelId: string, methodId: string): Promise<PaymentMethodView[]> {
    const method = await this.deps.db.paymentMethod.findFirst({ where: { id: methodId, channelId } });
    if (!method) throw new OnAirError('NOT_FOUND', 'That payment method does not exist.');
    const inFlight = await this.deps.db.payout.count({ where: { paymentMethodId: methodId, status: { in: ['new', 'processing', 'delayed'] } } });
    if (inFlight > 0) throw new OnAirError('CONFLICT', 'A payout to this payment method is on its way. Remove it once the payout has arrived.');
    await this.deps.db.paymentMethod.delete({ where: { id: methodId } });
    const rest = await this.deps.db.paymentMethod.findMany({ where: { channelId }, orderBy: { createdAt: 'asc' } });
    if (method.isDefault && rest[0]) await this.deps.db.paymentMethod.update({ where: { id: rest[0].id }, data: { isDefault: true } });
    return this.paymentMethods(channelId);
  }

  async taxInterview(channelId: string): Promise<TaxInterviewView> {
    const row = await this.deps.db.taxInterview.findUnique({ where: { channelId } });
    return {
      completed: row !== null,
      legalName: row?.legalName ?? null,
      entityType: row?.entityType ?? null,
      taxCountry: row?.taxCountry ?? null,
      taxIdLast4: row?.taxIdLast4 ?? null,
      completedAt: row?.completedAt.toISOString() ?? null,
    };
  }

  async submitTaxInterview(channelId: string, input: TaxInterviewInput): Promise<TaxInterviewView> {
    const box = this.requireBox();
    const data = {
      legalName: input.legalName,
      entityType: input.entityType,
      taxCountry: input.taxCountry,
      taxIdSealed: box.seal(input.taxId, `tax-id:${channelId}`),
      taxIdLast4: input.taxId.slice(-4),
      completedAt: this.now(),
    };
    await this.deps.db.taxInterview.upsert({ where: { channelId }, create: { channelId, ...data }, update: data });
    this.deps.logger.info({ audit: 'tax-interview-completed', channelId }, 'tax interview completed');
    return this.taxInterview(channelId);
  }

  async wallet(channelId: string): Promise<Wallet> {
    const [balances, tax, methods] = await Promise.all([
      this.deps.ledger.balances(channelId),
      this.deps.db.taxInterview.count({ where: { channelId } }),
      this.paymentMethods(channelId),
    ]);
    const withDefault = methods.find((m) => m.isDefault) ?? methods[0];
    const currency = withDefault ? currencySchema.catch('usd').parse(withDefault.currency) : (balances[0]?.currency ?? 'usd');
    const available = balances.find((b) => b.currency === currency)?.available ?? 0;
    let blocked: string | null = null;
    if (tax === 0) blocked = 'Complete the tax interview before requesting a payout.';
    else if (!withDefault) blocked = 'Add a payment method before requesting a payout.';
    else if (available < PAYOUT_MINIMUM)
      blocked = `Your balance must reach ${formatMoney(PAYOUT_MINIMUM, currency)} before you can request a payout. ${availableBalanceMessage(Math.max(0, available), currency)}.`;
    return {
      balances,
      minimumPayout: PAYOUT_MINIMUM,
      fee: PAYOUT_FEE,
      taxInterviewCompleted: tax > 0,
      hasPaymentMethod: methods.length > 0,
      paymentMethods: methods,
      payoutBlockedReason: blocked,
    };
  }

  /** Request payout (§5): the rules and the debit in one locked transaction, then Stripe Connect. */
  async requestPayout(channelId: string, body: { amount: number; currency: MoneyCurrency; paymentMethodId?: string | undefined }): Promise<PayoutView> {
    const stripe = this.deps.stripe;
    if (!stripe) throw new OnAirError('MONEY_UNAVAILABLE', 'Payouts are not set up on this server.');
    const tax = await this.deps.db.taxInterview.count({ where: { channelId } });
    if (tax === 0) throw new OnAirError('TAX_INTERVIEW_REQUIRED');
    const method = await this.deps.db.paymentMethod.findFirst({
      where: body.paymentMethodId ? { id: body.paymentMethodId, channelId } : { channelId, isDefault: true },
    });
    if (!method)
      throw new OnAirError(
        'PAYOUT_REFUSED',
        body.paymentMethodId ? 'That payment method does not exist.' : 'Add a payment method before requesting a payout.',
        { field: 'paymentMethodId' },
      );
    if (method.currency !== body.currency)
      throw new OnAirError(
        'PAYOUT_REFUSED',
        `This payment method is paid in ${method.currency.toUpperCase()}. Choose a method for ${body.currency.toUpperCase()}.`,
        { field: 'currency' },
      );
    const days = PAYOUT_BUSINESS_DAYS[region(method.region)];
    const today = this.now();
    const payout = await this.deps.db.$transaction(async (tx) => {
      await this.deps.ledger.lockChannel(tx, channelId);
      const available = await this.deps.ledger.available(channelId, body.currency, tx);
      if (available < PAYOUT_MINIMUM) {
        throw new OnAirError(
          'PAYOUT_REFUSED',
          `Your balance must reach ${formatMoney(PAYOUT_MINIMUM, body.currency)} before you can request a payout. ${availableBalanceMessage(Math.max(0, available), body.currency)}.`,
          { field: 'amount', available },
        );
      }
      if (body.amount > available) throw new OnAirError('PAYOUT_REFUSED', availableBalanceMessage(available, body.currency), { field: 'amount', available });
      if (body.amount < PAYOUT_MINIMUM)
        throw new OnAirError('PAYOUT_REFUSED', `The minimum payout is ${formatMoney(PAYOUT_MINIMUM, body.currency)}.`, { field: 'amount' });
      const row = await tx.payout.create({
        data: {
          channelId,
          amount: body.amount,
          currency: body.currency,
          paymentMethodId: method.id,
          methodLabel: `${method.bankName} ····${method.accountLast4}`,
          fee: PAYOUT_FEE,
          estimatedFrom: addBusinessDays(today, days.from),
          estimatedTo: addBusinessDays(today, days.to),
        },
      });
      await this.deps.ledger.append(tx, {
        channelId,
        kind: 'payout',
        amount: -body.amount,
        currency: body.currency,
        description: `Payout to ${row.methodLabel}`,
        payoutId: row.id,
      });
      return row;
    });
    this.deps.logger.info({ audit: 'payout-requested', channelId, payoutId: payout.id, amount: payout.amount, currency: payout.currency }, 'payout requested');
    try {
      const account = await this.connectedAccount(stripe, channelId, method);
      const metadata = { kind: 'payout', payoutId: payout.id, channelId };
      const transfer = await stripe.transfers.create(
        { amount: payout.amount, currency: payout.currency, destination: account, metadata, transfer_group: payout.id },
        { idempotencyKey: `onair-payout-${payout.id}-transfer` },
      );
      const sent = await stripe.payouts.create(
        { amount: payout.amount, currency: payout.currency, metadata },
        { stripeAccount: account, idempotencyKey: `onair-payout-${payout.id}` },
      );
      const updated = await this.deps.db.$transaction(async (tx) => {
        const row = await tx.payout.update({ where: { id: payout.id }, data: { transferId: transfer.id, providerPayoutId: sent.id } });
        // Stripe's payout.created webhook may have moved it on already: the answer is the row as it is now.
        return (await this.moveTo(tx, payout.id, 'processing')) ?? row;
      });
      return payoutView(updated);
    } catch (err) {
      this.deps.logger.warn(
        { err: err instanceof Error ? err.message : String(err), channelId, payoutId: payout.id },
        'payout not sent: its debit is given back',
      );
      await this.deps.db.$transaction((tx) => this.cancel(tx, payout.id, 'The payment provider refused the payout.'));
      throw new OnAirError('PAYOUT_PROVIDER_FAILED');
    }
  }

  /** The channel's Connect account, made with its default bank account at the first payout. */
  private async connectedAccount(stripe: Stripe, channelId: string, method: PaymentMethod): Promise<string> {
    const stored = await this.deps.db.payoutAccount.findUnique({ where: { channelId } });
    if (stored && stored.paymentMethodId === method.id) return stored.accountId;
    const number = this.requireBox().open(method.accountSealed, `payment-method:${channelId}`);
    const account = await providerCall(this.deps.logger, 'PAYOUT_PROVIDER_FAILED', 'connect account', () =>
      stripe.accounts.create(
        {
          type: 'custom',
          country: method.country,
          email: method.email,
          capabilities: { transfers: { requested: true } },
          external_account: {
            object: 'bank_account',
            country: method.country,
            currency: method.currency,
            account_holder_name: method.accountHolder,
            account_number: number,
            ...(method.routingCode ? { routing_number: method.routingCode } : {}),
          },
          metadata: { channelId },
        },
        { idempotencyKey: `onair-connect-${channelId}-${method.id}` },
      ),
    );
    await this.deps.db.payoutAccount.upsert({
      where: { channelId },
      create: { channelId, accountId: account.id, paymentMethodId: method.id },
      update: { accountId: account.id, paymentMethodId: method.id },
    });
    return account.id;
  }

  /** A status move allowed by the table, or nothing (an old or repeated event). */
  private async moveTo(
    tx: Tx,
    payoutId: string,
    status: TransactionStatus,
    extra: { failureReason?: string; completedAt?: Date } = {},
  ): Promise<Payout | undefined> {
    const row = await tx.payout.findUnique({ where: { id: payoutId } });
    if (!row || !PAYOUT_TRANSITIONS[row.status as TransactionStatus].includes(status)) return undefined;
    const moved = await tx.payout.updateMany({ where: { id: payoutId, status: row.status }, data: { status, ...extra } });
    return moved.count === 1 ? { ...row, status, ...extra } : undefined;
  }

  private async cancel(tx: Tx, payoutId: string, reason: string, providerEventId?: string): Promise<void> {
    const row = await this.moveTo(tx, payoutId, 'canceled', { failureReason: reason });
    if (!row) return;
    await this.deps.ledger.append(tx, {
      channelId: row.channelId,
      kind: 'payout_returned',
      amount: row.amount,
      currency: row.currency,
      description: `Payout returned: ${reason}`,
      payoutId: row.id,
      ...(providerEventId ? { providerEventId } : {}),
    });
  }

  handles(event: Stripe.Event): boolean {
    return event.type.startsWith('payout.') && (event.data.object as Stripe.Payout).metadata?.kind === 'payout';
  }

  /** A Connect payout's webhook: processing, delayed (a later arrival), completed, or canceled with the debit returned. */
  async apply(tx: Tx, event: Stripe.Event): Promise<void> {
    const sent = event.data.object as Stripe.Payout;
    const payoutId = sent.metadata?.payoutId ?? '';
    const row = await tx.payout.findFirst({ where: { id: payoutId } });
    if (!row) return;
    if (event.type === 'payout.paid') {
      await this.moveTo(tx, row.id, 'completed', { completedAt: new Date(event.created * 1000) });
    } else if (event.type === 'payout.failed' || event.type === 'payout.canceled') {
      await this.cancel(
        tx,
        row.id,
        sent.failure_message ?? (event.type === 'payout.canceled' ? 'The payout was canceled.' : 'The bank refused the payout.'),
        event.id,
      );
    } else if (event.type === 'payout.updated' || event.type === 'payout.created') {
      const arrival = new Date(sent.arrival_date * 1000);
      const lateBy = arrival.getTime() - (row.estimatedTo.getTime() + 24 * 3600 * 1000);
      if (lateBy > 0) await this.moveTo(tx, row.id, 'delayed');
      else if (row.status === 'new') await this.moveTo(tx, row.id, 'processing');
    }
  }
}
