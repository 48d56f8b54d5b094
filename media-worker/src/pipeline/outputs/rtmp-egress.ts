import { canonicalHost, hostPortKey } from '@onair/protocol';
import { EgressPolicy, egressResolver, type EgressDecision, type Resolver } from '@onair/runtime';

/** What a destination output needs of the egress: where its server may be reached, if anywhere. */
export interface OutputEgress {
  /**
   * Resolves the URL's host once and checks every address (loopback, private and metadata
   * addresses in any spelling are refused; private ones are allowed when `allowPrivate`, the
   * operator's own server). The connection must go to `address` of an allowed decision.
   */
  check(url: string, allowPrivate: boolean): Promise<EgressDecision>;
}

const DEFAULT_PORTS: Record<string, number> = { 'rtmp:': 1935, 'rtmps:': 443 };

/**
 * The media worker's egress rule for RTMP destinations (runtime's EgressPolicy): the publisher
 * connects to the address checked here and nowhere else, so a name that passed the api's check
 * when it was saved and now points at an internal address (DNS rebinding) is refused, while the
 * tcUrl and the TLS server name still carry the name.
 */
export class RtmpEgress implements OutputEgress {
  constructor(private readonly resolve: Resolver = egressResolver()) {}

  async check(url: string, allowPrivate: boolean): Promise<EgressDecision> {
    let host: string;
    let port: number;
    try {
      const parsed = new URL(url);
      const defaultPort = DEFAULT_PORTS[parsed.protocol];
      if (defaultPort === undefined)
        return { allowed: false, host: parsed.hostname, port: 0, code: 'scheme-not-allowed', reason: `${parsed.protocol} is not an RTMP address` };
      host = parsed.hostname;
      port = parsed.port !== '' ? Number(parsed.port) : defaultPort;
    } catch {
      return { allowed: false, host: '', port: 0, code: 'invalid-url', reason: 'not a valid address' };
    }
    const allowed = allowPrivate ? new Set([hostPortKey(canonicalHost(host), port)]) : new Set<string>();
    return new EgressPolicy(allowed, this.resolve).check(host, port);
  }
}
