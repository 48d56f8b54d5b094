// Units of the WebRTC endpoint that need no browser: which sources a track feeds, the answer's
// bitrate hints, when the forwarder asks for keyframes, and lip-sync from sender reports.
import { createSocket, type Socket } from 'node:dgram';
import { randomUUID } from 'node:crypto';
import { RtcpSenderInfo, RtcpSrPacket, RtpHeader, RtpPacket } from 'werift';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '@onair/embedded';
import { newProjectDocument, type SceneDocument, type Source } from '@onair/protocol';
import { LipSync } from '../src/webrtc/lip-sync.ts';
import { MediaPorts } from '../src/webrtc/media-ports.ts';
import { RtpForwarder, KEYFRAME_SPACING_MS } from '../src/webrtc/rtp-forwarder.ts';
import { withBitrateHints } from '../src/webrtc/studio-peer.ts';
import { routeTrack } from '../src/webrtc/track-router.ts';

function doc(sources: Source[]): SceneDocument {
  const d = newProjectDocument({
    projectId: randomUUID(),
    sceneId: randomUUID(),
    watermarkSourceId: randomUUID(),
    watermarkLayerId: randomUUID(),
    resolution: '720p',
  });
  d.sources.push(...sources);
  return d;
}
const webcam = (userId: string | null): Source => ({
  id: randomUUID(),
  kind: 'webcam',
  name: 'Camera',
  settings: { opacity: 1, volume: 1, muted: false, webcamDeviceId: null, microphoneDeviceId: 'default', displayName: '', userId, mirrorCamera: false },
});
const mic = (userId: string | null): Source => ({
  id: randomUUID(),
  kind: 'microphone',
  name: 'Audio',
  settings: { volume: 1, muted: false, microphoneDeviceId: null, displayName: '', userId, optimizeForMusic: true },
});
const guest = (userId: string): Source => ({
  id: randomUUID(),
  kind: 'participant',
  name: 'Guest',
  settings: { opacity: 1, volume: 1, muted: false, userId, displayName: 'G' },
});

describe('routeTrack', () => {
  it("sends the host's camera to unassigned and own Camera sources, a guest's to their Guest source", () => {
    const [free, mine, other, g] = [webcam(null), webcam('host'), webcam('someone'), guest('guest-1')];
    const d = doc([free, mine, other, g]);
    expect(routeTrack(d, { userId: 'host', isHost: true }, 'camera')).toEqual([
      { sourceId: free.id, media: 'video' },
      { sourceId: mine.id, media: 'video' },
    ]);
    expect(routeTrack(d, { userId: 'guest-1', isHost: false }, 'camera')).toEqual([{ sourceId: g.id, media: 'video' }]);
    expect(routeTrack(d, { userId: 'guest-1', isHost: false }, 'screen_share')).toEqual([]);
  });

  it('puts a microphone into Audio sources when there are some, else into the Camera sound, never both', () => {
    const cam = webcam(null);
    expect(routeTrack(doc([cam]), { userId: 'h', isHost: true }, 'microphone')).toEqual([{ sourceId: cam.id, media: 'audio' }]);
    const m = mic(null);
    expect(routeTrack(doc([cam, m]), { userId: 'h', isHost: true }, 'microphone')).toEqual([{ sourceId: m.id, media: 'audio' }]);
  });
});

describe('withBitrateHints', () => {
  it('adds the x-google bitrates to VP8 and H.264, keeping existing fmtp parameters', () => {
    const sdp = [
      'v=0',
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=rtpmap:111 opus/48000/2',
      'm=video 9 UDP/TLS/RTP/SAVPF 96 102',
      'a=rtpmap:96 VP8/90000',
      'a=rtpmap:102 H264/90000',
      'a=fmtp:102 packetization-mode=1',
      '',
    ].join('\r\n');
    const out = withBitrateHints(sdp).split('\r\n');
    expect(out).toContain('a=fmtp:102 packetization-mode=1;x-google-start-bitrate=2500;x-google-min-bitrate=1000;x-google-max-bitrate=4000');
    expect(out).toContain('a=fmtp:96 x-google-start-bitrate=2500;x-google-min-bitrate=1000;x-google-max-bitrate=4000');
    expect(out.filter((l) => l.startsWith('a=fmtp:111'))).toEqual([]);
    expect(out[out.length - 1]).toBe('');
  });
});

describe('RtpForwarder', () => {
  const socket = createSocket('udp4');
  afterAll(() => socket.close());
  const packet = (seq: number, pt = 96, ssrc = 1) =>
    new RtpPacket(new RtpHeader({ sequenceNumber: seq, payloadType: pt, ssrc, timestamp: seq * 3000 }), Buffer.from([0x10, 0, 0]));

  it('asks for a keyframe on the first packet, on loss (never within the spacing a browser ignores), and again when packets resume', () => {
    let now = 0;
    const plis: number[] = [];
    const f = new RtpForwarder({ type: 'camera', kind: 'video', encodings: new Map([[96, 'VP8']]), socket, sendPli: () => plis.push(now), now: () => now });
    f.setTargets([{ VP8: 40_000, H264: 40_001 }]);
    f.onRtp(packet(1));
    expect(plis).toEqual([0]);
    now = 200;
    f.onRtp(packet(5)); // loss, but too soon after the last request (and this packet starts a keyframe)
    expect(plis).toEqual([0]);
    now = KEYFRAME_SPACING_MS + 10;
    f.onRtp(packet(9));
    expect(plis).toEqual([0, KEYFRAME_SPACING_MS + 10]);
    f.onRtp(packet(10, 97)); // another payload type (not the negotiated codec): dropped
    now += 5000; // the camera was off
    f.onRtp(packet(11));
    expect(plis).toHaveLength(3);
    expect(f.stats()).toMatchObject({ packets: 4, lost: 6, plis: 3 });
  });

  it('asks again, the spacing apart, until the keyframe it asked for has gone to the pipeline', () => {
    let now = 0;
    const plis: number[] = [];
    const f = new RtpForwarder({ type: 'camera', kind: 'video', encodings: new Map([[96, 'VP8']]), socket, sendPli: () => plis.push(now), now: () => now });
    f.setTargets([{ VP8: 40_000 }]);
    // VP8 interframes (P=1) only: the browser ignored the request (too soon after another one).
    const inter = (seq: number) =>
      new RtpPacket(new RtpHeader({ sequenceNumber: seq, payloadType: 96, ssrc: 1, timestamp: seq * 3000 }), Buffer.from([0x10, 0x01, 0]));
    for (let seq = 1; seq <= 40; seq++) {
      now = seq * 33;
      f.onRtp(inter(seq));
    }
    // With the first packet, then with the first packet at least the spacing after the previous request.
    expect(plis).toEqual([33, 396, 759, 1122]);
    expect(KEYFRAME_SPACING_MS).toBeGreaterThan(300);
    // The keyframe arrives: no more requests.
    now = 41 * 33;
    f.onRtp(packet(41));
    for (let seq = 42; seq <= 80; seq++) {
      now = seq * 33;
      f.onRtp(inter(seq));
    }
    expect(plis).toHaveLength(4);
    expect(f.stats()).toMatchObject({ keyframes: 1, plis: 4 });
  });

  it('sends each packet to the port of its encoding with the payload type the pipeline expects', async () => {
    const receivers = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<Socket>((resolve) => {
            const r = createSocket('udp4');
            r.bind(0, '127.0.0.1', () => resolve(r));
          }),
      ),
    );
    const [vp8, h264] = receivers.map((r) => r.address().port) as [number, number];
    const got: { port: number; pt: number }[] = [];
    receivers.forEach((r, i) => r.on('message', (data: Buffer) => got.push({ port: [vp8, h264][i]!, pt: data[1]! & 0x7f })));
    try {
      const plis: number[] = [];
      let now = 0;
      // Chromium's numbering (VP8 on 96, H.264 on 109): the negotiation decides, not our constants.
      const f = new RtpForwarder({
        type: 'camera',
        kind: 'video',
        encodings: new Map([
          [96, 'VP8'],
          [109, 'H264'],
        ]),
        socket,
        sendPli: (ssrc) => plis.push(ssrc),
        now: () => now,
      });
      f.setTargets([{ VP8: vp8, H264: h264 }]);
      f.onRtp(packet(1, 96));
      now = 500;
      f.onRtp(packet(2, 109));
      f.onRtp(packet(3, 45)); // not negotiated
      await waitFor('both packets', async () => (got.length >= 2 ? true : undefined), 2000, 10);
      expect(got).toEqual([
        { port: vp8, pt: 96 },
        { port: h264, pt: 102 },
      ]);
      // The switch to H.264 needs a keyframe from the new encoder at once.
      expect(plis).toHaveLength(2);
      expect(f.stats().encoding).toBe('H264');
    } finally {
      for (const r of receivers) r.close();
    }
  });
});

describe('lip-sync from sender reports', () => {
  const socket = createSocket('udp4');
  afterAll(() => socket.close());

  it('holds the audio back by how much later the video arrives after capture, and lets go when video stops', () => {
    let now = 10_000;
    const clock = new LipSync();
    const make = (type: 'camera' | 'microphone', clockRate: number) =>
      new RtpForwarder({
        type,
        kind: type === 'camera' ? 'video' : 'audio',
        encodings: new Map([[96, 'VP8']]),
        socket,
        sendPli: () => undefined,
        now: () => now,
        sync: { clock, stream: type, clockRate },
      });
    const video = make('camera', 90_000);
    const audio = make('microphone', 48_000);
    // Both report "RTP 0 was captured at sender time 1000 s" (any sender clock: only differences count).
    const sr = (rtp: number) => new RtcpSrPacket({ ssrc: 1, senderInfo: new RtcpSenderInfo({ ntpTimestamp: 1000n << 32n, rtpTimestamp: rtp }) });
    video.onRtcp(sr(0));
    audio.onRtcp(sr(0));
    const rtp = (ts: number) =>
      new RtpPacket(new RtpHeader({ sequenceNumber: ts % 65_536, payloadType: 96, ssrc: 1, timestamp: ts }), Buffer.from([0x10, 0, 0]));
    // A frame captured 100 ms after the report arrives 80 ms later; audio of the same moment 20 ms later.
    now = 1_000_000 + 180;
    video.onRtp(rtp(9000));
    now = 1_000_000 + 120;
    audio.onRtp(rtp(4800));
    expect(audio.stats().syncDelayMs).toBe(60);
    now = 1_000_000 + 181;
    video.onRtp(rtp(9000));
    expect(video.stats().syncDelayMs).toBe(0);
    // The camera went off: its old transit no longer holds the microphone back.
    now += 5000;
    audio.onRtp(rtp(4800 + 48 * 5061));
    expect(audio.stats().syncDelayMs).toBe(0);
  });
});

describe('MediaPorts', () => {
  it('keeps a source on its ports until its session gives them back', () => {
    const ports = new MediaPorts({ min: 30_000, max: 30_018 });
    const a = ports.source('a');
    expect(ports.source('a')).toEqual(a);
    const preview = ports.previewPort('p');
    const taken = new Set([a.video.VP8, a.video.H264, a.audio.OPUS, preview]);
    expect(taken.size).toBe(4);
    for (let i = 0; i < 5; i++) ports.source(`s${i}`);
    expect(() => ports.source('one-too-many')).toThrow(/no free RTP port/);
    ports.release('p', ['a']);
    const b = ports.source('b');
    expect([b.video.VP8, b.video.H264, b.audio.OPUS].every((port) => taken.has(port))).toBe(true);
  });
});
