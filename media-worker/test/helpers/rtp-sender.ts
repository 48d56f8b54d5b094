/**
 * A camera that behaves like a browser's, for the feed-recovery tests: a live encoder (VP8 or
 * H.264) of a flat picture whose colour the test changes, with no periodic keyframes, that sends a
 * keyframe when asked (an RTCP PLI) unless it sent one for a request less than 300 ms ago (what
 * Chromium does). Its packets go through a relay the test controls (pass, drop a share at random,
 * drop everything) into the worker's RtpForwarder, which forwards them to the pipeline as it does a
 * WebRTC track's and sends its keyframe requests back here.
 *
 * The encoder runs in this process (node-gtk), with no callback from GStreamer's threads: the
 * colour is a property set from here, a keyframe request an event sent from here.
 */
import { createSocket, type Socket } from 'node:dgram';
import { RtpPacket } from 'werift';
import { linkChain, makeElement, staticPad } from '../../src/gst/elements.ts';
import { loadGst } from '../../src/gst/gst.ts';
import { GstPipeline } from '../../src/gst/pipeline.ts';
import { PIPELINE_PAYLOAD_TYPES, type PipelineEncoding } from '../../src/webrtc/media-ports.ts';
import { RtpForwarder } from '../../src/webrtc/rtp-forwarder.ts';

/** Chromium ignores a keyframe request that comes within this long of the previous one it honoured. */
export const SENDER_PLI_SPACING_MS = 300;

export type RelayMode = { drop: 'none' } | { drop: 'all' } | { drop: 'random'; share: number };

export class TestCamera {
  private readonly pipeline: GstPipeline;
  private readonly source;
  private readonly payloader;
  private readonly relay: Socket;
  private readonly out: Socket;
  /** Between the forwarder and the pipeline: what a worker busy elsewhere loses, unseen by the forwarder. */
  private readonly inner: Socket;
  private innerMode: RelayMode = { drop: 'none' };
  private pipelinePort = 0;
  readonly forwarder: RtpForwarder;
  private mode: RelayMode = { drop: 'none' };
  private lastHonouredAt = -Infinity;
  /** Keyframe requests received, and when (performance.now()); whether each was honoured. */
  readonly requests: { at: number; honoured: boolean }[] = [];
  readonly relayed = { passed: 0, dropped: 0 };
  readonly errors: string[] = [];

  private constructor(
    readonly encoding: PipelineEncoding,
    relayPort: number,
    relay: Socket,
    color: number,
  ) {
    this.relay = relay;
    this.out = createSocket('udp4');
    this.inner = createSocket('udp4');
    const pt = PIPELINE_PAYLOAD_TYPES[encoding];
    this.pipeline = new GstPipeline(`camera-${encoding.toLowerCase()}-${relayPort}`, { onError: (e) => this.errors.push(e.message) });
    this.source = makeElement('videotestsrc', 'src', { 'is-live': true, pattern: 'solid-color', 'foreground-color': color });
    const encode =
      encoding === 'VP8'
        ? [makeElement('vp8enc', 'enc', { deadline: 1, 'keyframe-max-dist': 100_000, 'target-bitrate': 600_000 })]
        : [
            // A slice per packet, so a lost packet leaves the rest of its picture decodable (and damaged).
            makeElement('x264enc', 'enc', {
              tune: 'zerolatency',
              'speed-preset': 'ultrafast',
              'key-int-max': 100_000,
              bitrate: 600,
              'option-string': 'slice-max-size=350',
            }),
            makeElement('capsfilter', 'h264caps', { caps: 'video/x-h264,profile=constrained-baseline' }),
          ];
    // Small packets, so a frame spans several and a lost one damages part of a picture.
    this.payloader =
      encoding === 'VP8'
        ? makeElement('rtpvp8pay', 'pay', { pt, mtu: 400 })
        : makeElement('rtph264pay', 'pay', { pt, mtu: 400, 'config-interval': -1, 'aggregate-mode': 'zero-latency' });
    const chain = [
      this.source,
      makeElement('capsfilter', 'caps', { caps: 'video/x-raw,width=320,height=180,framerate=30/1' }),
      ...encode,
      this.payloader,
      makeElement('udpsink', 'udp', { host: '127.0.0.1', port: relayPort, sync: false, async: false }),
    ];
    for (const element of chain) this.pipeline.add(element);
    linkChain(chain);
    this.forwarder = new RtpForwarder({
      type: 'camera',
      kind: 'video',
      encodings: new Map([[pt, encoding]]),
      socket: this.out,
      sendPli: () => this.keyframeRequested(),
    });
    relay.on('message', (message) => this.onPacket(message));
    this.inner.on('message', (message) => {
      if (!dropped(this.innerMode)) this.out.send(message, this.pipelinePort, '127.0.0.1');
    });
  }

  /** Starts encoding `color` (0xAARRGGBB) towards the pipeline's port for its encoding. */
  static async start(encoding: PipelineEncoding, pipelinePort: number, color: number): Promise<TestCamera> {
    const relay = createSocket('udp4');
    await new Promise<void>((resolve) => relay.bind(0, '127.0.0.1', resolve));
    const camera = new TestCamera(encoding, relay.address().port, relay, color);
    camera.pipelinePort = pipelinePort;
    await new Promise<void>((resolve) => camera.inner.bind(0, '127.0.0.1', resolve));
    camera.forwarder.setTargets([{ [encoding]: camera.inner.address().port }]);
    camera.pipeline.play();
    return camera;
  }

  set color(color: number) {
    this.source.foregroundColor = color;
  }

  /** Packets lost on the way from the camera (`network`, the forwarder sees the gaps) or from the forwarder to the pipeline (`worker`). */
  setRelay(mode: RelayMode, where: 'network' | 'worker' = 'network'): void {
    if (where === 'network') this.mode = mode;
    else this.innerMode = mode;
  }

  private onPacket(message: Buffer): void {
    if (dropped(this.mode)) {
      this.relayed.dropped += 1;
      return;
    }
    this.relayed.passed += 1;
    this.forwarder.onRtp(RtpPacket.deSerialize(message));
  }

  /** A PLI from the forwarder: a keyframe, unless one was sent for a request under 300 ms ago. */
  private keyframeRequested(): void {
    const at = performance.now();
    const honoured = at - this.lastHonouredAt >= SENDER_PLI_SPACING_MS;
    this.requests.push({ at, honoured });
    if (!honoured) return;
    this.lastHonouredAt = at;
    const gst = loadGst();
    const structure = gst.Structure.newFromString('GstForceKeyUnit, all-headers=(boolean)true');
    if (structure) staticPad(this.payloader, 'src').sendEvent(gst.Event.newCustom(gst.EventType.CUSTOM_UPSTREAM, structure));
  }

  stop(): void {
    this.pipeline.stop();
    this.relay.close();
    this.inner.close();
    this.out.close();
  }
}

function dropped(mode: RelayMode): boolean {
  return mode.drop === 'all' || (mode.drop === 'random' && Math.random() < mode.share);
}
