import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a secret a caller gave equals the expected one, compared in constant time (a callback
 * path's secret, a publish proof): a plain `===` would tell an attacker how much of it matched.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
