import { describe, expect, it } from 'vitest';
import { privateAllowed } from './rtmp-address.ts';

describe('which outputs may reach a private address', () => {
  const policy = { allowPrivate: false, localRtmpUrl: 'rtmp://127.0.0.1:19350/live' };

  it("is the operator's own local server only, unless private RTMP is allowed", () => {
    expect(privateAllowed('rtmp://127.0.0.1:19350/live', policy)).toBe(true);
    expect(privateAllowed('RTMP://127.0.0.1:19350/live/', policy)).toBe(true);
    expect(privateAllowed('rtmp://127.0.0.1:19351/live', policy)).toBe(false);
    expect(privateAllowed('rtmp://10.0.0.5/live', { allowPrivate: true, localRtmpUrl: undefined })).toBe(true);
    expect(privateAllowed('rtmp://10.0.0.5/live', { allowPrivate: false, localRtmpUrl: undefined })).toBe(false);
  });
});
