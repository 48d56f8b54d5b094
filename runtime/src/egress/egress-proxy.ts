import { EventEmitter } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EgressDecision, EgressPolicy, EgressRefusalCode } from './egress-policy.ts';
import type { OwnPagesGate } from './own-pages.ts';

export interface EgressRefusal {
  /** What the page asked for: a URL for plain HTTP, host:port for a tunnel. */
  target: string;
  host: string;
  port: number;
  code: EgressRefusalCode;
  reason: string;
  at: number;
}

export const REFUSED_HEADER = 'x-onair-refused';
const CONNECT_TIMEOUT_MS = 10_000;
const HOP_BY_HOP = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * The only way out for one page's Chromium (`--proxy-server` with loopback not bypassed) or one
 * pipeline's RTMP connections (GIO's proxy support): plain HTTP is forwarded (unless
 * `forwardHttp: false`), HTTPS, WebSocket and RTMP go through CONNECT tunnels, and every target is
 * checked by the EgressPolicy and reached at the address the policy checked. One proxy per page or
 * pipeline, so a refusal is its own and can be reported with its reason.
 */
export class EgressProxy extends EventEmitter<{ refused: [EgressRefusal] }> {
  private readonly server: Server;
  private readonly sockets = new Set<Duplex>();
  private readonly recent: EgressRefusal[] = [];
  private listeningPort = 0;

  constructor(
    private readonly policy: EgressPolicy,
    private readonly options: { forwardHttp?: boolean /** OnAir's own signed pages on a private origin (see OwnPagesGate). */; ownPages?: OwnPagesGate } = {},
  ) {
    super();
    this.server = createServer((req, res) => {
      if (options.forwardHttp === false) {
        res.writeHead(405, { connection: 'close' }).end();
        return;
      }
      void this.forward(req, res);
    });
    this.server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(req, socket, head));
    // Chromium tunnels ws:// through CONNECT; a plain upgrade request is not a path we offer.
    this.server.on('upgrade', (_req: IncomingMessage, socket: Duplex) => {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
    });
    this.server.on('connection', (s: Socket) => this.track(s));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.listeningPort = (this.server.address() as AddressInfo).port;
    return this.listeningPort;
  }

  get port(): number {
    return this.listeningPort;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Refusals since `sinceMs` (epoch ms), newest last. */
  refusalsSince(sinceMs: number): EgressRefusal[] {
    return this.recent.filter((r) => r.at >= sinceMs);
  }

  private track(s: Duplex): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => undefined);
  }

  private refuse(target: string, decision: { host: string; port: number; code: EgressRefusalCode; reason: string }): EgressRefusal {
    const refusal: EgressRefusal = { target, host: decision.host, port: decision.port, code: decision.code, reason: decision.reason, at: Date.now() };
    this.recent.push(refusal);
    if (this.recent.length > 50) this.recent.shift();
    this.emit('refused', refusal);
    return refusal;
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '';
    // Only absolute http:// URLs arrive here from a browser using us as its proxy; https uses CONNECT.
    const decision = (await this.options.ownPages?.check(target)) ?? (await this.policy.checkUrl(target, ['http:']));
    if (!decision.allowed) {
      const refusal = this.refuse(target, decision);
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', [REFUSED_HEADER]: refusal.code, 'cache-control': 'no-store' });
      res.end(`Refused by OnAir: ${refusal.reason}\n`);
      return;
    }
    const url = new URL(target);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    headers.host = url.host;
    const upstream = httpRequest({
      host: decision.address,
      port: decision.port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
      agent: false,
      timeout: CONNECT_TIMEOUT_MS,
    });
    upstream.on('response', (up) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(up.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      }
      res.writeHead(up.statusCode ?? 502, out);
      up.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')));
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end();
    });
    req.pipe(upstream);
  }

  private async tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.track(client);
    const target = req.url ?? '';
    const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target);
    if (!m || m[1] === undefined || m[2] === undefined) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const own = this.options.ownPages;
    if (own && own.isOwn(`http://${target}/`)) {
      this.tunnelToOwnPage(own, target, client, head);
      return;
    }
    const decision = await this.policy.check(m[1], Number(m[2]));
    if (!decision.allowed) {
      const refusal = this.refuse(target, decision);
      client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: ${refusal.code}\r\nConnection: close\r\n\r\n`);
      return;
    }
    this.relay(decision, client, head, true);
  }

  /**
   * A tunnel to the api's own origin (a page's WebSocket to its live feed, ws:// through CONNECT):
   * the tunnel is answered, then the first request line read, and only a signed own-page request
   * is relayed; anything else ends the tunnel, so the origin stays closed to other paths.
   */
  private tunnelToOwnPage(own: OwnPagesGate, target: string, client: Duplex, head: Buffer): void {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    let buffered = head;
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      void judge();
    };
    const judge = async () => {
      const end = buffered.indexOf('\r\n');
      if (end < 0) {
        if (buffered.length > 8192) client.destroy();
        return;
      }
      client.off('data', onData);
      client.pause();
      const line = /^[A-Z]+ (\/\S*) HTTP\/1\.1$/.exec(buffered.subarray(0, end).toString('latin1'));
      const address = line?.[1] ? `http://${target}${line[1]}` : `http://${target}/`;
      // The bytes go upstream as sent: they must mean exactly the path that was checked (no dot segments).
      const canonical = line?.[1] !== undefined && URL.canParse(address) && `${new URL(address).pathname}${new URL(address).search}` === line[1];
      const decision = canonical ? await own.check(address) : null;
      if (!decision?.allowed) {
        this.refuse(address.split('?')[0] ?? address, decision ?? { host: target, port: 0, code: 'loopback', reason: 'not a signed page of OnAir itself' });
        client.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
        return;
      }
      this.relay(decision, client, buffered, false);
      client.resume();
    };
    client.on('data', onData);
    if (head.length > 0) void judge();
  }

  private relay(decision: Extract<EgressDecision, { allowed: true }>, client: Duplex, head: Buffer, answerConnect: boolean): void {
    // No Nagle on the relay: it forwards a live stream in pieces smaller than a segment, and Nagle
    // may hold one back until the server's delayed ACK (up to 40 ms on Linux). A loopback capture
    // showed no such hold here (the relay added ≤ 1 ms), but the RTMP server's own sends did it.
    const upstream = connect({ host: decision.address, port: decision.port, timeout: CONNECT_TIMEOUT_MS, noDelay: true });
    this.track(upstream);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      upstream.setTimeout(0);
      if (answerConnect) client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('timeout', () => upstream.destroy());
    upstream.once('error', () => {
      if (!connected && client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
      else client.destroy();
    });
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
  }
}
