import type { PlanInput, RtpVideoCodec } from '@onair/protocol';

/** Payload types the pipeline's RTP inputs expect; the forwarder rewrites the negotiated ones to these. */
export const PIPELINE_PAYLOAD_TYPES = { VP8: 96, H264: 102, OPUS: 111 } as const;
export type PipelineEncoding = keyof typeof PIPELINE_PAYLOAD_TYPES;
export type VideoEncoding = RtpVideoCodec['encoding'];
export const PREVIEW_PAYLOAD_TYPE = 96;

export interface PortRange {
  min: number;
  max: number;
}

/** Default loopback range; the ICE ports of werift are ephemeral and never in it. */
export const DEFAULT_RTP_PORTS: PortRange = { min: 20_000, max: 29_999 };

type RtpInput = Extract<PlanInput, { kind: 'rtp' }>;

/** Where a source listens: a port per video encoding it decodes, and one for its Opus audio. */
export interface SourcePorts {
  video: Record<VideoEncoding, number>;
  audio: { OPUS: number };
}

/**
 * The loopback UDP ports between this worker's WebRTC endpoint and its pipelines: three per live
 * source (VP8 video, H.264 video, Opus audio) and one per session for the program preview. A source keeps its ports for
 * the life of the worker, so a rebuilt pipeline listens where the forwarders already send, and a
 * track that stops and comes back finds the same port. The start is random so two workers on one
 * machine rarely meet; ports are handed out in order and never twice.
 */
export class MediaPorts {
  private readonly bySource = new Map<string, SourcePorts>();
  private readonly preview = new Map<string, number>();
  private readonly used = new Set<number>();
  private next: number;

  constructor(private readonly range: PortRange = DEFAULT_RTP_PORTS) {
    if (range.max - range.min < 16) throw new Error('the RTP port range is too small');
    this.next = range.min + 2 * Math.floor((Math.random() * (range.max - range.min)) / 2);
  }

  /** The ports of a source (source ids are UUIDs, unique across projects). */
  source(sourceId: string): SourcePorts {
    let ports = this.bySource.get(sourceId);
    if (!ports) {
      const taken: number[] = [];
      try {
        for (let i = 0; i < 3; i++) taken.push(this.take());
      } catch (err) {
        for (const port of taken) this.used.delete(port);
        throw err;
      }
      ports = { video: { VP8: taken[0]!, H264: taken[1]! }, audio: { OPUS: taken[2]! } };
      this.bySource.set(sourceId, ports);
    }
    return ports;
  }

  previewPort(projectId: string): number {
    let port = this.preview.get(projectId);
    if (port === undefined) {
      port = this.take();
      this.preview.set(projectId, port);
    }
    return port;
  }

  /** Gives a session's ports back once its pipeline is gone (a worker lives through many sessions). */
  release(projectId: string, sourceIds: Iterable<string>): void {
    for (const id of sourceIds) {
      const ports = this.bySource.get(id);
      if (!ports) continue;
      for (const port of [...Object.values(ports.video), ports.audio.OPUS]) this.used.delete(port);
      this.bySource.delete(id);
    }
    const preview = this.preview.get(projectId);
    if (preview !== undefined) this.used.delete(preview);
    this.preview.delete(projectId);
  }

  /** The pipeline input of a live source: listening from the start, fed whenever a track arrives. */
  rtpInput(
    sourceId: string,
    media: { video: boolean; audio: boolean },
    video: { encodings: readonly VideoEncoding[] } & Pick<NonNullable<RtpInput['video']>, 'keyColor' | 'placeholder' | 'placeholderLabel'> = {
      encodings: ['VP8', 'H264'],
    },
    audio: Pick<NonNullable<RtpInput['audio']>, 'fadeIn'> = {},
  ): RtpInput {
    const ports = this.source(sourceId);
    const { encodings, ...options } = video;
    const codecs = encodings.map((encoding) => ({ encoding, port: ports.video[encoding], payloadType: PIPELINE_PAYLOAD_TYPES[encoding] }));
    return {
      id: sourceId,
      kind: 'rtp',
      ...(media.video ? { video: { codecs, ...options } } : {}),
      ...(media.audio ? { audio: { port: ports.audio.OPUS, encoding: 'OPUS' as const, payloadType: PIPELINE_PAYLOAD_TYPES.OPUS, ...audio } } : {}),
    };
  }

  private take(): number {
    const span = this.range.max - this.range.min + 1;
    for (let i = 0; i < span; i++) {
      const port = this.range.min + ((this.next - this.range.min + i) % span);
      if (!this.used.has(port)) {
        this.used.add(port);
        this.next = port + 1;
        return port;
      }
    }
    throw new Error('no free RTP port left in the range');
  }
}
