import type { PlanInput } from '@onair/protocol';

/** Payload types the pipeline's RTP inputs expect; the forwarder rewrites the negotiated ones to these. */
export const PIPELINE_PAYLOAD_TYPES = { VP8: 96, OPUS: 111 } as const;
export const PREVIEW_PAYLOAD_TYPE = 96;

export interface PortRange {
  min: number;
  max: number;
}

/** Default loopback range; the ICE ports of werift are ephemeral and never in it. */
export const DEFAULT_RTP_PORTS: PortRange = { min: 20_000, max: 29_999 };

type RtpInput = Extract<PlanInput, { kind: 'rtp' }>;

/**
 * The loopback UDP ports between this worker's WebRTC endpoint and its pipelines: a pair per live
 * source (video, audio) and one per session for the program preview. A source keeps its ports for
 * the life of the worker, so a rebuilt pipeline listens where the forwarders already send, and a
 * track that stops and comes back finds the same port. The start is random so two workers on one
 * machine rarely meet; ports are handed out in order and never twice.
 */
export class MediaPorts {
  private readonly bySource = new Map<string, { video: number; audio: number }>();
  private readonly preview = new Map<string, number>();
  private readonly used = new Set<number>();
  private next: number;

  constructor(private readonly range: PortRange = DEFAULT_RTP_PORTS) {
    if (range.max - range.min < 16) throw new Error('the RTP port range is too small');
    this.next = range.min + 2 * Math.floor((Math.random() * (range.max - range.min)) / 2);
  }

  /** The video and audio ports of a source (source ids are UUIDs, unique across projects). */
  source(sourceId: string): { video: number; audio: number } {
    let ports = this.bySource.get(sourceId);
    if (!ports) {
      const video = this.take();
      try {
        ports = { video, audio: this.take() };
      } catch (err) {
        this.used.delete(video);
        throw err;
      }
      this.bySource.set(sourceId, ports);
    }
    return ports;
  }

  /** Ports already given to a source, without allocating. */
  existing(sourceId: string): { video: number; audio: number } | undefined {
    return this.bySource.get(sourceId);
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
      this.used.delete(ports.video);
      this.used.delete(ports.audio);
      this.bySource.delete(id);
    }
    const preview = this.preview.get(projectId);
    if (preview !== undefined) this.used.delete(preview);
    this.preview.delete(projectId);
  }

  /** The pipeline input of a live source: listening from the start, fed whenever a track arrives. */
  rtpInput(sourceId: string, media: { video: boolean; audio: boolean }, video: Pick<NonNullable<RtpInput['video']>, 'encoding' | 'keyColor'> = { encoding: 'VP8' }): RtpInput {
    const ports = this.source(sourceId);
    return {
      id: sourceId,
      kind: 'rtp',
      ...(media.video ? { video: { port: ports.video, payloadType: PIPELINE_PAYLOAD_TYPES.VP8, ...video } } : {}),
      ...(media.audio ? { audio: { port: ports.audio, encoding: 'OPUS' as const, payloadType: PIPELINE_PAYLOAD_TYPES.OPUS } } : {}),
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
