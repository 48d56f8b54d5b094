import { describe, expect, it } from 'vitest';
import { rtmpAddressRefusal } from './rtmp-guard.ts';

const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses;

describe('rtmpAddressRefusal', () => {
  it('lets public servers through, by address or by a name that resolves to public addresses', async () => {
    expect(await rtmpAddressRefusal('rtmp://93.184.216.34/live', false)).toBeNull();
    expect(
      await rtmpAddressRefusal('rtmps://ingest.example.test:443/app', false, resolvesTo('93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946')),
    ).toBeNull();
  });

  it('refuses a name re-pointed at an internal address, saying where it points', async () => {
    expect(await rtmpAddressRefusal('rtmp://ingest.example.test/live', false, resolvesTo('93.184.216.34', '10.0.0.5'))).toMatch(
      /private network address \(ingest\.example\.test → 10\.0\.0\.5\)/,
    );
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

  it('reads every spelling of an address as the connection would: trailing dots, numeric IPv4 forms', async () => {
    const noDns = async () => Promise.reject(new Error('ENOTFOUND'));
    for (const url of [
      'rtmp://localhost.:1935/live',
      'rtmp://LOCALHOST../live',
      'rtmp://127.0.0.1.:1935/live',
      'rtmp://2130706433/live',
      'rtmp://0x7f.1/live',
      'rtmp://0177.0.0.1/live',
      'rtmp://127.1/live',
    ]) {
      expect(await rtmpAddressRefusal(url, false, noDns), url).toMatch(/loopback/);
    }
    expect(await rtmpAddressRefusal('rtmp://10.0.0.5./live', false, noDns)).toMatch(/private/);
    // The metadata address in any spelling, even where private servers are allowed.
    for (const url of ['rtmp://169.254.169.254./live', 'rtmp://0xa9fea9fe/live', 'rtmp://2852039166/live', 'rtmps://169.254.169.254.:443/app']) {
      expect(await rtmpAddressRefusal(url, true, noDns), url).toMatch(/metadata/);
    }
  });

  it('lets a name that does not resolve now through: the connection then fails as unreachable', async () => {
    expect(await rtmpAddressRefusal('rtmp://gone.example.test/live', false, async () => Promise.reject(new Error('ENOTFOUND')))).toBeNull();
  });
});
