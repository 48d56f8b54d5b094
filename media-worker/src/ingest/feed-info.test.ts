import { describe, expect, it } from 'vitest';
import { FeedInfoReader } from './feed-info.ts';

const LOG = `Input #0, flv, from 'rtmp://127.0.0.1:1935/ingest/x.y':
  Metadata:
    encoder         : Lavf59.27.100
  Duration: 00:00:00.00, start: 0.000000, bitrate: N/A
  Stream #0:0: Video: h264 (High), yuv420p(progressive), 1280x720 [SAR 1:1 DAR 16:9], 30 fps, 30 tbr, 1k tbn
  Stream #0:1: Audio: aac (LC), 48000 Hz, stereo, fltp, 128 kb/s
Output #0, rtp, to 'rtp://127.0.0.1:5000':
  Stream #0:0: Video: vp8, yuv420p, 640x360, q=2-31, 25 fps
Output #1, rtp, to 'rtp://127.0.0.1:5002':
  Stream #1:0: Audio: opus, 48000 Hz, stereo, flt, 128 kb/s`;

describe('FeedInfoReader', () => {
  it("reads codec, size and frame rate of the input's streams, not the outputs'", () => {
    const reader = new FeedInfoReader();
    for (const line of LOG.split('\n')) reader.line(line);
    expect(reader.current).toEqual({ videoCodec: 'h264', audioCodec: 'aac', width: 1280, height: 720, fps: 30 });
    expect(reader.videoKnown).toBe(true);
  });

  it('names a codec the pipeline cannot decode as it is', () => {
    const reader = new FeedInfoReader();
    reader.line("Input #0, flv, from 'rtmp://h/a/b':");
    reader.line('  Stream #0:0: Video: flv1, yuv420p, 640x360, 200 kb/s, 25 fps, 25 tbr, 1k tbn');
    expect(reader.current.videoCodec).toBe('flv1');
    expect(reader.current.width).toBe(640);
    expect(reader.current.fps).toBe(25);
  });

  it('knows nothing before the input is described', () => {
    const reader = new FeedInfoReader();
    reader.line('  Stream #0:0: Video: h264, 1280x720, 30 fps');
    expect(reader.videoKnown).toBe(false);
    expect(reader.current.videoCodec).toBeNull();
  });
});
