import { z } from 'zod';

/**
 * A STUN or TURN server, as RTCPeerConnection takes it. The same list goes to the browser (in
 * `room.joined`) and to the media worker's peers, so both sides can reach each other through NAT:
 * a worker behind a cluster's network needs a TURN server, or an announced public address.
 */
export const iceServerSchema = z.strictObject({
  urls: z.union([z.string(), z.array(z.string()).min(1).max(8)]).refine((urls) => [urls].flat().every((u) => /^(stun|stuns|turn|turns):[^\s]+$/.test(u)), {
    message: 'every ICE server url starts with stun:, stuns:, turn: or turns:',
  }),
  username: z.string().max(256).optional(),
  credential: z.string().max(256).optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;
export const iceServersSchema = z.array(iceServerSchema).max(8);

/**
 * `WEBRTC_ICE_SERVERS` of the api and the media worker: a JSON array of ICE servers, empty when
 * unset (host candidates only: the one-machine stack, a LAN). A bad value stops the start with
 * the reason rather than leaving every studio unable to connect.
 */
export function parseIceServers(raw: string | undefined): IceServer[] {
  if (raw === undefined || raw.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('WEBRTC_ICE_SERVERS is not JSON: expected an array such as [{"urls":"stun:stun.example.com:3478"}]');
  }
  const parsed = iceServersSchema.safeParse(json);
  if (!parsed.success) throw new Error(`WEBRTC_ICE_SERVERS: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'value'}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
