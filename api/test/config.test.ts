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

  it('refuses to start on ICE servers it cannot use, naming the variable', () => {
    expect(() => loadConfig({ ...base, WEBRTC_ICE_SERVERS: '[{"urls":"https://turn.example.test"}]' })).toThrow(
      /Invalid api configuration: WEBRTC_ICE_SERVERS.*stun:, stuns:, turn: or turns:/,
    );
  });
});
