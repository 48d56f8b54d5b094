import { describe, expect, it } from 'vitest';
import { webrtcNetwork } from './network-config.ts';

describe("the worker's WebRTC network settings", () => {
  it('offers loopback on one machine, nothing extra in a cluster, and an announced public address when told', () => {
    expect(webrtcNetwork({})).toEqual({ iceServers: [], additionalHostAddresses: ['127.0.0.1'], icePortRange: undefined, iceTransportPolicy: 'all' });
    expect(webrtcNetwork({ WEBRTC_LOOPBACK: '0' }).additionalHostAddresses).toBeUndefined();
    const node = webrtcNetwork({
      WEBRTC_LOOPBACK: '0',
      WEBRTC_ANNOUNCED_ADDRESSES: '203.0.113.7, 2001:db8::7',
      WEBRTC_ICE_PORTS: '40000-40999',
      WEBRTC_ICE_SERVERS: '[{"urls":"turn:turn.example.test:3478","username":"u","credential":"c"}]',
    });
    expect(node).toEqual({
      iceServers: [{ urls: 'turn:turn.example.test:3478', username: 'u', credential: 'c' }],
      additionalHostAddresses: ['203.0.113.7', '2001:db8::7'],
      icePortRange: [40000, 40999],
      iceTransportPolicy: 'all',
    });
  });

  it('refuses values it cannot use, naming them', () => {
    expect(() => webrtcNetwork({ WEBRTC_ANNOUNCED_ADDRESSES: 'node-1.example.test' })).toThrow(
      /WEBRTC_ANNOUNCED_ADDRESSES: 'node-1.example.test' is not an IP address/,
    );
    expect(() => webrtcNetwork({ WEBRTC_ICE_PORTS: '50000-40000' })).toThrow(/WEBRTC_ICE_PORTS/);
    expect(() => webrtcNetwork({ WEBRTC_ICE_PORTS: '80-90' })).toThrow(/within 1024-65535/);
    expect(() => webrtcNetwork({ WEBRTC_ICE_SERVERS: 'nope' })).toThrow(/WEBRTC_ICE_SERVERS is not JSON/);
    expect(() => webrtcNetwork({ WEBRTC_ICE_TRANSPORT_POLICY: 'relay', WEBRTC_ICE_SERVERS: '[{"urls":"stun:stun.example.test"}]' })).toThrow(
      /needs a TURN server/,
    );
    expect(() => webrtcNetwork({ WEBRTC_ICE_TRANSPORT_POLICY: 'turn' })).toThrow(/neither all nor relay/);
  });
});
