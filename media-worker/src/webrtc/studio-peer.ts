import type { Socket } from 'node:dgram';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, useNACK, usePLI, useREMB, type RTCRtpTransceiver } from 'werift';
import { trackKindOf, type OfferedTrack, type RoomConnectionState, type TrackType } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { PipelineEncoding } from './media-ports.ts';
import type { WebrtcNetwork } from './network-config.ts';
import { LipSync } from './lip-sync.ts';
import { RtpForwarder, type ForwarderStats } from './rtp-forwarder.ts';

/**
 * Chromium starts a camera at 640×360 and ~300 kbit/s and climbs slowly; these fmtp hints in the
 * answer bring it to 720p within seconds (seen in ENVIRONMENT.md).
 */
const BITRATE_HINTS = 'x-google-start-bitrate=2500;x-google-min-bitrate=1000;x-google-max-bitrate=4000';

export interface PeerOptions {
  participantId: string;
  peerId: string;
  logger: Logger;
  socket: Socket;
  /** ICE servers, extra host candidates (127.0.0.1 for a studio on the same machine) and ports. */
  network: Partial<WebrtcNetwork>;
  onState: (state: RoomConnectionState) => void;
  /** A track started receiving: tell the session which ports it feeds. */
  onTrack: (forwarder: RtpForwarder) => void;
}

/** Codecs the worker accepts: VP8 first, H.264 (Constrained Baseline, as browsers' hardware encoders send it), Opus. */
function codecs() {
  const videoFeedback = [useNACK(), usePLI(), useREMB()];
  return {
    video: [
      new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90_000, payloadType: 96, rtcpFeedback: videoFeedback }),
      new RTCRtpCodecParameters({
        mimeType: 'video/H264',
        clockRate: 90_000,
        payloadType: 102,
        rtcpFeedback: videoFeedback,
        parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
      }),
    ],
    audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2, payloadType: 111, parameters: 'minptime=10;useinbandfec=1' })],
  };
}

/** A receive-only m-line of the host's page that shows one guest's camera. */
export interface GuestSlot {
  mid: string;
  track: MediaStreamTrack;
  onPli: Set<() => void>;
  /** What the host's browser takes on this m-line (werift sends every packet as the negotiated codec). */
  encoding: () => PipelineEncoding | undefined;
}

/** The negotiated codecs the pipeline decodes, by mime type. */
const PIPELINE_ENCODINGS: Record<'video' | 'audio', Partial<Record<string, PipelineEncoding>>> = {
  video: { 'video/vp8': 'VP8', 'video/h264': 'H264' },
  audio: { 'audio/opus': 'OPUS' },
};

/**
 * One participant's peer connection on the worker: receives their camera, microphone and screen
 * tracks and forwards each to the pipeline (see RtpForwarder), and sends the program preview back
 * on the page's receive-only m-line.
 */
export class StudioPeer {
  private readonly pc: RTCPeerConnection;
  readonly forwarders: RtpForwarder[] = [];
  /** The page's receive-only m-lines for guests' cameras, each with the track the worker writes to. */
  readonly guestSlots: GuestSlot[] = [];
  private previewTrack: MediaStreamTrack | undefined;
  private closed = false;
  /** Camera and microphone are captured together; screen and its sound are another pair. */
  private readonly syncGroups = { camera: new LipSync(), screen: new LipSync() };

  constructor(private readonly options: PeerOptions) {
    this.pc = new RTCPeerConnection({
      codecs: codecs(),
      // No transport-cc: with it Chromium's estimate stayed at 480×270 in our runs; REMB is enough.
      headerExtensions: { video: [], audio: [] },
      iceServers: options.network.iceServers,
      iceAdditionalHostAddresses: options.network.additionalHostAddresses,
      icePortRange: options.network.icePortRange,
      iceTransportPolicy: options.network.iceTransportPolicy ?? 'all',
    });
    this.pc.connectionStateChange.subscribe((state) => {
      if (this.closed) return;
      if (state === 'connected') options.onState('connected');
      else if (state === 'disconnected') options.onState('reconnecting');
      else if (state === 'failed' || state === 'closed') options.onState('closed');
    });
  }

  get peerId(): string {
    return this.options.peerId;
  }

  get connectionState(): string {
    return this.pc.connectionState;
  }

  /** Applies the browser's offer and returns the answer, candidates included (no trickle from here). */
  async answer(
    sdp: string,
    tracks: readonly OfferedTrack[],
    previewMid: string | null,
    guestMids: readonly string[] = [],
  ): Promise<{ sdp: string; preview: MediaStreamTrack | undefined }> {
    await this.pc.setRemoteDescription({ type: 'offer', sdp });
    const byMid = new Map(tracks.map((t) => [t.mid, t.type]));
    for (const transceiver of this.pc.getTransceivers()) {
      const type = transceiver.mid === null ? undefined : byMid.get(transceiver.mid);
      if (type) this.receive(transceiver, type);
      else if (transceiver.mid !== null && guestMids.includes(transceiver.mid) && transceiver.kind === 'video') {
        const sender = transceiver.sender;
        const slot: GuestSlot = {
          mid: transceiver.mid,
          track: new MediaStreamTrack({ kind: 'video' }),
          onPli: new Set<() => void>(),
          encoding: () => PIPELINE_ENCODINGS.video[sender.codec?.mimeType.toLowerCase() ?? ''],
        };
        transceiver.setDirection('sendonly');
        await transceiver.sender.replaceTrack(slot.track);
        // The host's tile lost a picture: ask the guest's browser, not the worker, for a keyframe.
        transceiver.sender.onPictureLossIndication.subscribe(() => {
          for (const pli of slot.onPli) pli();
        });
        this.guestSlots.push(slot);
      } else if (previewMid !== null && transceiver.mid === previewMid && transceiver.kind === 'video') {
        this.previewTrack = new MediaStreamTrack({ kind: 'video' });
        transceiver.setDirection('sendonly');
        await transceiver.sender.replaceTrack(this.previewTrack);
      }
    }
    const answer = await this.pc.createAnswer();
    await this.pc.setLocalDescription(answer);
    const local = this.pc.localDescription?.sdp ?? answer.sdp;
    return { sdp: withBitrateHints(local), preview: this.previewTrack };
  }

  async addIceCandidate(candidate: { candidate: string; sdpMid?: string | null; sdpMLineIndex?: number | null }): Promise<void> {
    if (!candidate.candidate) return;
    await this.pc.addIceCandidate({
      candidate: candidate.candidate,
      sdpMid: candidate.sdpMid ?? undefined,
      sdpMLineIndex: candidate.sdpMLineIndex ?? undefined,
    });
  }

  get preview(): MediaStreamTrack | undefined {
    return this.previewTrack;
  }

  /** The pipeline's decoders restarted: every video track sends a keyframe now. */
  requestKeyframes(): void {
    for (const f of this.forwarders) f.requestKeyframe('force');
  }

  stats(): ForwarderStats[] {
    return this.forwarders.map((f) => f.stats());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pc.close().catch((err: unknown) => this.options.logger.debug({ err }, 'peer close failed'));
  }

  private receive(transceiver: RTCRtpTransceiver, type: TrackType): void {
    const kind = trackKindOf[type];
    if (transceiver.kind !== kind) {
      this.options.logger.warn({ mid: transceiver.mid, type, kind: transceiver.kind }, 'offered track type does not match its m-line; ignored');
      return;
    }
    const encodings = new Map<number, PipelineEncoding>();
    for (const codec of transceiver.codecs) {
      const encoding = PIPELINE_ENCODINGS[kind][codec.mimeType.toLowerCase()];
      if (encoding) encodings.set(codec.payloadType, encoding);
    }
    if (encodings.size === 0) {
      this.options.logger.warn({ type, negotiated: transceiver.codecs.map((c) => c.mimeType) }, 'track codec is not one the pipeline decodes; not forwarded');
      return;
    }
    const receiver = transceiver.receiver;
    const forwarder = new RtpForwarder({
      type,
      kind,
      encodings,
      socket: this.options.socket,
      sendPli: (ssrc) => {
        receiver.sendRtcpPLI(ssrc).catch((err: unknown) => this.options.logger.debug({ err }, 'PLI not sent'));
      },
      sync: {
        clock: type === 'camera' || type === 'microphone' ? this.syncGroups.camera : this.syncGroups.screen,
        stream: type,
        clockRate: kind === 'video' ? 90_000 : 48_000,
      },
    });
    this.forwarders.push(forwarder);
    receiver.track.onReceiveRtp.subscribe((packet) => forwarder.onRtp(packet));
    receiver.track.onReceiveRtcp.subscribe((packet) => forwarder.onRtcp(packet));
    this.options.onTrack(forwarder);
  }
}

/** Adds Chromium's bitrate hints to every video codec of the answer. */
export function withBitrateHints(sdp: string): string {
  const lines = sdp.split('\r\n');
  const out: string[] = [];
  let video = false;
  const fmtp = new Set<string>();
  const rtpmaps: string[] = [];
  const flush = () => {
    for (const pt of rtpmaps) if (!fmtp.has(pt)) out.push(`a=fmtp:${pt} ${BITRATE_HINTS}`);
    rtpmaps.length = 0;
    fmtp.clear();
  };
  for (const line of lines) {
    if (line.startsWith('m=')) {
      if (video) flush();
      video = line.startsWith('m=video');
    }
    if (video) {
      const map = /^a=rtpmap:(\d+) (VP8|H264)\//i.exec(line);
      if (map) rtpmaps.push(map[1]!);
      const f = /^a=fmtp:(\d+) (.*)$/.exec(line);
      if (f && rtpmaps.includes(f[1]!)) {
        fmtp.add(f[1]!);
        out.push(`a=fmtp:${f[1]} ${f[2]};${BITRATE_HINTS}`);
        continue;
      }
    }
    out.push(line);
  }
  if (video) {
    // Keep the trailing empty line SDP ends with after the added fmtp lines.
    const tail = out.length > 0 && out[out.length - 1] === '' ? out.pop() : undefined;
    flush();
    if (tail !== undefined) out.push(tail);
  }
  return out.join('\r\n');
}
