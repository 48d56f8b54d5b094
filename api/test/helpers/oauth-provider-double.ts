// A local stand-in for Twitch, Google and Facebook sign-in: a real OAuth 2.0 authorization-code
// server over HTTP (authorize → code, token with client authentication and PKCE S256, userinfo
// with the bearer token), answering profiles in each provider's own shape. It consents at once
// as the identity the test sets, or refuses with access_denied like a user pressing Cancel.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProviderFlavour = 'twitch' | 'google' | 'facebook';

export interface Identity {
  id: string;
  email: string;
  name: string;
  emailVerified?: boolean;
  picture?: string;
}

interface IssuedCode {
  identity: Identity;
  redirectUri: string;
  codeChallenge: string | null;
  clientId: string;
}

export interface OAuthDouble {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Who consents at the next authorize; null makes the user refuse (access_denied). */
  nextIdentity: Identity | null;
  /** Every token request as received, for assertions on client authentication and PKCE. */
  tokenRequests: URLSearchParams[];
  /** Every access and refresh token handed out, for checking they are not stored as they are. */
  issuedTokens: string[];
  env(prefix: 'TWITCH' | 'GOOGLE' | 'FACEBOOK'): Record<string, string>;
  close(): Promise<void>;
}

function profileOf(flavour: ProviderFlavour, who: Identity): Record<string, unknown> {
  switch (flavour) {
    case 'twitch':
      return { sub: who.id, preferred_username: who.name, email: who.email, email_verified: who.emailVerified ?? true, picture: who.picture };
    case 'google':
      return { sub: who.id, name: who.name, email: who.email, email_verified: who.emailVerified ?? true, picture: who.picture };
    case 'facebook':
      return { id: who.id, name: who.name, email: who.email, picture: { data: { url: who.picture, is_silhouette: !who.picture } } };
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

export async function startOAuthDouble(flavour: ProviderFlavour): Promise<OAuthDouble> {
  const clientId = `client-${flavour}`;
  const clientSecret = randomBytes(12).toString('hex');
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, Identity>();
  const double = { nextIdentity: null as Identity | null, tokenRequests: [] as URLSearchParams[], issuedTokens: [] as string[] };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://double');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && url.pathname === '/authorize') {
        const redirectUri = url.searchParams.get('redirect_uri');
        const state = url.searchParams.get('state');
        if (url.searchParams.get('client_id') !== clientId || !redirectUri || url.searchParams.get('response_type') !== 'code') {
          return json(400, { error: 'invalid_request' });
        }
        const back = new URL(redirectUri);
        if (state) back.searchParams.set('state', state);
        if (!double.nextIdentity) {
          back.searchParams.set('error', 'access_denied');
        } else {
          const code = randomBytes(16).toString('hex');
          const method = url.searchParams.get('code_challenge_method');
          if (method && method !== 'S256') return json(400, { error: 'invalid_request' });
          codes.set(code, { identity: double.nextIdentity, redirectUri, codeChallenge: url.searchParams.get('code_challenge'), clientId });
          back.searchParams.set('code', code);
        }
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(await readBody(req));
        double.tokenRequests.push(form);
        const basic = req.headers.authorization?.startsWith('Basic ')
          ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString().split(':').map(decodeURIComponent)
          : null;
        const [id, secret] = basic ?? [form.get('client_id'), form.get('client_secret')];
        if (id !== clientId || secret !== clientSecret) return json(401, { error: 'invalid_client' });
        if (form.get('grant_type') !== 'authorization_code') return json(400, { error: 'unsupported_grant_type' });
        const issued = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!issued || issued.redirectUri !== form.get('redirect_uri')) return json(400, { error: 'invalid_grant' });
        if (issued.codeChallenge) {
          const verifier = form.get('code_verifier') ?? '';
          if (createHash('sha256').update(verifier).digest('base64url') !== issued.codeChallenge) return json(400, { error: 'invalid_grant' });
        }
        const accessToken = randomBytes(16).toString('hex');
        const refreshToken = randomBytes(16).toString('hex');
        tokens.set(accessToken, issued.identity);
        double.issuedTokens.push(accessToken, refreshToken);
        return json(200, { access_token: accessToken, token_type: 'bearer', expires_in: 3600, refresh_token: refreshToken, scope: 'openid email' });
      }
      if (req.method === 'GET' && url.pathname === '/userinfo') {
        const token = req.headers.authorization?.replace(/^Bearer /i, '') ?? '';
        const who = tokens.get(token);
        if (!who) return json(401, { error: 'invalid_token' });
        return json(200, profileOf(flavour, who));
      }
      json(404, { error: 'not_found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(double, {
    url,
    clientId,
    clientSecret,
    env: (prefix: 'TWITCH' | 'GOOGLE' | 'FACEBOOK') => ({
      [`${prefix}_CLIENT_ID`]: clientId,
      [`${prefix}_CLIENT_SECRET`]: clientSecret,
      [`${prefix}_AUTHORIZATION_URL`]: `${url}/authorize`,
      [`${prefix}_TOKEN_URL`]: `${url}/token`,
      [`${prefix}_USERINFO_URL`]: `${url}/userinfo`,
    }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
