import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Pages the tests render, and a log of every request the site received. */
export const ANIMATED_PAGE = `<!doctype html><html><body style="margin:0;background:#202040">
<div id="box" style="position:absolute;top:40px;width:120px;height:120px;background:#ff3030;animation:slide 1.5s linear infinite alternate"></div>
<style>@keyframes slide{from{left:0}to{left:600px}}</style>
<script>
  // A 440 Hz tone for as long as the page is open.
  const ctx = new AudioContext();
  const osc = ctx.createOscillator();
  osc.frequency.value = 440;
  osc.connect(ctx.destination);
  osc.start();
</script></body></html>`;

// Asks the site for something every 300 ms while it is loaded: shows whether a page is unloaded.
const POLLING_PAGE = `<!doctype html><html><body style="margin:0;background:#103010;color:#fff;font:40px sans-serif">
<div id="n">0</div><script>
  let n = 0;
  setInterval(() => { n += 1; document.getElementById('n').textContent = n; fetch('/poll?n=' + n); }, 300);
</script></body></html>`;

// Loads, then blocks its renderer for good.
const HANGING_PAGE = `<!doctype html><html><body style="background:#303030"><script>
  setTimeout(() => { for (;;) {} }, 1000);
</script></body></html>`;

const TRANSPARENT_PAGE = `<!doctype html><html><body style="margin:0">
<div style="position:absolute;left:0;top:0;width:200px;height:200px;background:#0000ff"></div></body></html>`;

// Stores a secret in every place a later page of the same origin could read.
const WRITE_SECRET_PAGE = `<!doctype html><html><body><script>
  localStorage.setItem('secret', 'page-a-secret');
  document.cookie = 'secret=page-a-secret; max-age=3600';
  indexedDB.open('secrets').onupgradeneeded = (e) => e.target.result.createObjectStore('s');
  fetch('/report?from=a&done=1');
</script></body></html>`;

// Looks for page A's secret and tries the private addresses a malicious overlay would.
const READ_SECRET_PAGE = `<!doctype html><html><body><script>
  (async () => {
    const dbs = indexedDB.databases ? (await indexedDB.databases()).map((d) => d.name).join(',') : '';
    const found = [localStorage.getItem('secret') || '', document.cookie, dbs].join('|');
    await fetch('/report?from=b&found=' + encodeURIComponent(found));
    for (const url of ['http://127.0.0.1:__PORT__/secret-direct', 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/']) {
      let result;
      try { result = (await fetch(url, { mode: 'no-cors' })).type; } catch (e) { result = 'blocked'; }
      await fetch('/report?from=b&url=' + encodeURIComponent(url) + '&result=' + result);
    }
    try { const ws = new WebSocket('ws://127.0.0.1:__PORT__/secret-ws'); ws.onerror = () => fetch('/report?from=b&ws=blocked'); ws.onopen = () => fetch('/report?from=b&ws=open'); } catch { fetch('/report?from=b&ws=blocked'); }
    // WebRTC would send UDP (STUN) around the proxy to any address; it must send nothing.
    const stun = new URLSearchParams(location.search).get('stun');
    if (stun) {
      const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:' + stun }] });
      pc.createDataChannel('x');
      await pc.setLocalDescription(await pc.createOffer());
      // WebTransport is QUIC (UDP) too.
      try { new WebTransport('https://127.0.0.1:' + stun + '/wt').ready.catch(() => undefined); } catch { /* not offered */ }
      setTimeout(() => fetch('/report?from=b&stun=tried'), 2000);
    }
  })();
</script></body></html>`;

/**
 * A page whose document arrives slowly: its head at once, its body `delay` ms later (query
 * `delay`, default 3000). Its content is one box of `color` (query, hex without #, blue unless
 * told) at 0,0 200×200, with no background of its own.
 */
function slowPage(url: URL): { head: string; body: string; delayMs: number } {
  const color = url.searchParams.get('color') ?? '';
  return {
    head: '<!doctype html><html><head><meta charset="utf-8"><title>slow</title></head>',
    body: `<body style="margin:0"><div style="position:absolute;left:0;top:0;width:200px;height:200px;background:#${/^[0-9a-f]{6}$/i.test(color) ? color : '0000ff'}"></div></body></html>`,
    delayMs: Number(url.searchParams.get('delay') ?? 3000),
  };
}

export interface TestSite {
  server: Server;
  port: number;
  /** Base URL through the allowlisted name (localhost:port). */
  base: string;
  requests: string[];
  reports: URLSearchParams[];
  close(): Promise<void>;
}

export async function startTestSite(): Promise<TestSite> {
  const requests: string[] = [];
  const reports: URLSearchParams[] = [];
  let port = 0;
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url.pathname);
    const html = (body: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(body.replaceAll('__PORT__', String(port)));
    };
    switch (url.pathname) {
      case '/animated':
        return html(ANIMATED_PAGE);
      case '/hang':
        return html(HANGING_PAGE);
      case '/polling':
        return html(POLLING_PAGE);
      case '/transparent':
        return html(TRANSPARENT_PAGE);
      case '/write-secret':
        return html(WRITE_SECRET_PAGE);
      case '/read-secret':
        return html(READ_SECRET_PAGE);
      case '/slow': {
        const { head, body, delayMs } = slowPage(url);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.write(head);
        const timer = setTimeout(() => res.end(body), delayMs);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      case '/report':
        reports.push(url.searchParams);
        res.writeHead(204).end();
        return;
      case '/redirect':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
        return;
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
        return;
      default:
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    base: `http://localhost:${port}`,
    requests,
    reports,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
