import type { Redis } from 'ioredis';
import {
  participantSignalSchema,
  signalingChannels,
  workerSignalSchema,
  type ParticipantSignal,
  type PlanPreview,
  type SceneDocument,
  type WorkerSignal,
} from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { ChannelRouter } from './channel-router.ts';
import type { SessionMedia } from './session-runner.ts';
import type { WebrtcEndpoint } from '../webrtc/webrtc-endpoint.ts';

export interface SignalingRelayDeps {
  endpoint: WebrtcEndpoint;
  router: ChannelRouter;
  /** A normal (non-subscriber) connection to publish answers and states on. */
  redis: Redis;
  workerId: string;
  logger: Logger;
}

/**
 * The worker's end of signaling: while a session runs here, the worker listens on the project's
 * signaling channel, which only the owner subscribes to, so after a failover the api's next relay
 * reaches the new owner without knowing it moved. Answers and connection states go back on the
 * participant's channel, which the api replica holding their socket listens on.
 */
export class SignalingRelay implements SessionMedia {
  private readonly subscriptions = new Map<string, () => Promise<void>>();

  constructor(private readonly deps: SignalingRelayDeps) {}

  async openSession(projectId: string): Promise<PlanPreview> {
    const preview = await this.deps.endpoint.openSession(projectId);
    if (!this.subscriptions.has(projectId)) {
      const off = await this.deps.router.on(signalingChannels.toWorker(projectId), (raw) => void this.onSignal(projectId, raw));
      this.subscriptions.set(projectId, off);
    }
    return preview;
  }

  participantCount(projectId: string): number {
    return this.deps.endpoint.stats(projectId)?.participants.filter((p) => p.state !== 'closed' && p.state !== 'failed').length ?? 0;
  }

  presentSources(projectId: string, document: SceneDocument): ReadonlySet<string> {
    return this.deps.endpoint.presentSources(projectId, document);
  }

  async closeSession(projectId: string): Promise<void> {
    const off = this.subscriptions.get(projectId);
    this.subscriptions.delete(projectId);
    await off?.();
    await this.deps.endpoint.closeSession(projectId);
  }

  private async onSignal(projectId: string, raw: string): Promise<void> {
    let signal: WorkerSignal;
    try {
      signal = workerSignalSchema.parse(JSON.parse(raw));
    } catch (err) {
      this.deps.logger.warn({ projectId, err: (err as Error).message }, 'malformed signaling message ignored');
      return;
    }
    if (signal.projectId !== projectId) return;
    const { endpoint } = this.deps;
    try {
      switch (signal.type) {
        case 'offer': {
          const sdp = await endpoint.offer({
            projectId,
            participantId: signal.participantId,
            publisher: {
              userId: signal.userId,
              isHost: signal.role === 'host',
              guest: signal.role === 'guest',
              ...(signal.feeds ? { feeds: signal.feeds } : {}),
            },
            peerId: signal.peerId,
            sdp: signal.sdp,
            tracks: signal.tracks,
            previewMid: signal.previewMid,
            guestMids: signal.guestMids,
            onState: (peerId, state) =>
              void this.send({ type: 'state', projectId, participantId: signal.participantId, peerId, state, workerId: this.deps.workerId }),
            onTiles: (peerId, tiles) =>
              void this.send({ type: 'tiles', projectId, participantId: signal.participantId, peerId, tiles, workerId: this.deps.workerId }),
            onSendSize: (peerId, camera) =>
              void this.send({ type: 'sendSize', projectId, participantId: signal.participantId, peerId, camera, workerId: this.deps.workerId }),
          });
          await this.send({ type: 'answer', projectId, participantId: signal.participantId, peerId: signal.peerId, sdp, workerId: this.deps.workerId });
          return;
        }
        case 'ice':
          await endpoint.addIceCandidate(projectId, signal.participantId, signal.peerId, signal.candidate);
          return;
        case 'leave':
          await endpoint.leave(projectId, signal.participantId);
          return;
      }
    } catch (err) {
      this.deps.logger.warn({ projectId, participantId: signal.participantId, type: signal.type, err: (err as Error).message }, 'signaling message failed');
      if (signal.type === 'offer') {
        await this.send({
          type: 'state',
          projectId,
          participantId: signal.participantId,
          peerId: signal.peerId,
          state: 'closed',
          workerId: this.deps.workerId,
        });
      }
    }
  }

  private async send(message: ParticipantSignal): Promise<void> {
    await this.deps.redis.publish(signalingChannels.toParticipant(message.participantId), JSON.stringify(participantSignalSchema.parse(message)));
  }
}
