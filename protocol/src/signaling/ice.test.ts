import { describe, expect, it } from 'vitest';
import { parseIceServers } from './ice.ts';

describe('WEBRTC_ICE_SERVERS', () => {
  it('is empty when unset, and takes STUN and TURN servers with credentials', () => {
    expect(parseIceServers(undefined)).toEqual([]);
    expect(parseIceServers(' ')).toEqual([]);
    const servers = parseIceServers(
      '[{"urls":"stun:stun.example.com:3478"},{"urls":["turn:turn.example.com:3478?transport=udp","turns:turn.example.com:5349"],"username":"onair","credential":"s3cret"}]',
    );
    expect(servers).toHaveLength(2);
    expect(servers[1]).toMatchObject({ username: 'onair', credential: 's3cret' });
  });

  it('refuses what is not a list of ICE servers, saying why', () => {
    expect(() => parseIceServers('stun:stun.example.com')).toThrow(/not JSON/);
    expect(() => parseIceServers('[{"urls":"http://example.com"}]')).toThrow(/0\.urls: every ICE server url starts with stun:/);
    expect(() => parseIceServers('{"urls":"stun:a"}')).toThrow(/WEBRTC_ICE_SERVERS/);
    expect(() => parseIceServers('[{"urls":"stun:a","password":"x"}]')).toThrow(/password/);
  });
});
