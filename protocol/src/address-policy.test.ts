import { describe, expect, it } from 'vitest';
import { canonicalHost, canonicalIPv4, checkUrlTarget, classifyIp, hostPortKey, parseHostPortList, parseIPv6 } from './address-policy.ts';

describe('classifyIp', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:0a00:0001::', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
  ] as const)('%s is %s', (ip, cls) => {
    expect(classifyIp(ip)).toBe(cls);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1', '169.255.0.1', '2606:4700::1111', '2a00:1450:4001::200e'])(
    '%s is public',
    (ip) => {
      expect(classifyIp(ip)).toBe('public');
    },
  );

  it('is null for names and malformed literals', () => {
    for (const text of ['example.com', '256.1.1.1', '1.2.3', ':::', '1::2::3', '12345::', 'fe80::g']) expect(classifyIp(text)).toBeNull();
  });

  it('parses compressed IPv6 forms', () => {
    expect(parseIPv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('::2')).toEqual([0, 0, 0, 0, 0, 0, 0, 2]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeNull();
  });
});

describe('checkUrlTarget', () => {
  it('refuses other schemes with a reason', () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'chrome://settings', 'javascript:alert(1)', 'data:text/html,hi']) {
      const r = checkUrlTarget(url);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.code).toBe('scheme-not-allowed');
    }
  });

  it('refuses private literals, including spellings the URL parser canonicalises', () => {
    expect(checkUrlTarget('http://2130706433/')).toMatchObject({ ok: false, code: 'loopback' });
    expect(checkUrlTarget('http://0x7f.1/')).toMatchObject({ ok: false, code: 'loopback' });
    expect(checkUrlTarget('http://[::ffff:a00:1]/')).toMatchObject({ ok: false, code: 'private' });
    expect(checkUrlTarget('http://169.254.169.254/latest/meta-data/')).toMatchObject({ ok: false, code: 'metadata' });
    expect(checkUrlTarget('http://LOCALHOST:8080/')).toMatchObject({ ok: false, code: 'loopback' });
    expect(checkUrlTarget('http://a.localhost/')).toMatchObject({ ok: false, code: 'loopback' });
  });

  it('accepts public literals and leaves names to the resolver', () => {
    expect(checkUrlTarget('https://example.com/overlay')).toMatchObject({ ok: true, host: 'example.com', port: 443, ip: null });
    expect(checkUrlTarget('http://8.8.8.8:8080/')).toMatchObject({ ok: true, port: 8080, ip: '8.8.8.8' });
  });
});

describe('allowlist', () => {
  it('parses host:port entries and keys IPv6 with brackets', () => {
    expect([...parseHostPortList(' 127.0.0.1:8080, Overlay.internal:443 ,')]).toEqual(['127.0.0.1:8080', 'overlay.internal:443']);
    expect(() => parseHostPortList('127.0.0.1')).toThrow(/host:port/);
    expect(hostPortKey('::1', 80)).toBe('[::1]:80');
  });
});

describe('canonical hosts', () => {
  it('reads IPv4 the way the C resolver does, and names without their trailing dots', () => {
    expect(canonicalIPv4('2130706433')).toBe('127.0.0.1');
    expect(canonicalIPv4('0x7f.1')).toBe('127.0.0.1');
    expect(canonicalIPv4('0177.0.0.1')).toBe('127.0.0.1');
    expect(canonicalIPv4('127.1')).toBe('127.0.0.1');
    expect(canonicalIPv4('10.1.258')).toBe('10.1.1.2');
    expect(canonicalIPv4('0xa9fea9fe')).toBe('169.254.169.254');
    for (const name of ['example.com', '256.1.1.1', '08', '1.2.3.4.5', '4294967296', '']) expect(canonicalIPv4(name), name).toBeNull();
    expect(canonicalHost('LocalHost.')).toBe('localhost');
    expect(canonicalHost('127.0.0.1.')).toBe('127.0.0.1');
    expect(canonicalHost('[::1]')).toBe('::1');
    expect(checkUrlTarget('rtmp://169.254.169.254./live', ['rtmp:'])).toMatchObject({ ok: false, code: 'metadata' });
  });
});
