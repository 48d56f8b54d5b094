import { lookup } from 'node:dns/promises';
import { addressRefusalReason, checkUrlTarget, classifyIp, hostPortKey, type AddressClass } from '@onair/protocol';

export type EgressRefusalCode = 'invalid-url' | 'scheme-not-allowed' | 'unresolvable' | Exclude<AddressClass, 'public'>;

export type EgressDecision =
  | { allowed: true; host: string; port: number; /** the checked address to connect to */ address: string }
  | { allowed: false; host: string; port: number; code: EgressRefusalCode; reason: string };

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Decides whether a page may reach host:port: the host is resolved here (never by Chromium), every
 * address it resolves to must be public, and the caller connects to the address returned, so a
 * name cannot pass the check and then re-resolve to a private address (DNS rebinding). Entries of
 * the operator allowlist (`host:port`) skip the address check for that exact name and port.
 */
export class EgressPolicy {
  constructor(
    private readonly allowed: ReadonlySet<string> = new Set(),
    private readonly resolve: Resolver = systemResolver,
  ) {}

  /** Checks a whole URL, scheme included (navigations and plain-HTTP proxy requests). */
  async checkUrl(raw: string, schemes: readonly string[] = ['http:', 'https:']): Promise<EgressDecision> {
    const target = checkUrlTarget(raw, schemes);
    if (!target.ok) {
      const allowedLiteral = this.allowedLiteral(raw);
      if (allowedLiteral) return this.check(allowedLiteral.host, allowedLiteral.port);
      const { host, port } = safeHostPort(raw);
      return { allowed: false, host, port, code: target.code, reason: target.reason };
    }
    return this.check(target.host, target.port);
  }

  /** Checks a host and port (CONNECT tunnels for https and WebSocket). */
  async check(host: string, port: number): Promise<EgressDecision> {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    const lower = bare.toLowerCase();
    const isAllowed = this.allowed.has(hostPortKey(lower, port));
    if (!isAllowed && (lower === 'localhost' || lower.endsWith('.localhost'))) {
      return { allowed: false, host: bare, port, code: 'loopback', reason: addressRefusalReason('loopback', bare) };
    }
    let addresses: string[];
    if (classifyIp(bare) !== null) {
      addresses = [bare];
    } else {
      try {
        addresses = await this.resolve(bare);
      } catch {
        addresses = [];
      }
      if (addresses.length === 0) return { allowed: false, host: bare, port, code: 'unresolvable', reason: `the name ${bare} could not be found` };
    }
    if (!isAllowed) {
      for (const address of addresses) {
        const cls = classifyIp(address);
        if (cls === null) return { allowed: false, host: bare, port, code: 'unresolvable', reason: `the name ${bare} resolved to an unusable address` };
        if (cls !== 'public') {
          const shown = address === bare ? bare : `${bare} → ${address}`;
          return { allowed: false, host: bare, port, code: cls, reason: addressRefusalReason(cls, shown) };
        }
      }
    }
    return { allowed: true, host: bare, port, address: addresses[0] ?? bare };
  }

  private allowedLiteral(raw: string): { host: string; port: number } | null {
    try {
      const url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
      const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
      return this.allowed.has(hostPortKey(url.hostname.replace(/^\[|\]$/g, ''), port)) ? { host: url.hostname, port } : null;
    } catch {
      return null;
    }
  }
}

function safeHostPort(raw: string): { host: string; port: number } {
  try {
    const url = new URL(raw);
    return { host: url.hostname, port: url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 };
  } catch {
    return { host: '', port: 0 };
  }
}
