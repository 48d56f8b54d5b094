import { lookup, Resolver as DnsResolver } from 'node:dns/promises';
import { addressRefusalReason, canonicalHost, checkUrlTarget, classifyIp, hostPortKey, type AddressClass } from '@onair/protocol';

export type EgressRefusalCode = 'invalid-url' | 'scheme-not-allowed' | 'unresolvable' | Exclude<AddressClass, 'public'>;

export type EgressDecision =
  | { allowed: true; host: string; port: number /** the checked address to connect to */; address: string }
  | { allowed: false; host: string; port: number; code: EgressRefusalCode; reason: string };

export type Resolver = (host: string) => Promise<string[]>;

const LOOKUP_TIMEOUT_MS = 3000;

/** The machine's resolver (getaddrinfo: /etc/hosts, then DNS). */
export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * A resolver that asks these DNS servers only (`EGRESS_DNS_SERVERS`, "ip" or "ip:port" each): in a
 * cluster, names users give should be resolved by a public resolver, not by the cluster DNS that
 * knows every internal service name. Both A and AAAA answers count.
 */
export function dnsServersResolver(servers: readonly string[]): Resolver {
  const resolver = new DnsResolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 2 });
  resolver.setServers([...servers]);
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    return [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
  };
}

/** The resolver egress uses in this process: the servers of `EGRESS_DNS_SERVERS` when set, else the system's. */
export function egressResolver(env: NodeJS.ProcessEnv = process.env): Resolver {
  const servers = (env.EGRESS_DNS_SERVERS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return servers.length > 0 ? dnsServersResolver(servers) : systemResolver;
}

async function resolveWithTimeout(resolve: Resolver, host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      resolve(host),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('dns timeout')), LOOKUP_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The one rule for where OnAir's servers may connect on a creator's behalf (web pages rendered by
 * the render worker, RTMP destinations pushed by the media worker): the host is resolved here
 * (never by Chromium or GStreamer), every address it resolves to must be public, and the caller
 * connects to the address returned, so a name cannot pass the check and then re-resolve elsewhere
 * (DNS rebinding), whatever its spelling (`localhost.`, `127.0.0.1.`, `2130706433`).
 *
 * Entries of `allowed` (`host:port`, matched on the name asked for, never on the resolved address)
 * may reach private and loopback addresses: an operator's allowlist, the operator's own RTMP
 * server. The cloud metadata address is refused whatever the allowlist says.
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
      const allowedLiteral = this.allowedLiteral(raw, schemes);
      if (allowedLiteral) return this.check(allowedLiteral.host, allowedLiteral.port);
      const { host, port } = safeHostPort(raw);
      return { allowed: false, host, port, code: target.code, reason: target.reason };
    }
    return this.check(target.host, target.port);
  }

  /** Checks a host and port (CONNECT tunnels for https, WebSocket and RTMP). */
  async check(host: string, port: number): Promise<EgressDecision> {
    const bare = canonicalHost(host);
    const isAllowed = this.allowed.has(hostPortKey(bare, port));
    const refuse = (code: EgressRefusalCode, reason: string): EgressDecision => ({ allowed: false, host: bare, port, code, reason });
    if (!isAllowed && (bare === 'localhost' || bare.endsWith('.localhost'))) return refuse('loopback', addressRefusalReason('loopback', bare));
    let addresses: string[];
    if (classifyIp(bare) !== null) {
      addresses = [bare];
    } else {
      try {
        addresses = await resolveWithTimeout(this.resolve, bare);
      } catch {
        addresses = [];
      }
      if (addresses.length === 0) return refuse('unresolvable', `the name ${bare} could not be found`);
    }
    for (const address of addresses) {
      const cls = classifyIp(address);
      if (cls === null) return refuse('unresolvable', `the name ${bare} resolved to an unusable address`);
      if (cls === 'public' || (isAllowed && cls !== 'metadata')) continue;
      const shown = address === bare ? bare : `${bare} → ${address}`;
      return refuse(cls, addressRefusalReason(cls, shown));
    }
    return { allowed: true, host: bare, port, address: addresses[0] ?? bare };
  }

  private allowedLiteral(raw: string, schemes: readonly string[]): { host: string; port: number } | null {
    try {
      const url = new URL(raw);
      if (!schemes.includes(url.protocol)) return null;
      const { host, port } = safeHostPort(raw);
      return this.allowed.has(hostPortKey(canonicalHost(host), port)) ? { host, port } : null;
    } catch {
      return null;
    }
  }
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'rtmp:': 1935, 'rtmps:': 443 };

function safeHostPort(raw: string): { host: string; port: number } {
  try {
    const url = new URL(raw);
    return { host: url.hostname, port: url.port !== '' ? Number(url.port) : (DEFAULT_PORTS[url.protocol] ?? 80) };
  } catch {
    return { host: '', port: 0 };
  }
}
