import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

/** An account of a platform double: who signed in on its consent page (test mode). */
export interface DoubleAccount {
  id: string;
  login: string;
  displayName: string;
  email: string;
}

/** Where a test-mode platform's stream goes: the local RTMP server, with the key the platform hands out to each channel. */
export interface TestModeIngest {
  rtmpUrl: string;
  keys: TestModeStreamKeys;
}

/**
 * The stream keys a test-mode platform double hands out: one per channel (the account that signed
 * in on its consent page), as Twitch, YouTube and Facebook do, each a long random string. The local
 * RTMP server's publish gate asks `owns` (the one-machine stack: platform-test-mode.ts). Kept in a
 * file across restarts when told, like the tokens: a connected destination keeps its key.
 */
export class TestModeStreamKeys {
  private readonly byChannel = new Map<string, string>();
  private readonly channels = new Map<string, string>();
  private file: string | null = null;

  constructor(private readonly prefix: string) {}

  persistIn(file: string): void {
    this.file = file;
    if (!existsSync(file)) return;
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      for (const entry of Array.isArray(saved) ? saved : []) {
        const [channel, key] = entry as [unknown, unknown];
        if (typeof channel === 'string' && typeof key === 'string') this.remember(channel, key);
      }
    } catch {
      // A damaged file: every channel gets a new key when it next asks.
    }
  }

  private remember(channel: string, key: string): void {
    this.byChannel.set(channel, key);
    this.channels.set(key, channel);
  }

  /** The channel's stream key, made the first time it is asked for. */
  keyOf(channel: string): string {
    const known = this.byChannel.get(channel);
    if (known) return known;
    const key = `${this.prefix}${randomBytes(18).toString('base64url')}`;
    this.remember(channel, key);
    if (this.file) writeFileSync(this.file, JSON.stringify([...this.byChannel]), { mode: 0o600 });
    return key;
  }

  /** The channel a key was handed out to; undefined for a key this platform never issued. */
  channelOf(key: string): string | undefined {
    return this.channels.get(key);
  }
}

/** A double's sign-in addresses (consent-sign-in.ts): they answer before the double's own routes. */
export interface SignInHandler {
  /** Answers the request when it is one of the sign-in addresses. */
  handle(r: DoubleRequest): boolean;
  /** The token endpoint's authorization-code grant. */
  redeem(form: Record<string, string>): { accessToken: string; refreshToken: string } | null;
}

/**
 * The tokens of one platform, shared by its doubles (one Twitch login serves chat, EventSub and
 * Helix, as on Twitch): access and refresh tokens, and whose each is when a sign-in handed it out
 * (the tokens of the `issue-token` control belong to nobody).
 */
export class DoubleTokens {
  readonly access = new Set<string>();
  readonly refresh = new Set<string>();
  readonly owners = new Map<string, DoubleAccount>();
  private file: string | null = null;

  /**
   * Keeps the tokens in `file` from now on, starting from what it holds: the one-machine stack's
   * destinations stay connected across a restart, as they would with the real platform. A file
   * that cannot be read is ignored (every destination then asks to be authorized again).
   */
  persistIn(file: string): void {
    this.file = file;
    if (!existsSync(file)) return;
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { access?: unknown; refresh?: unknown; owners?: unknown };
      for (const t of Array.isArray(saved.access) ? saved.access : []) if (typeof t === 'string') this.access.add(t);
      for (const t of Array.isArray(saved.refresh) ? saved.refresh : []) if (typeof t === 'string') this.refresh.add(t);
      for (const entry of Array.isArray(saved.owners) ? saved.owners : []) {
        const [token, a] = entry as [unknown, Partial<DoubleAccount> | undefined];
        if (
          typeof token === 'string' &&
          a &&
          typeof a.id === 'string' &&
          typeof a.login === 'string' &&
          typeof a.displayName === 'string' &&
          typeof a.email === 'string'
        ) {
          this.owners.set(token, { id: a.id, login: a.login, displayName: a.displayName, email: a.email });
        }
      }
    } catch {
      // A damaged file: start without tokens.
    }
  }

  /** Writes the tokens to their file (when they are kept in one) after every change. */
  changed(): void {
    if (!this.file) return;
    writeFileSync(this.file, JSON.stringify({ access: [...this.access], refresh: [...this.refresh], owners: [...this.owners] }), { mode: 0o600 });
  }
}

export class ChatDoubleBase {
  tokens = new DoubleTokens();
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

  /** The access tokens this double accepts now. */
  get access(): Set<string> {
    return this.tokens.access;
  }

  /** From now on this double accepts the other's tokens, and the other this one's (one login of a platform serves both). */
  shareTokensWith(other: ChatDoubleBase): void {
    this.tokens = other.tokens;
  }

  issueToken(owner?: DoubleAccount): { accessToken: string; refreshToken: string } {
    const accessToken = `${this.name}-access-${randomBytes(10).toString('hex')}`;
    const refreshToken = `${this.name}-refresh-${randomBytes(10).toString('hex')}`;
    this.tokens.access.add(accessToken);
    this.tokens.refresh.add(refreshToken);
    if (owner) {
      this.tokens.owners.set(accessToken, owner);
      this.tokens.owners.set(refreshToken, owner);
    }
    this.tokens.changed();
    return { accessToken, refreshToken };
  }

  /** The account a token was handed out to at a sign-in; undefined for tokens of nobody. */
  ownerOf(token: string | null): DoubleAccount | undefined {
    return token && this.tokens.access.has(token) ? this.tokens.owners.get(token) : undefined;
  }

  /** Every access token handed out so far stops working; refresh tokens still do. */
  expireTokens(): void {
    for (const token of this.tokens.access) this.tokens.owners.delete(token);
    this.tokens.access.clear();
    this.tokens.changed();
  }

  /**
   * The token endpoint's grants: an authorization code from the consent page (test mode), the
   * refresh-token grant (Twitch, Google) or Facebook's exchange of a still valid token.
   */
  refresh(form: Record<string, string>): { accessToken: string; refreshToken: string } | null {
    if (form.code !== undefined && (form.grant_type === 'authorization_code' || form.grant_type === undefined)) return this.signIn?.redeem(form) ?? null;
    if (form.grant_type === 'refresh_token' && form.refresh_token && this.tokens.refresh.delete(form.refresh_token)) {
      const owner = this.tokens.owners.get(form.refresh_token);
      this.tokens.owners.delete(form.refresh_token);
      return this.issueToken(owner);
    }
    if (form.grant_type === 'fb_exchange_token' && form.fb_exchange_token && this.access.has(form.fb_exchange_token))
      return this.issueToken(this.tokens.owners.get(form.fb_exchange_token));
    return null;
  }

  /** Sign-in with consent (the test mode of the one-machine stack); none unless enabled. */
  signIn: SignInHandler | null = null;

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
        const request: DoubleRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body, token, req, res };
        if (this.signIn?.handle(request)) return;
        await handler(request);
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
