import { describe, expect, it } from 'vitest';
import { hlsFolderUrl, rewriteWatchPlaylist } from './local-stream-watch.ts';

describe('the Watch player playlist', () => {
  it('renames every segment seg-<n>.ts, so the stream name never reaches the browser', () => {
    const nested = '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-MEDIA-SEQUENCE:7\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.000,\n7.ts\n#EXTINF:2.000,\n8.ts\n';
    expect(rewriteWatchPlaylist(nested, 'local_secret')).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-MEDIA-SEQUENCE:7\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.000,\nseg-7.ts\n#EXTINF:2.000,\nseg-8.ts\n',
    );
    // A server writing one flat folder names segments after the stream.
    expect(rewriteWatchPlaylist('#EXTM3U\r\n#EXTINF:2.000,\r\nlocal_secret-12.ts\r\n', 'local_secret')).toBe('#EXTM3U\n#EXTINF:2.000,\nseg-12.ts\n');
  });

  it('drops any other address with its #EXTINF rather than pass it on', () => {
    const odd = '#EXTM3U\n#EXTINF:2.000,\nhttp://127.0.0.1:8080/hls/local_secret/3.ts\n#EXTINF:2.000,\n../other/4.ts\n#EXTINF:2.000,\n5.ts\n';
    const out = rewriteWatchPlaylist(odd, 'local_secret');
    expect(out).toBe('#EXTM3U\n#EXTINF:2.000,\nseg-5.ts\n');
    expect(out).not.toContain('local_secret');
  });

  it('finds the stream folder on the server with the name escaped', () => {
    expect(hlsFolderUrl('http://127.0.0.1:9/hls/', 'a b/c')).toBe('http://127.0.0.1:9/hls/a%20b%2Fc');
  });
});
