import type { Redis } from 'ioredis';
import {
  destinationChannels,
  ingestChangeSchema,
  ingestFeedMessageSchema,
  ingestKeys,
  ingestPublishSchema,
  type IngestFeed,
  type IngestPublish,
  type SceneDocument,
} from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { ChannelRouter } from '../placement/channel-router.ts';
import type { MediaPorts } from '../webrtc/media-ports.ts';
import { IngestRelay, type RelayTarget } from './ingest-relay.ts';

/** The feed report stays readable this long after the last one (a studio opening mid-feed). */
const FEED_TTL_SECONDS = 5;

export interface SessionIngestDeps {
  redis: Redis;
  router: ChannelRouter;
  ports: MediaPorts;
  /** `rtmp://host:port` of the ingest server (INGEST_PULL_URL); without it no feed is pulled. */
  pullBase: string | undefined;
  logger: Logger;
  stallAfterMs?: number;
}

interface Followed {
  publishId: string | null;
  relay: IngestRelay | undefined;
  targets: RelayTarget[];
  off: () => Promise<void>;
}

/**
 * The ingest side of this worker's sessions: for each session it follows the project's accepted
 * publish (Redis record + change channel written by the api) and, while there is one, runs an
 * IngestRelay into the ports of the session's game sources. Feed reports go to the studios through
 * the project's channel and a short-lived Redis record.
 */
export class SessionIngest {
  private readonly sessions = new Map<string, Followed>();

  constructor(private readonly deps: SessionIngestDeps) {}

  /** Starts following a session's ingest; `document` says which game sources take the feed. */
  async open(projectId: string, document: SceneDocument): Promise<void> {
    if (!this.deps.pullBase || this.sessions.has(projectId)) return;
    const followed: Followed = { publishId: null, relay: undefined, targets: this.targetsOf(document), off: async () => undefined };
    this.sessions.set(projectId, followed);
    followed.off = await this.deps.router.on(ingestKeys.channel(projectId), (message) => {
      const change = ingestChangeSchema.safeParse(JSON.parse(message));
      if (change.success) void this.follow(projectId, change.data.publish);
    });
    const raw = await this.deps.redis.get(ingestKeys.publish(projectId));
    const publish = raw ? ingestPublishSchema.safeParse(JSON.parse(raw)) : null;
    await this.follow(projectId, publish?.success ? publish.data : null);
  }

  /** The scene changed: the feed goes to the game sources it has now. */
  update(projectId: string, document: SceneDocument): void {
    const followed = this.sessions.get(projectId);
    if (!followed) return;
    followed.targets = this.targetsOf(document);
    followed.relay?.setTargets(followed.targets);
  }

  /** Whether the project has an accepted feed now (an RTMP publish being pulled, or a WHIP one). */
  feeding(projectId: string): boolean {
    return (this.sessions.get(projectId)?.publishId ?? null) !== null;
  }

  async close(projectId: string): Promise<void> {
    const followed = this.sessions.get(projectId);
    if (!followed) return;
    this.sessions.delete(projectId);
    await followed.off();
    if (followed.relay) {
      followed.relay.stop();
      await this.publishFeed(projectId, null);
    }
  }

  private async follow(projectId: string, publish: IngestPublish | null): Promise<void> {
    const followed = this.sessions.get(projectId);
    if (!followed || (publish?.publishId ?? null) === followed.publishId) return;
    followed.publishId = publish?.publishId ?? null;
    if (followed.relay) {
      followed.relay.stop();
      followed.relay = undefined;
      await this.publishFeed(projectId, null);
    }
    // A WHIP publish arrives over WebRTC (the session's endpoint routes it); only RTMP is pulled.
    if (!publish?.pullPath || !this.deps.pullBase) return;
    const logger = this.deps.logger.child({ projectId, publishId: publish.publishId });
    const relay = new IngestRelay({
      pullUrl: `${this.deps.pullBase}/${publish.pullPath}`,
      logger,
      onFeed: (feed) => void this.publishFeed(projectId, feed),
      ...(this.deps.stallAfterMs ? { stallAfterMs: this.deps.stallAfterMs } : {}),
    });
    relay.setTargets(followed.targets);
    followed.relay = relay;
    logger.info({ via: publish.via, targets: followed.targets.length }, 'pulling the ingest feed into the game sources');
    // Stopped meanwhile if the session closed or the publish changed (start() then starts nothing).
    await relay.start();
  }

  private targetsOf(document: SceneDocument): RelayTarget[] {
    return document.sources
      .filter((s) => s.kind === 'game')
      .map((s) => {
        const ports = this.deps.ports.source(s.id);
        return { video: ports.video.H264, audio: ports.audio.OPUS };
      });
  }

  private async publishFeed(projectId: string, feed: IngestFeed | null): Promise<void> {
    try {
      if (feed) await this.deps.redis.set(ingestKeys.feed(projectId), JSON.stringify(feed), 'EX', FEED_TTL_SECONDS);
      else await this.deps.redis.del(ingestKeys.feed(projectId));
      await this.deps.redis.publish(
        destinationChannels.project(projectId),
        JSON.stringify(ingestFeedMessageSchema.parse({ type: 'ingest.feed', projectId, feed })),
      );
    } catch (err) {
      this.deps.logger.warn({ projectId, err: (err as Error).message }, 'ingest feed report not published');
    }
  }
}
