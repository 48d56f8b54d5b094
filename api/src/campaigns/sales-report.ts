import { currencySchema, OnAirError, PROMO_CODE_PATTERN, type MoneyCurrency } from '@onair/protocol';
import { FORMULA_START, readCsv, refuseProblems } from './key-pool.ts';

export interface ReportedSale {
  saleId: string;
  promoCode: string;
  /** Gross amount of the sale, minor units. */
  amount: number;
  currency: MoneyCurrency;
  line: number;
}

const HEADER = ['sale_id', 'promo_code', 'amount_minor', 'currency'];
const SALE_ID = /^[A-Za-z0-9_.-]{1,64}$/;
/** One sale at most $1 000 000 (minor units): a typo of a few zeros is refused, not credited. */
const SALE_MAX = 100_000_000;
export const SALES_REPORT_MAX = 10_000;

/**
 * Reads a publisher's sales report: one row per sale, all or nothing (formula cells, unknown
 * currencies, amounts that are not whole minor units, a sale id twice in the file are refused by
 * line). Whether each promo code belongs to the campaign is the service's to check.
 */
export function parseSalesReport(csv: string): ReportedSale[] {
  const rows = readCsv(csv);
  const header = rows[0]?.map((h) => h.toLowerCase());
  if (!header || header.join(',') !== HEADER.join(',')) throw new OnAirError('VALIDATION_FAILED', `The first line must be the header "${HEADER.join(',')}".`);
  const body = rows.slice(1);
  if (body.length === 0) throw new OnAirError('VALIDATION_FAILED', 'The file has no sales below its header.');
  if (body.length > SALES_REPORT_MAX)
    throw new OnAirError('VALIDATION_FAILED', `Report at most ${SALES_REPORT_MAX} sales at once (this file has ${body.length}).`);
  const problems: string[] = [];
  const seen = new Map<string, number>();
  const sales: ReportedSale[] = [];
  body.forEach(([saleId = '', promoCode = '', amountCell = '', currencyCell = ''], index) => {
    const line = index + 2;
    if ([saleId, promoCode, amountCell, currencyCell].some((cell) => FORMULA_START.test(cell)))
      return void problems.push(`line ${line}: a cell starts with = + - @ or a tab, as a spreadsheet formula would`);
    if (!SALE_ID.test(saleId)) return void problems.push(`line ${line}: a sale id is 1 to 64 letters, digits, dots, dashes or underscores`);
    if (!PROMO_CODE_PATTERN.test(promoCode)) return void problems.push(`line ${line}: a promo code is 4 to 20 capital letters A–Z and digits`);
    const amount = Number(amountCell);
    if (!/^\d+$/.test(amountCell) || amount < 1 || amount > SALE_MAX)
      return void problems.push(`line ${line}: the amount is a whole number of cents (minor units), 1 to ${SALE_MAX}`);
    const currency = currencySchema.safeParse(currencyCell.toLowerCase());
    if (!currency.success) return void problems.push(`line ${line}: the currency must be one of ${currencySchema.options.join(', ')}`);
    const first = seen.get(saleId);
    if (first !== undefined) return void problems.push(`line ${line}: the same sale id as line ${first}`);
    seen.set(saleId, line);
    sales.push({ saleId, promoCode, amount, currency: currency.data, line });
  });
  refuseProblems(problems);
  return sales;
}
