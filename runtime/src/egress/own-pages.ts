import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalHost, hostPortKey } from '@onair/protocol';
import { EgressPolicy, type EgressDecision, type Resolver } from './egress-policy.ts';

/**
 * OnAir's own pages (overlays) as web-page sources of the studio. The api is often on a loopback or
 * private address (one machine, in-cluster), which the scene rules and the render worker refuse for
 * every page a creator types in. Rather than opening that origin to anyone, the api signs the
 * addresses of its own overlay pages with a secret it shares with the render worker
 * (RENDER_PAGE_SECRET): the scene rules accept a private address only with a valid signature, and
 * the render worker's egress proxy lets through, to that one origin, only requests that carry one.
 *
 * The signature covers a path prefix and the whole query (but itself): the page and what it loads
 * under its own path with the same query (its live feed at `{path}/ws`) verify; any other path of
 * the api, or the same path with another key, does not.
 */
export const OWN_PAGE_SIG_PARAM = 'onair-sig';
/** The shortest prefix a signature may cover: `/overlay/{kind}` at least, never the api's root. */
const MIN_SEGMENTS = 2;

function digest(secret: string, pathPrefix: string, query: URLSearchParams): string {
  const rest = new URLSearchParams([...query].filter(([name]) => name !== OWN_PAGE_SIG_PARAM));
  rest.sort();
  return createHmac('sha256', secret).update(`onair-own-page\n${pathPrefix}\n${rest.toString()}`).digest('base64url');
}

/** The address with its signature (any earlier one replaced); the signed prefix is the address's own path. */
export function signOwnPageUrl(secret: string, address: string): string {
  const url = new URL(address);
  const path = url.pathname.replace(/\/+$/, '');
  if (path.split('/').filter(Boolean).length < MIN_SEGMENTS) throw new Error('own pages are signed below /{area}/{kind}');
  url.searchParams.delete(OWN_PAGE_SIG_PARAM);
  url.searchParams.set(OWN_PAGE_SIG_PARAM, digest(secret, path, url.searchParams));
  return url.toString();
}

/**
 * True when the address carries a valid signature for its path or one of its parent paths (down
 * to MIN_SEGMENTS segments). Origins are not judged here: callers compare them with the api's.
 */
export function verifyOwnPageUrl(secret: string, address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  const sig = url.searchParams.get(OWN_PAGE_SIG_PARAM);
  if (!sig || sig.length > 100) return false;
  // A path with dot segments or encoded slashes could mean another path upstream than the one checked.
  if (/%2f|%5c|\/\.\.?(\/|$)/i.test(url.pathname)) return false;
  const got = Buffer.from(sig);
  const segments = url.pathname.split('/').filter(Boolean);
  for (let n = segments.length; n >= MIN_SEGMENTS; n--) {
    const want = Buffer.from(digest(secret, `/${segments.slice(0, n).join('/')}`, url.searchParams));
    if (got.length === want.length && timingSafeEqual(got, want)) return true;
  }
  return false;
}

/**
 * The render worker's side: the api's origin (RENDER_OWN_ORIGIN, plain http) and the shared secret.
 * Only signed requests to exactly that host:port pass; every other address keeps the ordinary
 * policy, and no other path of the api is reachable from a page.
 */
export class OwnPagesGate {
  /** `host:port` of each name the api answers to (one machine: localhost and 127.0.0.1). */
  readonly hostPorts: ReadonlySet<string>;
  private readonly policy: EgressPolicy;

  constructor(
    origins: string | readonly string[],
    private readonly secret: string,
    resolve: Resolver,
  ) {
    const list =
      typeof origins === 'string'
        ? origins
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean)
        : origins;
    const keys = new Set<string>();
    for (const origin of list) {
      const url = new URL(origin);
      if (url.protocol !== 'http:') throw new Error('RENDER_OWN_ORIGIN must list http:// origins (an https one is reached as any public page)');
      keys.add(hostPortKey(canonicalHost(url.hostname), Number(url.port || 80)));
    }
    if (keys.size === 0) throw new Error('RENDER_OWN_ORIGIN names no origin');
    this.hostPorts = keys;
    this.policy = new EgressPolicy(keys, resolve);
  }

  /** Whether the address is of the api's origin (signed or not). */
  isOwn(address: string): boolean {
    try {
      const url = new URL(address);
      return url.protocol === 'http:' && this.hostPorts.has(hostPortKey(canonicalHost(url.hostname), Number(url.port || 80)));
    } catch {
      return false;
    }
  }

  /** For an address of the api's origin: allowed (with the address to connect to) when signed, else refused. Null for any other origin. */
  async check(address: string): Promise<EgressDecision | null> {
    if (!this.isOwn(address)) return null;
    const url = new URL(address);
    if (!verifyOwnPageUrl(this.secret, address)) {
      return {
        allowed: false,
        host: canonicalHost(url.hostname),
        port: Number(url.port || 80),
        code: 'loopback',
        reason: 'only signed overlay addresses of OnAir itself can be loaded from its own server',
      };
    }
    return this.policy.check(url.hostname, Number(url.port || 80));
  }
}
