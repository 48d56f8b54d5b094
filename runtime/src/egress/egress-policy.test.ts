import { describe, expect, it } from 'vitest';
import { EgressPolicy, type Resolver } from './egress-policy.ts';

const dns =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (!found) throw new Error('ENOTFOUND');
    return found;
  };

describe('EgressPolicy', () => {
  const policy = new EgressPolicy(
    new Set(['localhost:8080', 'overlay.internal:443']),
    dns({
      localhost: ['127.0.0.1'],
      'example.com': ['93.184.215.14'],
      'rebind.example': ['93.184.215.14', '127.0.0.1'],
      'meta.example': ['169.254.169.254'],
      'overlay.internal': ['10.1.2.3'],
      'v6.example': ['2606:2800:21f::1', 'fd00::5'],
    }),
  );

  it('allows a public name and hands back the checked address to connect to', async () => {
    expect(await policy.check('example.com', 443)).toEqual({ allowed: true, host: 'example.com', port: 443, address: '93.184.215.14' });
  });

  it('refuses a name when any of its addresses is not public (DNS rebinding, split answers)', async () => {
    expect(await policy.check('rebind.example', 443)).toMatchObject({
      allowed: false,
      code: 'loopback',
      reason: expect.stringContaining('rebind.example → 127.0.0.1'),
    });
    expect(await policy.check('meta.example', 80)).toMatchObject({ allowed: false, code: 'metadata' });
    expect(await policy.check('v6.example', 443)).toMatchObject({ allowed: false, code: 'private' });
  });

  it('refuses literals, localhost names, other schemes and unknown names', async () => {
    expect(await policy.checkUrl('http://10.0.0.1/')).toMatchObject({ allowed: false, code: 'private', port: 80 });
    expect(await policy.checkUrl('http://[::1]:9000/')).toMatchObject({ allowed: false, code: 'loopback' });
    expect(await policy.checkUrl('http://localhost:9000/')).toMatchObject({ allowed: false, code: 'loopback' });
    expect(await policy.check('LOCALHOST', 9000)).toMatchObject({ allowed: false, code: 'loopback' });
    expect(await policy.checkUrl('file:///etc/passwd')).toMatchObject({ allowed: false, code: 'scheme-not-allowed' });
    expect(await policy.checkUrl('https://example.com/', ['http:'])).toMatchObject({ allowed: false, code: 'scheme-not-allowed' });
    expect(await policy.check('nowhere.example', 443)).toMatchObject({ allowed: false, code: 'unresolvable' });
  });

  it('reads names as the connection would (trailing dots, numeric IPv4) and never lets the metadata address through', async () => {
    expect(await policy.check('localhost.', 9000)).toMatchObject({ allowed: false, code: 'loopback' });
    expect(await policy.check('127.0.0.1.', 9000)).toMatchObject({ allowed: false, code: 'loopback' });
    expect(await policy.check('2130706433', 9000)).toMatchObject({ allowed: false, code: 'loopback' });
    expect(await policy.check('169.254.169.254.', 80)).toMatchObject({ allowed: false, code: 'metadata' });
    expect(await policy.check('example.com.', 443)).toMatchObject({ allowed: true, host: 'example.com', address: '93.184.215.14' });
    const allowMeta = new EgressPolicy(new Set(['meta.example:80']), dns({ 'meta.example': ['169.254.169.254'] }));
    expect(await allowMeta.check('meta.example', 80)).toMatchObject({ allowed: false, code: 'metadata' });
  });

  it('lets exactly the allowlisted host:port through, not the same host on another port or by another name', async () => {
    expect(await policy.checkUrl('http://localhost:8080/page')).toMatchObject({ allowed: true, address: '127.0.0.1' });
    expect(await policy.check('overlay.internal', 443)).toMatchObject({ allowed: true, address: '10.1.2.3' });
    expect(await policy.check('overlay.internal', 80)).toMatchObject({ allowed: false, code: 'private' });
    expect(await policy.checkUrl('http://localhost:8081/')).toMatchObject({ allowed: false, code: 'loopback' });
    expect(await policy.checkUrl('http://127.0.0.1:8080/')).toMatchObject({ allowed: false, code: 'loopback' });
  });
});
