import { describe, expect, it } from 'vitest';
import { errorBodySchema, errorCatalogue, OnAirError } from './errors.ts';

describe('the error catalogue', () => {
  it('gives every code an HTTP status, a fault side and a human message', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(['user', 'service']).toContain(entry.fault);
      expect(entry.message.length, code).toBeGreaterThan(0);
      // Service faults are 5xx and user faults 4xx, so monitoring can alert on the status alone.
      expect(entry.fault === 'service', code).toBe(entry.status >= 500);
    }
  });

  it('renders the one error body, with details only when given', () => {
    expect(new OnAirError('CONFLICT').toBody()).toEqual({ error: { code: 'CONFLICT', message: errorCatalogue.CONFLICT.message } });
    const body = new OnAirError('CONFLICT', 'The scene changed.', { currentVersion: 4 }).toBody();
    expect(errorBodySchema.parse(body)).toEqual({ error: { code: 'CONFLICT', message: 'The scene changed.', details: { currentVersion: 4 } } });
    expect(new OnAirError('RATE_LIMITED').status).toBe(429);
  });

  it('rejects an error body with an unknown code', () => {
    expect(errorBodySchema.safeParse({ error: { code: 'NOPE', message: 'x' } }).success).toBe(false);
  });
});
