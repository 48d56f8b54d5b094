import { createServer, get, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressPolicy } from './egress-policy.ts';
import { EgressProxy, REFUSED_HEADER } from './egress-proxy.ts';

let upstream: Server;
let upstreamPort = 0;
const seen: string[] = [];
let proxy: EgressProxy;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seen.push(`${req.headers.host} ${req.url}`);
    res.end('hello');
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  upstreamPort = (upstream.address() as AddressInfo).port;
  // "site.test" resolves to loopback; only its allowlisted port may be reached.
  proxy = new EgressProxy(
    new EgressPolicy(new Set([`site.test:${upstreamPort}`]), async (h) => (h === 'site.test' ? ['127.0.0.1'] : h === 'evil.test' ? ['10.0.0.7'] : [])),
  );
  await proxy.listen();
});

afterAll(async () => {
  await proxy.close();
  await new Promise<void>((r) => upstream.close(() => r()));
});

function viaProxy(url: string): Promise<{ status: number; refused: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port: proxy.port, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, refused: res.headers[REFUSED_HEADER] as string | undefined, body }));
    }).on('error', reject);
  });
}

function tunnel(target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(proxy.port, '127.0.0.1', () => s.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    s.once('data', (d: Buffer) => {
      resolve(d.toString().split('\r\n')[0] ?? '');
      s.destroy();
    });
    s.on('error', reject);
  });
}

describe('EgressProxy', () => {
  it('forwards plain HTTP to the checked address with the original Host', async () => {
    const r = await viaProxy(`http://site.test:${upstreamPort}/a?b=1`);
    expect(r).toMatchObject({ status: 200, body: 'hello' });
    expect(seen).toContain(`site.test:${upstreamPort} /a?b=1`);
  });

  it('refuses private targets with a reason and never connects', async () => {
    const before = seen.length;
    const r = await viaProxy(`http://127.0.0.1:${upstreamPort}/secret`);
    expect(r.status).toBe(403);
    expect(r.refused).toBe('loopback');
    expect(r.body).toMatch(/loopback address \(127\.0\.0\.1\)/);
    expect((await viaProxy('http://evil.test/')).refused).toBe('private');
    expect(seen.length).toBe(before);
    expect(proxy.refusalsSince(0).map((x) => x.code)).toEqual(['loopback', 'private']);
  });

  it('opens CONNECT tunnels only to allowed targets', async () => {
    expect(await tunnel(`site.test:${upstreamPort}`)).toBe('HTTP/1.1 200 Connection Established');
    expect(await tunnel(`127.0.0.1:${upstreamPort}`)).toBe('HTTP/1.1 403 Forbidden');
    expect(await tunnel('169.254.169.254:80')).toBe('HTTP/1.1 403 Forbidden');
    expect(await tunnel(`site.test:${upstreamPort + 1}`)).toBe('HTTP/1.1 403 Forbidden');
  });
});
