import { describe, expect, it } from 'vitest';
import { clientErrorReportSchema, scrubErrorText, scrubRoute, trimStack } from './client-errors.ts';

describe('client error reports', () => {
  it('keep a route as a path with its ids and tokens replaced', () => {
    expect(scrubRoute('/studio/0b7c6a52-3f0e-4c43-9a8e-2b1d5e4f6a7b')).toBe('/studio/:id');
    expect(scrubRoute('/guest/abcDEF123ghiJKL456mnoPQR?token=secret#x')).toBe('/guest/:id');
    expect(scrubRoute('/partner/campaigns/42')).toBe('/partner/campaigns/:id');
    expect(scrubRoute('/partner/statistics')).toBe('/partner/statistics');
  });

  it('scrub e-mail addresses, URL queries and secrets from messages and stacks, keeping files and line numbers', () => {
    expect(scrubErrorText('No account for ana.lopez@example.com')).toBe('No account for [email]');
    expect(scrubErrorText('Failed to load https://cdn.example.com/a.png?sig=abc123XYZ&exp=1')).toBe('Failed to load https://cdn.example.com/a.png');
    expect(scrubErrorText('token rYk2pQ9vX4mN7tL1sW8zB3cD was rejected')).toBe('token [redacted] was rejected');
    const stack = trimStack(
      [
        'TypeError: x is undefined',
        '    at renderWithHooksAgain (http://127.0.0.1:5173/assets/index-B2kdL9xQ.js?v=9f8e7d:10:5)',
        ...Array.from({ length: 40 }, (_, i) => `    at frame${i} (http://127.0.0.1:5173/assets/chunk.js:1:${i})`),
      ].join('\n'),
    )!;
    expect(stack.split('\n')).toHaveLength(20);
    expect(stack).toContain('at renderWithHooksAgain (http://127.0.0.1:5173/assets/index-B2kdL9xQ.js:10:5)');
    expect(stack).not.toContain('v=9f8e7d');
  });

  it('refuse a route with a query and unknown fields', () => {
    const report = { code: 'A1B2C3D4', message: 'boom', release: '1.2.3', route: '/studio/:id' };
    expect(clientErrorReportSchema.safeParse(report).success).toBe(true);
    expect(clientErrorReportSchema.safeParse({ ...report, route: '/studio?token=x' }).success).toBe(false);
    expect(clientErrorReportSchema.safeParse({ ...report, email: 'a@b.c' }).success).toBe(false);
    expect(clientErrorReportSchema.safeParse({ ...report, message: 'x'.repeat(501) }).success).toBe(false);
  });
});
