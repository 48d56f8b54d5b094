// The common part of the platform doubles: a real HTTP server on a loopback port with an OAuth 2.0
// authorization-code server (authorize consents at once or refuses like a user pressing Cancel,
// token checks client credentials and the redirect URI, refresh and Facebook's token exchange),
// bearer tokens the platform's API routes check, and a record of every API call.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  /** The bearer token the call carried. */
  token: string | null;
}

export interface ApiRequest extends RecordedCall {
  headers: IncomingMessage['headers'];
}

export interface ApiReply {
  status: number;
  body?: unknown;
  /** Extra response headers (Twitch's Ratelimit-* headers). */
  headers?: Record<string, string>;
}

export type ApiRoute = (req: ApiRequest) => ApiReply | null;

export interface OAuthShape {
  authorizePath: string;
  tokenPath: string;
  /** Answer of a successful grant, in the platform's shape. */
  tokenAnswer(access: string, refresh: string | null): Record<string, unknown>;
  /** Error body of a refused grant, in the platform's shape. */
  grantError(message: string): Record<string, unknown>;
  /** Error body of a call with a bad token. */
  unauthorized(): Record<string, unknown>;
  /** Whether code grants hand out refresh tokens (Facebook's do not). */
  refreshTokens: boolean;
}

export interface PlatformDouble {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every API call (not the OAuth endpoints), in order. */
  calls: RecordedCall[];
  /** Every token request as received (form fields). */
  tokenRequests: Record<string, string>[];
  /** Makes the next authorize refuse (access_denied). */
  refuseConsent: boolean;
  /** Makes every access token handed out so far invalid (the platform answers 401); refresh still works. */
  expireAccessTokens(): void;
  /** Revokes everything: access and refresh tokens are refused. */
  revokeAll(): void;
  /** A valid access token handed out without an OAuth flow (a bot account's token, set up by an operator). */
  issueAccessToken(): string;
  isValidToken(token: string | null): boolean;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (status === 204 || body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function startPlatformDouble(name: string, shape: OAuthShape, routes: (double: PlatformDouble) => ApiRoute): Promise<PlatformDouble> {
  const clientId = `client-${name}`;
  const clientSecret = randomBytes(12).toString('hex');
  const codes = new Map<string, string>(); // code → redirect_uri
  const access = new Set<string>();
  const refresh = new Set<string>();
  const issue = () => {
    const a = `${name}-access-${randomBytes(12).toString('hex')}`;
    access.add(a);
    let r: string | null = null;
    if (shape.refreshTokens) {
      r = `${name}-refresh-${randomBytes(12).toString('hex')}`;
      refresh.add(r);
    }
    return { a, r };
  };

  const double: PlatformDouble = {
    url: '',
    clientId,
    clientSecret,
    calls: [],
    tokenRequests: [],
    refuseConsent: false,
    expireAccessTokens: () => access.clear(),
    revokeAll: () => {
      access.clear();
      refresh.clear();
    },
    isValidToken: (token) => token !== null && access.has(token),
    issueAccessToken: () => issue().a,
    close: async () => {},
  };
  const api = routes(double);

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://double');
      const query = Object.fromEntries(url.searchParams);
      const raw = await readBody(req);
      if (url.pathname === shape.authorizePath) {
        const redirect = new URL(query.redirect_uri ?? '');
        if (query.client_id !== clientId) return sendJson(res, 400, shape.grantError('unknown client'));
        if (double.refuseConsent) {
          double.refuseConsent = false;
          redirect.search = new URLSearchParams({ error: 'access_denied', error_description: 'The user denied access', state: query.state ?? '' }).toString();
        } else {
          const code = randomBytes(12).toString('hex');
          codes.set(code, redirect.origin + redirect.pathname);
          redirect.search = new URLSearchParams({ code, state: query.state ?? '' }).toString();
        }
        res.writeHead(302, { location: redirect.toString() }).end();
        return;
      }
      if (url.pathname === shape.tokenPath) {
        const form = Object.fromEntries(new URLSearchParams(raw));
        double.tokenRequests.push(form);
        if (form.client_id !== clientId || form.client_secret !== clientSecret) return sendJson(res, 401, shape.grantError('invalid client'));
        if (form.grant_type === 'refresh_token') {
          if (!form.refresh_token || !refresh.delete(form.refresh_token)) return sendJson(res, 400, shape.grantError('Invalid refresh token'));
          const { a, r } = issue();
          return sendJson(res, 200, shape.tokenAnswer(a, r));
        }
        if (form.grant_type === 'fb_exchange_token') {
          if (!form.fb_exchange_token || !access.has(form.fb_exchange_token)) return sendJson(res, 400, shape.grantError('Error validating access token'));
          const { a } = issue();
          return sendJson(res, 200, shape.tokenAnswer(a, null));
        }
        const redirectUri = form.code ? codes.get(form.code) : undefined;
        if (!form.code || redirectUri === undefined || redirectUri !== form.redirect_uri)
          return sendJson(res, 400, shape.grantError('Invalid authorization code'));
        codes.delete(form.code);
        const { a, r } = issue();
        return sendJson(res, 200, shape.tokenAnswer(a, r));
      }
      const auth = req.headers.authorization ?? '';
      const token = /^(Bearer|OAuth) (.+)$/i.exec(auth)?.[2] ?? null;
      let body: unknown = raw;
      if ((req.headers['content-type'] ?? '').includes('json')) body = raw ? JSON.parse(raw) : undefined;
      else if ((req.headers['content-type'] ?? '').includes('x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(raw));
      const call: ApiRequest = { method: req.method ?? 'GET', path: url.pathname, query, body, token, headers: req.headers };
      double.calls.push({ method: call.method, path: call.path, query, body, token });
      if (!double.isValidToken(token) && !url.pathname.endsWith('/ingests')) return sendJson(res, 401, shape.unauthorized());
      const reply = api(call);
      if (!reply) return sendJson(res, 404, { error: { message: `no route ${call.method} ${call.path}` } });
      sendJson(res, reply.status, reply.body, reply.headers);
    })().catch((err: unknown) => sendJson(res, 500, { error: { message: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  double.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  double.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return double;
}
