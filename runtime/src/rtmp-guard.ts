import { checkRtmpUrlTarget, hostPortKey } from '@onair/protocol';
import { EgressPolicy, systemResolver, type Resolver } from './egress/egress-policy.ts';

/**
 * Why an RTMP(S) URL must not be saved as a destination, or null when it may: an invalid URL,
 * another scheme, or a host that is (or resolves to) a private, loopback or otherwise internal
 * address in any spelling, unless `allowPrivate` (an operator's LAN setup, the operator's own
 * server). The cloud metadata address is refused whatever the setting. It is the egress rule of
 * EgressPolicy; only a name that does not resolve at save time is let through, because the media
 * worker checks every connection with the same policy (resolving once, refusing the same way, and
 * refusing a name it cannot resolve) and connects to the address it checked.
 */
export async function rtmpAddressRefusal(url: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<string | null> {
  const check = checkRtmpUrlTarget(url);
  if (!check.ok) {
    if (check.code === 'invalid-url' || check.code === 'scheme-not-allowed' || check.code === 'metadata' || !allowPrivate) return check.reason;
    return null;
  }
  const policy = new EgressPolicy(allowPrivate ? new Set([hostPortKey(check.host, check.port)]) : new Set(), resolve);
  const decision = await policy.check(check.host, check.port);
  return decision.allowed || decision.code === 'unresolvable' ? null : decision.reason;
}
