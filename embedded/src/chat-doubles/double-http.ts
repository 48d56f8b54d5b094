import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What the three chat doubles share: a loopback HTTP server, the platform's tokens (handed out by
 * the test, refreshed through the platform's token endpoint, expired on demand), faults to inject
 * (the next calls answer 500 or 429, every connection dropped and refused for a while), and a
 * control endpoint (`POST /_double/<action>` with a JSON body) for a test in another process.
 */
export interface DoubleRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  token: string | null;
  req: IncomingMessage;
  res: ServerResponse;
}

export type Control = (body: Record<string, unknown>) => unknown;

export class ChatDoubleBase {
  readonly access = new Set<string>();
  private readonly refreshTokens = new Set<string>();
  private readonly sockets = new Set<Socket>();
  private failures: { status: number; left: number; method: string | null } | null = null;
  private downUntil = 0;
  readonly controls = new Map<string, Control>();
  /** Every API call (control and token calls excepted): method, path and query. */
  readonly calls: { method: string; path: string; query: Record<string, string>; token: string | null }[] = [];
  server!: Server;
  url = '';

  constructor(private readonly name: string) {
    this.controls.set('issue-token', () => this.issueToken());
    this.controls.set('expire-tokens', () => this.expireTokens());
    this.controls.set('fail', (b) => this.failNext(Number(b.status ?? 500), Number(b.count ?? 1), typeof b.method === 'string' ? b.method : null));
    // Answered first: dropping closes every connection, the control's own included.
    this.controls.set('drop', (b) => {
      setTimeout(() => this.drop(Number(b.ms ?? 3000)), 20);
    });
    this.controls.set('calls', () => this.calls);
  }

  issueToken(): { accessToken: string; refreshToken: string } {
    const accessToken = `${this.name}-access-${randomBytes(10).toString('hex')}`;
    const refreshToken = `${this.name}-refresh-${randomBytes(10).toString('hex')}`;
    this.access.add(accessToken);
    this.refreshTokens.add(refreshToken);
    return { accessToken, refreshToken };
  }

  /** Every access token handed out so far stops working; refresh tokens still do. */
  expireTokens(): void {
    this.access.clear();
  }

  /** Refresh-token grant (Twitch, Google) or Facebook's exchange of a still valid token. */
  refresh(form: Record<string, string>): { accessToken: string; refreshToken: string } | null {
    if (form.grant_type === 'refresh_token' && form.refresh_token && this.refreshTokens.delete(form.refresh_token)) return this.issueToken();
    if (form.grant_type === 'fb_exchange_token' && form.fb_exchange_token && this.access.has(form.fb_exchange_token)) return this.issueToken();
    return null;
  }

  /** The next `count` API calls (of `method` only, when given) answer `status`. */
  failNext(status: number, count: number, method: string | null = null): void {
    this.failures = { status, left: count, method };
  }

  /** Takes the failure of the next call, if one is armed. */
  protected takeFailure(method = 'GET'): number | null {
    if (!this.failures || this.failures.left <= 0) return null;
    if (this.failures.method && this.failures.method !== method) return null;
    this.failures.left -= 1;
    return this.failures.status;
  }

  /** Closes every connection and refuses new ones for `ms` (the platform went away and came back). */
  drop(ms: number): void {
    this.downUntil = Date.now() + ms;
    for (const socket of this.sockets) socket.destroy();
    this.onDrop();
  }

  protected onDrop(): void {}

  isDown(): boolean {
    return Date.now() < this.downUntil;
  }

  async listen(handler: (r: DoubleRequest) => Promise<void> | void, port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      void (async () => {
        if (this.isDown()) {
          req.socket.destroy();
          return;
        }
        const url = new URL(req.url ?? '/', 'http://double');
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const raw = Buffer.concat(chunks).toString();
        const type = req.headers['content-type'] ?? '';
        let body: unknown = raw;
        if (type.includes('json') && raw) body = JSON.parse(raw);
        else if (type.includes('x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(raw));
        const control = /^\/_double\/([a-z-]+)$/.exec(url.pathname)?.[1];
        if (control !== undefined && req.method === 'POST') {
          const fn = this.controls.get(control);
          if (!fn) return json(res, 404, { error: `no control ${control}` });
          return json(res, 200, { result: (await fn((body as Record<string, unknown>) || {})) ?? null });
        }
        const token = /^(?:Bearer|OAuth) (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? null;
        await handler({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body, token, req, res });
      })().catch((err: unknown) => {
        if (!res.headersSent) json(res, 500, { error: { message: String(err) } });
      });
    });
    this.server.on('connection', (socket: Socket) => {
      if (this.isDown()) {
        socket.destroy();
        return;
      }
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  record(r: DoubleRequest): void {
    this.calls.push({ method: r.method, path: r.path, query: Object.fromEntries(r.query), token: r.token });
    if (this.calls.length > 10_000) this.calls.shift();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Calls a control of a double from another process (a Playwright spec, a bench). */
export async function controlDouble<T = unknown>(url: string, action: string, body: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${url}/_double/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`double control ${action}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { result: T }).result;
}
