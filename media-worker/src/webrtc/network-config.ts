import { isIP } from 'node:net';
import { parseIceServers, type IceServer } from '@onair/protocol';

/** How the worker's peers reach browsers across networks. */
export interface WebrtcNetwork {
  iceServers: IceServer[];
  /** Host candidates besides the machine's own interfaces: loopback, or a node's public address. */
  additionalHostAddresses: string[] | undefined;
  /** The UDP ports ICE binds, for a firewall or a pod's host ports; any port when unset. */
  icePortRange: [number, number] | undefined;
  /** `relay`: reach browsers only through the TURN servers (a worker whose addresses browsers cannot reach). */
  iceTransportPolicy: 'all' | 'relay';
}

/**
 * Reads WEBRTC_ICE_SERVERS (JSON list, the api's too), WEBRTC_ANNOUNCED_ADDRESSES (comma-separated
 * IPs, e.g. the public address of a node whose pods use host networking), WEBRTC_ICE_PORTS
 * (`min-max`), WEBRTC_ICE_TRANSPORT_POLICY (`all` or `relay`) and WEBRTC_LOOPBACK (a 127.0.0.1
 * candidate for a studio on the same machine; `0` in a cluster). A bad value throws with its
 * reason, so a worker never starts unreachable.
 */
export function webrtcNetwork(env: NodeJS.ProcessEnv = process.env): WebrtcNetwork {
  const announced = (env.WEBRTC_ANNOUNCED_ADDRESSES ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const bad = announced.find((a) => isIP(a) === 0);
  if (bad) throw new Error(`WEBRTC_ANNOUNCED_ADDRESSES: '${bad}' is not an IP address`);
  const addresses = [...(env.WEBRTC_LOOPBACK === '0' ? [] : ['127.0.0.1']), ...announced];
  let icePortRange: [number, number] | undefined;
  if (env.WEBRTC_ICE_PORTS) {
    const match = /^(\d+)-(\d+)$/.exec(env.WEBRTC_ICE_PORTS.trim());
    const [min, max] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
    if (!(min >= 1024 && max <= 65535 && min <= max))
      throw new Error(`WEBRTC_ICE_PORTS: '${env.WEBRTC_ICE_PORTS}' is not a range like 40000-40999 within 1024-65535`);
    icePortRange = [min, max];
  }
  const policy = env.WEBRTC_ICE_TRANSPORT_POLICY ?? 'all';
  if (policy !== 'all' && policy !== 'relay') throw new Error(`WEBRTC_ICE_TRANSPORT_POLICY: '${policy}' is neither all nor relay`);
  const iceServers = parseIceServers(env.WEBRTC_ICE_SERVERS);
  if (policy === 'relay' && !iceServers.some((s) => [s.urls].flat().some((u) => u.startsWith('turn')))) {
    throw new Error('WEBRTC_ICE_TRANSPORT_POLICY=relay needs a TURN server in WEBRTC_ICE_SERVERS');
  }
  return { iceServers, additionalHostAddresses: addresses.length > 0 ? addresses : undefined, icePortRange, iceTransportPolicy: policy };
}
