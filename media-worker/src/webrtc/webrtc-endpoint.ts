import { createSocket, type Socket } from 'node:dgram';
import {
  cameraSendSize,
  JITTER_LATENCY_DEFAULT_MS,
  JITTER_LATENCY_MAX_MS,
  JITTER_LATENCY_MIN_MS,
  planPreviewSchema,
  type GuestTile,
  type OfferedTrack,
  type PipelineReport,
  type PlanPreview,
  type RoomConnectionState,
  type SceneDocument,
  type SendSize,
  trackTypes,
} from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { PREVIEW_PAYLOAD_TYPE, type MediaPorts } from './media-ports.ts';
import { jitterTarget, nextJitterLatency } from './arrival-lateness.ts';
import type { WebrtcNetwork } from './network-config.ts';
import { PreviewFeed } from './preview-feed.ts';
import type { ForwarderStats, RtpForwarder } from './rtp-forwarder.ts';
import { StudioPeer } from './studio-peer.ts';
import { onGuestTiles, routeTrack, seesGuestTiles, type Publisher } from './track-router.ts';

/** Sources added or reassigned in the scene reach running tracks within this delay. */
const ROUTE_REFRESH_MS = 2000;
/** Tracks are measured this long before their first jitter buffer latency is set (their first keyframe is in it). */
const JITTER_SETTLE_MS = 2000;

export interface WebrtcEndpointDeps {
  ports: MediaPorts;
  logger: Logger;
  /** The newest scene document of a project (the api's snapshot in Redis). */
  loadDocument: (projectId: string) => Promise<SceneDocument | undefined>;
  network?: Partial<WebrtcNetwork>;
  /** Sets the jitter buffer latency of a session's WebRTC inputs (SessionHost.setJitterLatency). */
  setJitterLatency?: (projectId: string, ms: number) => void;
}

export interface JoinOffer {
  projectId: string;
  participantId: string;
  publisher: Publisher;
  peerId: string;
  sdp: string;
  tracks: readonly OfferedTrack[];
  previewMid: string | null;
  /** The host's receive-only m-lines for guests' cameras. */
  guestMids?: readonly string[];
  onState: (peerId: string, state: RoomConnectionState) => void;
  /** Which guest plays on which guest m-line changed. */
  onTiles?: (peerId: string, tiles: GuestTile[]) => void;
  /** The size the participant's camera is needed at changed (cameraSendSize). */
  onSendSize?: (peerId: string, camera: SendSize) => void;
}

interface Participant {
  participantId: string;
  publisher: Publisher;
  peer: StudioPeer;
  onTiles?: (peerId: string, tiles: GuestTile[]) => void;
  onState: (peerId: string, state: RoomConnectionState) => void;
  onSendSize?: (peerId: string, camera: SendSize) => void;
  /** The camera size last told to the page. */
  sendSize?: SendSize;
  /** Relays to this participant's guest slots, by slot mid: the guest shown and how to stop. */
  tiles: Map<string, { guest: string; userId: string; stop: () => void }>;
}

interface SessionMedia {
  preview: PreviewFeed;
  /**
   * Whether the session's pipeline plays, listening on its sources' ports. Tracks are routed to
   * those ports only from then on, so the keyframe asked for when a route starts reaches a decoder
   * (one sent to a port nobody listens on yet is lost, and Chromium sends no other by itself).
   */
  playing: boolean;
  participants: Map<string, Participant>;
  document: SceneDocument | undefined;
  timer: NodeJS.Timeout;
  /** The latency the session's jitter buffers were last set to. */
  jitterLatencyMs: number;
  /** Since when tracks have reached the pipeline without a break (undefined: none does now). */
  flowingSince: number | undefined;
  /** Whether the latency was worked out from measured tracks at least once (otherwise it is the default). */
  jitterMeasured: boolean;
}

/**
 * The WebRTC side of every session on this worker: the participants' peers, the loopback socket
 * their tracks go out on, and each session's program preview. Tracks are routed to the sources of
 * the scene (by participant and track type) and re-routed when the scene changes; the pipeline
 * listens on every live source's ports from its start, so media comes and goes without a rebuild.
 */
export class WebrtcEndpoint {
  private readonly sessions = new Map<string, SessionMedia>();
  /** The sources each track feeds now (pipeline inputs carry their source's id). */
  private readonly routes = new WeakMap<RtpForwarder, Set<string>>();
  /** Whether each track was receiving at the last look, for the 'track flows' / 'track stopped' log. */
  private readonly flowing = new WeakMap<RtpForwarder, boolean>();
  private readonly socket: Socket = createSocket('udp4');

  constructor(private readonly deps: WebrtcEndpointDeps) {
    this.socket.on('error', (err) => deps.logger.warn({ err: err.message }, 'rtp forward socket error'));
  }

  /** Prepares a session's media before its pipeline starts; returns where the pipeline sends the preview. */
  async openSession(projectId: string): Promise<PlanPreview> {
    const existing = this.sessions.get(projectId);
    if (existing) return this.previewPlan(existing.preview.port);
    const preview = new PreviewFeed(this.deps.ports.previewPort(projectId));
    await preview.open();
    const media: SessionMedia = {
      preview,
      playing: false,
      participants: new Map(),
      document: undefined,
      timer: setInterval(() => {
        void this.refreshRoutes(projectId);
        this.adjustJitterLatency(projectId);
      }, ROUTE_REFRESH_MS),
      jitterLatencyMs: JITTER_LATENCY_DEFAULT_MS,
      flowingSince: undefined,
      jitterMeasured: false,
    };
    media.timer.unref();
    this.sessions.set(projectId, media);
    return this.previewPlan(preview.port);
  }

  async closeSession(projectId: string): Promise<void> {
    const media = this.sessions.get(projectId);
    if (!media) return;
    this.sessions.delete(projectId);
    clearInterval(media.timer);
    // Pages learn at once that this worker no longer serves them (a hand-over, a stop), instead of
    // waiting for ICE to time out, and re-offer: the session's next owner answers.
    for (const p of media.participants.values()) p.onState(p.peer.peerId, 'closed');
    await Promise.all([...media.participants.values()].map((p) => p.peer.close()));
    media.preview.close();
    // The pipeline is gone (the runner stops it first): its sources' ports can serve other sessions.
    const document = await this.deps.loadDocument(projectId).catch(() => undefined);
    this.deps.ports.release(projectId, (document ?? media.document)?.sources.map((s) => s.id) ?? []);
  }

  /**
   * The sources of `document` whose person is in the session now: every source a connected
   * participant's tracks would feed (routeTrack over every track type, sent or not), so a host in
   * the studio with the camera off is there, and their camera shows 'Camera Offline'; a source
   * nobody connected would feed is not (issue 51, RenderPlan.absentInputs).
   */
  presentSources(projectId: string, document: SceneDocument): Set<string> {
    const present = new Set<string>();
    for (const p of this.sessions.get(projectId)?.participants.values() ?? []) {
      if (p.peer.connectionState === 'closed' || p.peer.connectionState === 'failed') continue;
      for (const type of trackTypes) for (const target of routeTrack(document, p.publisher, type)) present.add(target.sourceId);
    }
    return present;
  }

  hosts(projectId: string): boolean {
    return this.sessions.has(projectId);
  }

  /** A participant's (new) offer: any previous peer of theirs is replaced. */
  async offer(join: JoinOffer): Promise<string> {
    const media = this.sessions.get(join.projectId);
    if (!media) throw new Error(`session ${join.projectId} does not run on this worker`);
    const logger = this.deps.logger.child({ projectId: join.projectId, participantId: join.participantId, peerId: join.peerId });
    const previous = media.participants.get(join.participantId);
    if (previous) {
      if (previous.peer.preview) media.preview.remove(previous.peer.preview);
      this.dropTiles(media, join.participantId);
      await previous.peer.close();
    }
    const peer = new StudioPeer({
      participantId: join.participantId,
      peerId: join.peerId,
      logger,
      socket: this.socket,
      network: this.deps.network ?? {},
      onState: (state) => {
        logger.info({ state }, 'peer connection state');
        join.onState(join.peerId, state);
      },
      onTrack: (forwarder) => void this.route(join.projectId, join.publisher, forwarder),
    });
    const participant: Participant = {
      participantId: join.participantId,
      publisher: join.publisher,
      peer,
      onTiles: join.onTiles,
      onState: join.onState,
      ...(join.onSendSize ? { onSendSize: join.onSendSize } : {}),
      tiles: new Map(),
    };
    media.participants.set(join.participantId, participant);
    const { sdp, preview } = await peer.answer(join.sdp, join.tracks, join.previewMid, join.guestMids);
    if (preview) media.preview.add(preview);
    this.assignTiles(media);
    logger.info({ tracks: join.tracks.map((t) => t.type), preview: preview !== undefined }, 'participant offer answered');
    return sdp;
  }

  async addIceCandidate(
    projectId: string,
    participantId: string,
    peerId: string,
    candidate: { candidate: string; sdpMid?: string | null; sdpMLineIndex?: number | null },
  ): Promise<void> {
    const participant = this.sessions.get(projectId)?.participants.get(participantId);
    if (!participant || participant.peer.peerId !== peerId) return;
    await participant.peer.addIceCandidate(candidate);
  }

  async leave(projectId: string, participantId: string): Promise<void> {
    const media = this.sessions.get(projectId);
    const participant = media?.participants.get(participantId);
    if (!media || !participant) return;
    media.participants.delete(participantId);
    if (participant.peer.preview) media.preview.remove(participant.peer.preview);
    this.dropTiles(media, participantId);
    await participant.peer.close();
    this.assignTiles(media);
  }

  /** Stops every relay to or from a participant that is going away. */
  private dropTiles(media: SessionMedia, participantId: string): void {
    for (const p of media.participants.values()) {
      let changed = false;
      for (const [mid, tile] of p.tiles) {
        if (p.participantId === participantId || tile.guest === participantId) {
          tile.stop();
          p.tiles.delete(mid);
          changed = true;
        }
      }
      if (changed && p.participantId !== participantId) this.tellTiles(p);
    }
  }

  private tellTiles(host: Participant): void {
    host.onTiles?.(
      host.peer.peerId,
      [...host.tiles].map(([mid, t]) => ({ mid, participantId: t.guest, userId: t.userId })),
    );
  }

  /**
   * Guests' cameras on the host's tiles (issue 6 item 3): each host or co-host peer with guest
   * m-lines shows every guest's camera on a slot of its own, as long as both are there; changes are
   * told to the page. A co-host is not a guest: their camera is on no one's tiles (issue 39).
   */
  private assignTiles(media: SessionMedia): void {
    const guests = [...media.participants.values()].filter((p) => onGuestTiles(p.publisher));
    for (const host of media.participants.values()) {
      if (!seesGuestTiles(host.publisher, host.peer.guestSlots.length)) continue;
      let changed = false;
      for (const [mid, tile] of host.tiles) {
        if (!media.participants.has(tile.guest)) {
          tile.stop();
          host.tiles.delete(mid);
          changed = true;
        }
      }
      for (const guest of guests) {
        const camera = guest.peer.forwarders.find((f) => f.stats().type === 'camera');
        if (!camera || [...host.tiles.values()].some((t) => t.guest === guest.participantId)) continue;
        const slot = host.peer.guestSlots.find((s) => !host.tiles.has(s.mid));
        if (!slot) break;
        // Relayed as received, so only in the codec the host's m-line negotiated: a guest sending
        // H.264 to a host whose tile took VP8 alone shows 'Camera Offline' there instead of garbage.
        const untap = camera.addTap((packet, encoding) => {
          if (encoding === slot.encoding()) slot.track.writeRtp(packet);
        });
        const pli = () => camera.requestKeyframe(false);
        slot.onPli.add(pli);
        host.tiles.set(slot.mid, {
          guest: guest.participantId,
          userId: guest.publisher.userId,
          stop: () => {
            untap();
            slot.onPli.delete(pli);
          },
        });
        changed = true;
      }
      if (changed) this.tellTiles(host);
    }
  }

  /**
   * Follows a session's pipeline (wire to the SessionHost's `onReport`): its state, and the inputs
   * whose decoder lost packets, whose tracks are asked for a keyframe (throttled like losses).
   */
  onPipelineReport(projectId: string, report: PipelineReport): void {
    if (report.type === 'keyframeWanted') {
      for (const p of this.sessions.get(projectId)?.participants.values() ?? []) {
        for (const f of p.peer.forwarders) if (this.routes.get(f)?.has(report.inputId)) f.requestKeyframe(false);
      }
      return;
    }
    if (report.type !== 'state') return;
    if (report.state === 'playing') this.pipelinePlaying(projectId);
    else this.pipelineStopped(projectId);
  }

  /**
   * The session's pipeline plays (first start, or again after a crash or a rebuild): tracks are
   * routed to its ports, and every camera and screen sends a keyframe for its fresh decoders.
   */
  private pipelinePlaying(projectId: string): void {
    const media = this.sessions.get(projectId);
    if (!media) return;
    media.playing = true;
    for (const p of media.participants.values()) {
      for (const f of p.peer.forwarders) this.apply(media, p.publisher, f);
      p.peer.requestKeyframes();
    }
  }

  /** The pipeline stopped or failed: nothing listens on the ports until it plays again. */
  private pipelineStopped(projectId: string): void {
    const media = this.sessions.get(projectId);
    if (media) media.playing = false;
  }

  /**
   * The jitter buffers of the session's WebRTC inputs hold packets as long as its senders need and
   * no longer: the highest lateness any routed track showed lately (a keyframe's paced-out packets,
   * network jitter, a retransmission) plus a margin, within the protocol's bounds. Up at once when a
   * track needs more, down when all need clearly less. One latency for the whole session, so no
   * input's frames wait at the compositor for another's (their queues are short on purpose).
   */
  private adjustJitterLatency(projectId: string, now = Date.now()): void {
    const media = this.sessions.get(projectId);
    if (!media || !media.playing) return;
    const flowing = [...media.participants.values()].flatMap((p) => p.peer.forwarders).filter((f) => f.active && (this.routes.get(f)?.size ?? 0) > 0);
    if (flowing.length === 0) {
      media.flowingSince = undefined;
      return;
    }
    media.flowingSince ??= now;
    if (now - media.flowingSince < JITTER_SETTLE_MS) return;
    const peak = Math.max(...flowing.map((f) => f.stats().peakLatenessMs));
    media.jitterMeasured = true;
    const next = nextJitterLatency(media.jitterLatencyMs, jitterTarget(peak, { min: JITTER_LATENCY_MIN_MS, max: JITTER_LATENCY_MAX_MS }));
    if (next === undefined) return;
    this.deps.logger.info({ projectId, peakLatenessMs: peak, from: media.jitterLatencyMs, to: next }, 'jitter buffer latency set');
    media.jitterLatencyMs = next;
    this.deps.setJitterLatency?.(projectId, next);
  }

  stats(projectId: string):
    | {
        participants: { participantId: string; state: string; tracks: ForwarderStats[] }[];
        previewPackets: number;
        jitterLatencyMs: number;
        jitterMeasured: boolean;
      }
    | undefined {
    const media = this.sessions.get(projectId);
    if (!media) return undefined;
    return {
      jitterLatencyMs: media.jitterLatencyMs,
      jitterMeasured: media.jitterMeasured,
      previewPackets: media.preview.packetsReceived,
      participants: [...media.participants].map(([participantId, p]) => ({ participantId, state: p.peer.connectionState, tracks: p.peer.stats() })),
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.closeSession(id)));
    this.socket.close();
  }

  private previewPlan(port: number): PlanPreview {
    return planPreviewSchema.parse({ port, payloadType: PREVIEW_PAYLOAD_TYPE });
  }

  private async route(projectId: string, publisher: Publisher, forwarder: RtpForwarder): Promise<void> {
    const media = this.sessions.get(projectId);
    if (!media) return;
    media.document ??= await this.deps.loadDocument(projectId);
    this.apply(media, publisher, forwarder);
    for (const p of media.participants.values()) if (p.publisher === publisher) this.tellSendSize(media, p);
  }

  private async refreshRoutes(projectId: string): Promise<void> {
    const media = this.sessions.get(projectId);
    if (!media || media.participants.size === 0) return;
    try {
      media.document = await this.deps.loadDocument(projectId);
      for (const p of media.participants.values()) {
        for (const f of p.peer.forwarders) {
          this.apply(media, p.publisher, f);
          this.logFlow(projectId, p, f);
        }
        this.tellSendSize(media, p);
      }
    } catch (err) {
      this.deps.logger.warn({ err, projectId }, 'track routes not refreshed');
    }
  }

  /** Operators (and the pipeline's 'input feed' log beside it) see when a track starts or stops reaching the worker. */
  private logFlow(projectId: string, participant: Participant, forwarder: RtpForwarder): void {
    const stats = forwarder.stats();
    if (this.flowing.get(forwarder) === stats.active) return;
    this.flowing.set(forwarder, stats.active);
    this.deps.logger.info(
      {
        projectId,
        participantId: participant.participantId,
        peerId: participant.peer.peerId,
        type: stats.type,
        packets: stats.packets,
        keyframes: stats.keyframes,
        plis: stats.plis,
        lost: stats.lost,
        ports: stats.ports,
        encoding: stats.encoding,
      },
      stats.active ? 'track flows' : 'track stopped',
    );
  }

  /**
   * Asks the participant's page to send its camera at the size the program needs it (issue 41): a
   * guest in a grid tile is then sent, decoded and scaled at about the tile's size instead of its
   * camera's. The vertical canvas counts too (a destination may take it at any moment). Told only
   * when it changed; a WHIP encoder is not asked (it sends what it was set up to send).
   */
  private tellSendSize(media: SessionMedia, participant: Participant): void {
    if (!participant.onSendSize || !media.document || participant.publisher.feeds) return;
    const sources = new Set(routeTrack(media.document, participant.publisher, 'camera').map((t) => t.sourceId));
    const size = cameraSendSize(media.document, sources, { vertical: true });
    if (participant.sendSize?.width === size.width && participant.sendSize.height === size.height) return;
    participant.sendSize = size;
    participant.onSendSize(participant.peer.peerId, size);
  }

  private apply(media: SessionMedia, publisher: Publisher, forwarder: RtpForwarder): void {
    const targets = media.playing && media.document ? routeTrack(media.document, publisher, forwarder.stats().type) : [];
    this.routes.set(forwarder, new Set(targets.map((t) => t.sourceId)));
    forwarder.setTargets(targets.map((t) => this.deps.ports.source(t.sourceId)[t.media]));
  }
}
