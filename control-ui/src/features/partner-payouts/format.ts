import { formatMoney } from '@onair/protocol';

export const money = (minor: number, currency: string) => formatMoney(minor, currency);
export const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
export const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
