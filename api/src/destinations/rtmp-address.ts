import { lookup } from 'node:dns/promises';
import { addressClassReasons, checkRtmpUrlTarget, classifyIp, OnAirError } from '@onair/protocol';

const LOOKUP_TIMEOUT_MS = 3000;

export interface RtmpAddressPolicy {
  allowPrivate: boolean;
  /** The operator's own local server: always allowed, whatever `allowPrivate` says. */
  localRtmpUrl: string | undefined;
}

function refused(reason: string): OnAirError {
  return new OnAirError('DESTINATION_ADDRESS_REFUSED', `That server address cannot be used: ${reason}.`, { field: 'rtmpUrl', reason });
}

/**
 * Refuses an RTMP URL that points at a private, loopback or otherwise internal address (spec §5),
 * unless the operator allows private RTMP. A name is resolved and every address it has checked; a
 * name that does not resolve now is let through (the output then fails with "unreachable"), since
 * DNS can be briefly down. The media worker checks again at connect time against rebinding.
 * Allowing private RTMP (a studio on a LAN) never allows the cloud metadata service.
 */
export async function assertRtmpAddressAllowed(url: string, policy: RtmpAddressPolicy): Promise<void> {
  if (policy.localRtmpUrl && url.toLowerCase().replace(/\/+$/, '') === policy.localRtmpUrl.toLowerCase().replace(/\/+$/, '')) return;
  const check = checkRtmpUrlTarget(url);
  const allowed = (cls: string) => policy.allowPrivate && cls !== 'metadata';
  if (!check.ok) {
    if (allowed(check.code) && check.code !== 'invalid-url' && check.code !== 'scheme-not-allowed') return;
    throw refused(check.reason);
  }
  if (check.ip !== null) return;
  let addresses: { address: string }[];
  try {
    addresses = await Promise.race([
      lookup(check.host, { all: true, verbatim: true }),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('dns timeout')), LOOKUP_TIMEOUT_MS).unref()),
    ]);
  } catch {
    return;
  }
  for (const { address } of addresses) {
    const cls = classifyIp(address);
    if (cls !== null && cls !== 'public' && !allowed(cls)) throw refused(`${addressClassReasons[cls]} (${check.host} resolves to ${address})`);
  }
}
