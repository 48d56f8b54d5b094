import { createServer, get, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressPolicy } from './egress-policy.ts';
import { EgressProxy, REFUSED_HEADER } from './egress-proxy.ts';
import { OwnPagesGate, signOwnPageUrl, verifyOwnPageUrl } from './own-pages.ts';

const SECRET = 'a-render-page-secret-of-at-least-32-chars';

describe('signed own-page addresses', () => {
  const page = signOwnPageUrl(SECRET, 'http://localhost:8080/overlay/o/1234?key=abc');

  it('verify for the page and what it loads below its path with the same query, and nothing else', () => {
    expect(verifyOwnPageUrl(SECRET, page)).toBe(true);
    expect(verifyOwnPageUrl(SECRET, page.replace('/overlay/o/1234', '/overlay/o/1234/ws'))).toBe(true);
    expect(verifyOwnPageUrl(SECRET, page.replace('/overlay/o/1234', '/overlay/o/9999'))).toBe(false);
    expect(verifyOwnPageUrl(SECRET, page.replace('/overlay/o/1234', '/overlay/o'))).toBe(false);
    expect(verifyOwnPageUrl(SECRET, page.replace('/overlay/o/1234', '/api/v1/users/me'))).toBe(false);
    expect(verifyOwnPageUrl(SECRET, page.replace('key=abc', 'key=abd'))).toBe(false);
    expect(verifyOwnPageUrl(SECRET, `${page}&extra=1`)).toBe(false);
    expect(verifyOwnPageUrl('another-secret-of-at-least-32-characters', page)).toBe(false);
    expect(verifyOwnPageUrl(SECRET, 'http://localhost:8080/overlay/o/1234?key=abc')).toBe(false);
  });

  it('refuse dot segments and encoded slashes that could mean another path upstream', () => {
    expect(verifyOwnPageUrl(SECRET, page.replace('/overlay/o/1234', '/overlay/o/1234/%2e%2e/%2e%2e/%2e%2e/api'))).toBe(false);
    expect(verifyOwnPageUrl(SECRET, page.replace('/overlay/o/1234', '/overlay/o/1234%2F..%2Fapi'))).toBe(false);
  });

  it('are never made for the api root', () => {
    expect(() => signOwnPageUrl(SECRET, 'http://localhost:8080/overlay')).toThrow();
  });
});

describe('the egress proxy with the api’s own origin', () => {
  let api: Server;
  let apiPort = 0;
  let other: Server;
  let otherPort = 0;
  const seen: string[] = [];
  let proxy: EgressProxy;

  beforeAll(async () => {
    api = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.end('own page');
    });
    api.on('upgrade', (req, socket) => {
      seen.push(`upgrade ${req.url ?? ''}`);
      socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', () => r()));
    apiPort = (api.address() as AddressInfo).port;
    other = createServer((_req, res) => res.end('other'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    otherPort = (other.address() as AddressInfo).port;
    const resolve = async (h: string) => (h === 'localhost' ? ['127.0.0.1'] : []);
    proxy = new EgressProxy(new EgressPolicy(new Set(), resolve), { ownPages: new OwnPagesGate(`http://localhost:${apiPort}`, SECRET, resolve) });
    await proxy.listen();
  });

  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((r) => api.close(() => r()));
    await new Promise<void>((r) => other.close(() => r()));
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

  /** A ws:// handshake through a CONNECT tunnel, as Chromium sends it: the status line answering the handshake. */
  function wsThroughTunnel(target: string, path: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const s = connect(proxy.port, '127.0.0.1', () => s.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
      let text = '';
      let sent = false;
      s.on('data', (d: Buffer) => {
        text += d.toString();
        const established = 'HTTP/1.1 200 Connection Established\r\n\r\n';
        if (!text.startsWith(established)) {
          resolve(text.split('\r\n')[0] ?? '');
          s.destroy();
          return;
        }
        if (!sent) {
          sent = true;
          s.write(`GET ${path} HTTP/1.1\r\nHost: ${target}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`);
        }
        const rest = text.slice(established.length);
        if (rest.includes('\r\n')) {
          resolve(rest.split('\r\n')[0] ?? '');
          s.destroy();
        }
      });
      s.on('close', () => resolve('closed'));
      s.on('error', reject);
    });
  }

  it('forwards a signed overlay page of the own origin, and refuses the same origin unsigned or tampered, and any other loopback port', async () => {
    const signed = signOwnPageUrl(SECRET, `http://localhost:${apiPort}/overlay/o/abc?key=k`);
    expect(await viaProxy(signed)).toMatchObject({ status: 200, body: 'own page' });
    expect(seen.at(-1)).toBe(new URL(signed).pathname + new URL(signed).search);
    const before = seen.length;
    expect(await viaProxy(`http://localhost:${apiPort}/overlay/o/abc?key=k`)).toMatchObject({ status: 403, refused: 'loopback' });
    expect((await viaProxy(signed.replace('key=k', 'key=x'))).status).toBe(403);
    expect((await viaProxy(signed.replace('/overlay/o/abc', '/api/v1/users/me'))).status).toBe(403);
    expect((await viaProxy(`http://localhost:${otherPort}/overlay/o/abc?${new URL(signed).search.slice(1)}`)).status).toBe(403);
    expect((await viaProxy(`http://127.0.0.1:${otherPort}/`)).status).toBe(403);
    expect(seen.length).toBe(before);
  });

  it('relays a WebSocket tunnel to the own origin only for a signed path', async () => {
    const signed = new URL(signOwnPageUrl(SECRET, `http://localhost:${apiPort}/overlay/o/abc?key=k`));
    expect(await wsThroughTunnel(`localhost:${apiPort}`, `${signed.pathname}/ws${signed.search}`)).toBe('HTTP/1.1 101 Switching Protocols');
    expect(seen.at(-1)).toBe(`upgrade ${signed.pathname}/ws${signed.search}`);
    const before = seen.length;
    expect(await wsThroughTunnel(`localhost:${apiPort}`, '/ws')).toBe('HTTP/1.1 403 Forbidden');
    expect(await wsThroughTunnel(`localhost:${apiPort}`, `/api/v1/users/me${signed.search}`)).toBe('HTTP/1.1 403 Forbidden');
    expect(await wsThroughTunnel(`localhost:${apiPort}`, `/api/x/../..${signed.pathname}/ws${signed.search}`)).toBe('HTTP/1.1 403 Forbidden');
    expect(seen.length).toBe(before);
  });
});
