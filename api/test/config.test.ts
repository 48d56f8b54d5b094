import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

const base = { DATABASE_URL: 'postgresql://localhost/onair', REDIS_URL: 'redis://localhost:6379' };

describe('api configuration', () => {
  it('has no ICE servers by default and reads them as JSON', () => {
    expect(loadConfig(base).WEBRTC_ICE_SERVERS).toEqual([]);
    expect(loadConfig({ ...base, WEBRTC_ICE_SERVERS: '[{"urls":"stun:stun.example.test:3478"}]' }).WEBRTC_ICE_SERVERS).toEqual([
      { urls: 'stun:stun.example.test:3478' },
    ]);
  });

  it('reads the connector lease timings under their names, and under their former chat names when those are not set', () => {
    expect(loadConfig(base)).toMatchObject({ PLATFORM_OWNER_LEASE_MS: 5000, PLATFORM_SUPERVISE_MS: 1000 });
    expect(loadConfig({ ...base, CHAT_OWNER_LEASE_MS: '7000', CHAT_SUPERVISE_MS: '300' })).toMatchObject({
      PLATFORM_OWNER_LEASE_MS: 7000,
      PLATFORM_SUPERVISE_MS: 300,
    });
    expect(loadConfig({ ...base, CHAT_OWNER_LEASE_MS: '7000', PLATFORM_OWNER_LEASE_MS: '9000' }).PLATFORM_OWNER_LEASE_MS).toBe(9000);
    expect(() => loadConfig({ ...base, CHAT_SUPERVISE_MS: '10' })).toThrow(/PLATFORM_SUPERVISE_MS/);
  });

  it('refuses to start on ICE servers it cannot use, naming the variable', () => {
    expect(() => loadConfig({ ...base, WEBRTC_ICE_SERVERS: '[{"urls":"https://turn.example.test"}]' })).toThrow(
      /Invalid api configuration: WEBRTC_ICE_SERVERS.*stun:, stuns:, turn: or turns:/,
    );
  });
});
