// A minimal browser for api tests: a cookie jar, an Origin header like a real page, and manual
// redirects so tests can look at each hop (magic links, OAuth callbacks).
import { randomBytes } from 'node:crypto';
import type { CapturedMessage } from '@onair/protocol';

export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request(method: string, pathOrUrl: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const url = new URL(pathOrUrl, this.baseUrl);
    const sameOrigin = url.origin === new URL(this.baseUrl).origin;
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(sameOrigin ? { origin: this.baseUrl } : {}),
        ...(sameOrigin && this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (sameOrigin) this.store(res);
    return res;
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** A fresh address per test, so tests never see each other's mail in the shared inbox. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.com`;
}

export async function inbox(baseUrl: string, to: string): Promise<CapturedMessage[]> {
  const res = await fetch(new URL(`/api/v1/dev/inbox?to=${encodeURIComponent(to)}`, baseUrl));
  if (!res.ok) throw new Error(`inbox answered ${res.status}`);
  return ((await res.json()) as { messages: CapturedMessage[] }).messages;
}

/** The newest message to `to` once there are at least `count` (mail is sent before the reply, so this rarely waits). */
export async function latestMessage(baseUrl: string, to: string, count = 1): Promise<CapturedMessage> {
  for (let i = 0; i < 50; i++) {
    const messages = await inbox(baseUrl, to);
    if (messages.length >= count) return messages[0]!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no message #${count} for ${to}`);
}

export function codeIn(message: CapturedMessage): string {
  const match = /\b(\d{6})\b/.exec(message.text);
  if (!match) throw new Error('no code in the message');
  return match[1]!;
}

export function linkIn(message: CapturedMessage): string {
  const match = /(https?:\/\/\S+)/.exec(message.text);
  if (!match) throw new Error('no link in the message');
  return match[1]!;
}

export async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { error?: { code: string; message: string } };
  if (!body.error) throw new Error(`expected an error body, got ${res.status} ${JSON.stringify(body)}`);
  return { status: res.status, code: body.error.code, message: body.error.message };
}

/** Signs a new or existing user in with an e-mail code read from the inbox. */
export async function signInByEmailCode(baseUrl: string, email: string): Promise<Browser> {
  const browser = new Browser(baseUrl);
  const before = (await inbox(baseUrl, email)).length;
  const sent = await browser.post('/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
  if (sent.status !== 200) throw new Error(`send code: ${sent.status} ${await sent.text()}`);
  const code = codeIn(await latestMessage(baseUrl, email, before + 1));
  const signedIn = await browser.post('/api/auth/sign-in/email-otp', { email, otp: code });
  if (signedIn.status !== 200) throw new Error(`sign in: ${signedIn.status} ${await signedIn.text()}`);
  return browser;
}
