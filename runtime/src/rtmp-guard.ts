import { lookup } from 'node:dns/promises';
import { addressRefusalReason, checkRtmpUrlTarget, classifyIp } from '@onair/protocol';

const LOOKUP_TIMEOUT_MS = 3000;

export type Resolve = (host: string) => Promise<string[]>;
const systemResolve: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Why an RTMP(S) URL must not be streamed to, or null when it may: an invalid URL, another scheme,
 * or a host that is (or resolves to) a private, loopback or otherwise internal address, unless
 * `allowPrivate` (an operator's LAN setup, the operator's own server). The cloud metadata address
 * is refused whatever the setting. A name that does not resolve now is let through: the
 * connection then fails as unreachable. The api checks at save time; the media worker again right
 * before every connection, since a name may be pointed elsewhere after it was saved.
 */
export async function rtmpAddressRefusal(url: string, allowPrivate: boolean, resolve: Resolve = systemResolve): Promise<string | null> {
  const check = checkRtmpUrlTarget(url);
  const allowed = (cls: string) => allowPrivate && cls !== 'metadata';
  if (!check.ok) return allowed(check.code) && check.code !== 'invalid-url' && check.code !== 'scheme-not-allowed' ? null : check.reason;
  if (check.ip !== null) return null;
  let addresses: string[];
  try {
    addresses = await Promise.race([
      resolve(check.host),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('dns timeout')), LOOKUP_TIMEOUT_MS).unref()),
    ]);
  } catch {
    return null;
  }
  for (const address of addresses) {
    const cls = classifyIp(address);
    if (cls !== null && cls !== 'public' && !allowed(cls)) return `${addressRefusalReason(cls, address)}: ${check.host} resolves there`;
  }
  return null;
}
