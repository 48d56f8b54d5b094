import { OnAirError } from '@onair/protocol';
import { rtmpAddressRefusal } from '@onair/runtime';

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
 * unless the operator allows private RTMP or it is the operator's own local server (the shared
 * rule: runtime's rtmpAddressRefusal). The media worker checks again before every connection,
 * against a name re-pointed after it was saved (DNS rebinding).
 */
export async function assertRtmpAddressAllowed(url: string, policy: RtmpAddressPolicy): Promise<void> {
  const reason = await rtmpAddressRefusal(url, privateAllowed(url, policy));
  if (reason) throw refused(reason);
}

/** Whether this output may reach a private address: the operator's own server, or a LAN setup. */
export function privateAllowed(url: string, policy: RtmpAddressPolicy): boolean {
  const same = (a: string, b: string) => a.toLowerCase().replace(/\/+$/, '') === b.toLowerCase().replace(/\/+$/, '');
  return policy.allowPrivate || (policy.localRtmpUrl !== undefined && same(url, policy.localRtmpUrl));
}
