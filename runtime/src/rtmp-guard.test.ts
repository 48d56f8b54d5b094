import { describe, expect, it } from 'vitest';
import { rtmpAddressRefusal } from './rtmp-guard.ts';

const resolvesTo = (...addresses: string[]) => async () => addresses;

describe('rtmpAddressRefusal', () => {
  it('lets public servers through, by address or by a name that resolves to public addresses', async () => {
    expect(await rtmpAddressRefusal('rtmp://93.184.216.34/live', false)).toBeNull();
    expect(await rtmpAddressRefusal('rtmps://ingest.example.test:443/app', false, resolvesTo('93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'))).toBeNull();
  });

  it('refuses a name re-pointed at an internal address, saying where it points', async () => {
    expect(await rtmpAddressRefusal('rtmp://ingest.example.test/live', false, resolvesTo('93.184.216.34', '10.0.0.5'))).toMatch(/private network address \(10\.0\.0\.5\): ingest\.example\.test resolves there/);
    expect(await rtmpAddressRefusal('rtmp://127.0.0.1:1935/live', false)).toMatch(/loopback/);
    expect(await rtmpAddressRefusal('rtmp://localhost/live', false)).toMatch(/loopback/);
    expect(await rtmpAddressRefusal('http://93.184.216.34/live', false)).toMatch(/only rtmp and rtmps/);
  });

  it('allows private addresses when told to, never the cloud metadata service', async () => {
    expect(await rtmpAddressRefusal('rtmp://127.0.0.1:1935/live', true)).toBeNull();
    expect(await rtmpAddressRefusal('rtmp://lan-server.example.test/live', true, resolvesTo('192.168.1.20'))).toBeNull();
    expect(await rtmpAddressRefusal('rtmp://169.254.169.254/live', true)).toMatch(/metadata/);
    expect(await rtmpAddressRefusal('rtmp://meta.example.test/live', true, resolvesTo('169.254.169.254'))).toMatch(/metadata/);
  });

  it('lets a name that does not resolve now through: the connection then fails as unreachable', async () => {
    expect(await rtmpAddressRefusal('rtmp://gone.example.test/live', false, async () => Promise.reject(new Error('ENOTFOUND')))).toBeNull();
  });
});
