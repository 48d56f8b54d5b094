import { randomBytes } from 'node:crypto';
import type { DoubleAccount, DoubleRequest } from './double-http.ts';
import { json } from './double-http.ts';

/**
 * The sign-in side of a platform double in the one-machine stack's test mode: an OAuth 2.0
 * authorization-code server as the api's platform code meets a real one. The authorize address
 * shows a consent page, clearly labelled as test mode, where the person picks the account name to
 * act as and allows or cancels; the answer goes back to the registered redirect address with a
 * one-time code (or `error=access_denied`), and the double's token endpoint redeems the code for
 * tokens of that account, checking the client's id, secret and redirect address as a platform
 * does. A userinfo address answers the account behind a bearer token.
 */
export interface ConsentSignInOptions {
  /** The platform's name as the page shows it: 'Twitch', 'YouTube', 'Facebook'. */
  platform: string;
  brandColor: string;
  authorizePath: string;
  userinfoPath?: string;
  clientId: string;
  clientSecret: string;
  /** Origins a redirect_uri may have (the api's public address): anything else is refused, as platforms refuse unregistered ones. */
  redirectOrigins: string[];
  /** The name offered on the consent page. */
  defaultName: string;
  /** The account a name stands for (the same name is the same account every time). */
  accountOf(name: string): DoubleAccount;
  /** The userinfo answer in the platform's shape. */
  profileOf(account: DoubleAccount): Record<string, unknown>;
  /** Hands out tokens of an account (the double's token store). */
  issue(account: DoubleAccount): { accessToken: string; refreshToken: string };
  /** Called when someone allowed access (the double's metadata, e.g. the YouTube channel's owner). */
  onSignIn?(account: DoubleAccount): void;
  /** The account behind a bearer token. */
  ownerOf(token: string | null): DoubleAccount | undefined;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  account: DoubleAccount;
  expiresAt: number;
}

const CODE_TTL_MS = 10 * 60_000;
const NAME_RULE = /^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,39}$/;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class ConsentSignIn {
  private readonly codes = new Map<string, IssuedCode>();
  /** Every consent given or refused, for tests: the account name and the decision. */
  readonly decisions: { name: string; allowed: boolean }[] = [];

  constructor(private readonly options: ConsentSignInOptions) {}

  /** Registers one more origin the consent may send the browser back to (an api whose port was picked after the double started). */
  allowRedirectOrigin(origin: string): void {
    if (!this.options.redirectOrigins.includes(origin)) this.options.redirectOrigins.push(origin);
  }

  /** Handles the sign-in addresses; false for any other request (the double's own routes answer those). */
  handle(r: DoubleRequest): boolean {
    const o = this.options;
    if (r.path === o.authorizePath && r.method === 'GET') {
      this.authorizePage(r);
      return true;
    }
    if (r.path === o.authorizePath && r.method === 'POST') {
      this.decide(r);
      return true;
    }
    if (o.userinfoPath && r.path === o.userinfoPath && r.method === 'GET') {
      const account = o.ownerOf(r.token);
      if (!account) json(r.res, 401, { error: 'invalid_token', error_description: 'The access token is not valid.' });
      else json(r.res, 200, o.profileOf(account));
      return true;
    }
    return false;
  }

  /** The token endpoint's authorization-code grant: tokens of the consenting account, once per code. */
  redeem(form: Record<string, string>): { accessToken: string; refreshToken: string } | null {
    const issued = form.code ? this.codes.get(form.code) : undefined;
    if (!issued || !form.code) return null;
    this.codes.delete(form.code);
    if (
      issued.expiresAt < Date.now() ||
      form.client_id !== issued.clientId ||
      form.client_secret !== this.options.clientSecret ||
      form.redirect_uri !== issued.redirectUri
    )
      return null;
    return this.options.issue(issued.account);
  }

  /** The checks of the authorize request a platform makes before it shows anything: its client, a code flow, a registered redirect. */
  private checkRequest(q: Record<string, string | undefined>): { redirect: URL } | { error: string } {
    if (q.client_id !== this.options.clientId) return { error: 'This application is not known (client_id).' };
    if (q.response_type !== undefined && q.response_type !== 'code') return { error: 'Only the authorization-code flow is supported (response_type=code).' };
    let redirect: URL;
    try {
      redirect = new URL(q.redirect_uri ?? '');
    } catch {
      return { error: 'The redirect address is missing or not valid.' };
    }
    if (!this.options.redirectOrigins.includes(redirect.origin))
      return { error: `The redirect address ${redirect.origin} is not registered for this application.` };
    return { redirect };
  }

  private authorizePage(r: DoubleRequest): void {
    const q = Object.fromEntries(r.query);
    const checked = this.checkRequest(q);
    if ('error' in checked) return this.errorPage(r, checked.error);
    const o = this.options;
    const hidden = ['client_id', 'redirect_uri', 'state', 'scope', 'response_type']
      .filter((k) => q[k] !== undefined)
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q[k]!)}">`)
      .join('');
    const scopes = (q.scope ?? '')
      .split(/[ ,]+/)
      .filter((s) => s !== '')
      .map((s) => `<li>${escapeHtml(s)}</li>`)
      .join('');
    this.page(
      r,
      200,
      `Connect to ${o.platform} — test mode`,
      `<p class="badge" role="note">Test mode — no real ${escapeHtml(o.platform)} account</p>
<h1>Connect OnAir to ${escapeHtml(o.platform)}?</h1>
<p>This page stands in for ${escapeHtml(o.platform)}'s sign-in on this machine. Nothing reaches ${escapeHtml(o.platform)}: the account below exists only here, and its stream goes to this machine's RTMP server.</p>
<form method="post" action="${escapeHtml(o.authorizePath)}">${hidden}
<label for="name">Test account name</label>
<input id="name" name="name" value="${escapeHtml(o.defaultName)}" required maxlength="40" pattern="[A-Za-z0-9_][A-Za-z0-9_ .\\-]{0,39}" autocomplete="off">
${scopes ? `<details><summary>Access OnAir asks for</summary><ul>${scopes}</ul></details>` : ''}
<div class="actions"><button type="submit" name="decision" value="deny" class="secondary">Cancel</button><button type="submit" name="decision" value="allow">Authorize</button></div>
</form>`,
    );
  }

  private decide(r: DoubleRequest): void {
    const form = (r.body && typeof r.body === 'object' ? r.body : {}) as Record<string, string>;
    const checked = this.checkRequest(form);
    if ('error' in checked) return this.errorPage(r, checked.error);
    const back = checked.redirect;
    const name = (form.name ?? '').trim();
    if (form.decision !== 'allow') {
      this.decisions.push({ name, allowed: false });
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user denied access');
    } else {
      if (!NAME_RULE.test(name)) return this.errorPage(r, 'The account name must be 1 to 40 letters, digits, spaces, dots, dashes or underscores.');
      const account = this.options.accountOf(name);
      this.decisions.push({ name, allowed: true });
      this.options.onSignIn?.(account);
      const code = randomBytes(16).toString('hex');
      this.codes.set(code, { clientId: form.client_id!, redirectUri: form.redirect_uri!, account, expiresAt: Date.now() + CODE_TTL_MS });
      back.searchParams.set('code', code);
    }
    if (form.state !== undefined) back.searchParams.set('state', form.state);
    r.res.writeHead(302, { location: back.toString(), 'cache-control': 'no-store' }).end();
  }

  private errorPage(r: DoubleRequest, message: string): void {
    this.page(
      r,
      400,
      `${this.options.platform} — test mode`,
      `<p class="badge" role="note">Test mode — no real ${escapeHtml(this.options.platform)} account</p><h1>This sign-in cannot go on</h1><p role="alert">${escapeHtml(message)}</p>`,
    );
  }

  private page(r: DoubleRequest, status: number, title: string, body: string): void {
    const color = /^#[0-9A-Fa-f]{6}$/.test(this.options.brandColor) ? this.options.brandColor : '#444444';
    r.res
      .writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
      })
      .end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>
body{margin:0;font:15px/1.45 system-ui,sans-serif;background:#f4f4f6;color:#18181b}
main{max-width:420px;margin:32px auto;padding:24px;background:#fff;border-radius:12px;border-top:6px solid ${color};box-shadow:0 2px 12px rgba(0,0,0,.08)}
h1{font-size:20px;margin:8px 0 12px}
.badge{display:inline-block;margin:0;padding:4px 10px;border-radius:999px;background:#fff4d6;color:#6b4a00;font-weight:600;font-size:13px}
label{display:block;font-weight:600;margin:16px 0 6px}
input[type=text],input:not([type]){box-sizing:border-box;width:100%;padding:8px 10px;border:1px solid #c4c4cc;border-radius:8px;font:inherit}
details{margin-top:12px;color:#52525b}
.actions{display:flex;justify-content:flex-end;gap:8px;margin-top:20px}
button{padding:8px 16px;border-radius:8px;border:0;background:${color};color:#fff;font:inherit;font-weight:600;cursor:pointer}
button.secondary{background:#e4e4e7;color:#18181b}
</style></head><body><main>${body}</main></body></html>`);
  }
}
