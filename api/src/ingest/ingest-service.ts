import { randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  CONSOLE_APPLICATION,
  feedArrivedOps,
  IDLE_INGEST_STATUS,
  INGEST_APPLICATION,
  INGEST_PUBLISH_TTL_MS,
  ingestChangeSchema,
  ingestFeedSchema,
  ingestKeys,
  ingestPublishSchema,
  ingestStatusSchema,
  ingestStreamName,
  OnAirError,
  parseIngestStreamName,
  TWITCH_REQUIRED_TEXT,
  WHIP_PUBLISH_TTL_MS,
  type IngestFeed,
  type IngestPublish,
  type IngestStatus,
  type IngestVia,
  type IngestView,
  type RtmpCallbackQuery,
  type SceneDocument,
  type ScenePatch,
  type SessionStatus,
  type WhipResource,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger, SecretBox } from '@onair/runtime';
import { loadCurrentUser, type CurrentUser } from '../http/auth-context.ts';
import type { BroadcastService } from '../destinations/broadcast-service.ts';
import type { DestinationEvents } from '../destinations/destination-events.ts';
import { streamKeyDigest, type DestinationSecrets } from '../destinations/destination-secrets.ts';
import type { IngestConfig } from './config.ts';

export interface IngestServiceDeps {
  db: Db;
  redis: Redis;
  logger: Logger;
  config: IngestConfig;
  /** Seals the ingest keys; without SECRETS_KEY no key can be made. */
  box: SecretBox | null;
  events: DestinationEvents;
  broadcasts: BroadcastService;
  secrets: DestinationSecrets;
  /** The scene documents: a feed arriving at a project without a game source adds one. */
  scenes?: {
    getDocument(user: CurrentUser, projectId: string): Promise<SceneDocument>;
    applyPatch(user: CurrentUser, projectId: string, patch: ScenePatch): Promise<unknown>;
  };
  /** Placement of studio sessions: a WHIP publish needs its session running on a worker. */
  sessions?: { open(projectId: string): Promise<SessionStatus>; status(projectId: string): Promise<SessionStatus> };
}

/** What the RTMP server is told about a publish. */
export type PublishDecision = { accept: true; streamName: string } | { accept: false; status: 403 | 409 };

const KEY_CONTEXT = (projectId: string) => `project:${projectId}:ingestKey`;

/** A new ingest key: 24 random bytes, URL-safe (it goes in an RTMP path). */
export function newIngestKey(): string {
  return `live_${randomBytes(24).toString('base64url')}`;
}

/**
 * The ingest of every project: its key (sealed for showing, hashed for finding), the publishes the
 * RTMP server asks about, Auto Live (a feed arriving starts the broadcast, a feed gone longer than
 * the grace period ends it), and the status the studios show. Keys are never logged: a refused
 * publish is logged with its application and address only.
 */
export class IngestService {
  constructor(private readonly deps: IngestServiceDeps) {}

  private get logger(): Logger {
    return this.deps.logger;
  }

  // ─── The studio ───

  async view(projectId: string): Promise<IngestView> {
    const project = await this.deps.db.project.findUnique({ where: { id: projectId }, select: { autoLive: true, ingestKeyEnc: true } });
    if (!project) throw new OnAirError('NOT_FOUND', 'This project does not exist.');
    const streamKey = this.openKey(projectId, project.ingestKeyEnc ?? (await this.firstKey(projectId)));
    const [twitch, status, feed] = await Promise.all([this.twitchEnabled(projectId), this.status(projectId), this.feed(projectId)]);
    const server = this.deps.config.INGEST_RTMP_URL;
    if (!server) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'This server offers no ingest: its operator has not set INGEST_RTMP_URL.');
    return {
      serverUrl: `${server}/${INGEST_APPLICATION}`,
      streamKey,
      consoleServerUrl: `${server}/${CONSOLE_APPLICATION}`,
      autoLive: project.autoLive,
      twitchEnabled: twitch,
      graceSeconds: this.deps.config.INGEST_GRACE_SECONDS,
      status,
      feed,
      guideLinks: { tutorialUrl: this.deps.config.CONSOLE_TUTORIAL_URL, helpCenterUrl: this.deps.config.HELP_CENTER_URL },
    };
  }

  /** A new key; the old one is refused from now on (a feed still using it is cut at the server's next check). */
  async regenerate(projectId: string): Promise<IngestView> {
    await this.replaceKey(projectId);
    this.logger.info({ projectId }, 'ingest key regenerated');
    return this.view(projectId);
  }

  async setAutoLive(projectId: string, enabled: boolean): Promise<IngestView> {
    if (enabled && !(await this.twitchEnabled(projectId))) throw new OnAirError('CONFLICT', TWITCH_REQUIRED_TEXT, { rule: 'twitch-required' });
    await this.deps.db.project.update({ where: { id: projectId }, data: { autoLive: enabled } });
    this.logger.info({ projectId, autoLive: enabled }, 'auto live switched');
    await this.publishStatus(projectId, await this.status(projectId), enabled);
    // Switched on while a feed is already arriving: that feed starts the broadcast now.
    if (enabled && (await this.currentPublish(projectId))) this.startAutoLive(projectId);
    return this.view(projectId);
  }

  private async replaceKey(projectId: string): Promise<string> {
    const box = this.deps.box;
    if (!box) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'This server cannot store ingest keys: its operator has not set SECRETS_KEY.');
    const key = newIngestKey();
    await this.deps.db.project.update({
      where: { id: projectId },
      data: { ingestKeyHash: streamKeyDigest(key), ingestKeyEnc: box.seal(key, KEY_CONTEXT(projectId)) },
    });
    return key;
  }

  /**
   * The project's first key, made on first view. Two studios opening at once must not each get a
   * key of their own: only the first write lands, and everyone reads what it wrote.
   */
  private async firstKey(projectId: string): Promise<string> {
    const box = this.deps.box;
    if (!box) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'This server cannot store ingest keys: its operator has not set SECRETS_KEY.');
    const key = newIngestKey();
    await this.deps.db.project.updateMany({
      where: { id: projectId, ingestKeyEnc: null },
      data: { ingestKeyHash: streamKeyDigest(key), ingestKeyEnc: box.seal(key, KEY_CONTEXT(projectId)) },
    });
    const row = await this.deps.db.project.findUniqueOrThrow({ where: { id: projectId }, select: { ingestKeyEnc: true } });
    return row.ingestKeyEnc!;
  }

  private openKey(projectId: string, sealed: string): string {
    if (!this.deps.box) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'This server cannot read ingest keys: its operator has not set SECRETS_KEY.');
    try {
      return this.deps.box.open(sealed, KEY_CONTEXT(projectId));
    } catch {
      throw new OnAirError('INTERNAL', 'The saved ingest key cannot be read. Generate a new one.');
    }
  }

  private async twitchEnabled(projectId: string): Promise<boolean> {
    return (await this.deps.db.destination.count({ where: { projectId, type: 'Twitch', enabled: true } })) > 0;
  }

  async status(projectId: string): Promise<IngestStatus> {
    const raw = await this.deps.redis.get(ingestKeys.status(projectId));
    const parsed = raw ? ingestStatusSchema.safeParse(JSON.parse(raw)) : null;
    return parsed?.success ? parsed.data : IDLE_INGEST_STATUS;
  }

  private async feed(projectId: string): Promise<IngestFeed | null> {
    const raw = await this.deps.redis.get(ingestKeys.feed(projectId));
    const parsed = raw ? ingestFeedSchema.safeParse(JSON.parse(raw)) : null;
    return parsed?.success ? parsed.data : null;
  }

  private async setStatus(projectId: string, status: IngestStatus): Promise<void> {
    await this.deps.redis.set(ingestKeys.status(projectId), JSON.stringify(status));
    const project = await this.deps.db.project.findUnique({ where: { id: projectId }, select: { autoLive: true } });
    await this.publishStatus(projectId, status, project?.autoLive ?? false);
  }

  private async publishStatus(projectId: string, status: IngestStatus, autoLive: boolean): Promise<void> {
    await this.deps.events.publish({ type: 'ingest.status', projectId, autoLive, status });
  }

  private async currentPublish(projectId: string): Promise<IngestPublish | null> {
    const raw = await this.deps.redis.get(ingestKeys.publish(projectId));
    const parsed = raw ? ingestPublishSchema.safeParse(JSON.parse(raw)) : null;
    return parsed?.success ? parsed.data : null;
  }

  // ─── WHIP ───

  /** The project a WHIP bearer token (the project's ingest key) opens; null when it opens none or another project. */
  async whipAuthorize(projectId: string, bearer: string | null): Promise<string | null> {
    if (!bearer) return null;
    const found = await this.projectOfKey(INGEST_APPLICATION, bearer);
    if (found?.projectId !== projectId) {
      this.logger.warn({ projectId }, 'whip publish refused: unknown or revoked key');
      return null;
    }
    return streamKeyDigest(bearer);
  }

  /** Waits until the project's session runs on a worker (placing it if needed). */
  async whipSession(projectId: string, timeoutMs = 20_000): Promise<boolean> {
    const sessions = this.deps.sessions;
    if (!sessions) return false;
    let status = await sessions.status(projectId);
    if (status.state === 'stopped') status = await sessions.open(projectId);
    const deadline = Date.now() + timeoutMs;
    while (status.state !== 'running' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      status = await sessions.status(projectId);
    }
    return status.state === 'running';
  }

  /** A WHIP publish began: one feed per project, as for RTMP; Auto Live starts the broadcast. */
  async whipStarted(projectId: string, keyDigest: string, sourceId: string | null): Promise<WhipResource | null> {
    const publish: IngestPublish = {
      projectId,
      publishId: randomUUID(),
      via: 'whip',
      pullPath: null,
      clientId: 'whip',
      keyDigest,
      startedAt: new Date().toISOString(),
    };
    const taken = await this.deps.redis.set(ingestKeys.publish(projectId), JSON.stringify(publish), 'PX', WHIP_PUBLISH_TTL_MS, 'NX');
    if (taken !== 'OK') {
      this.logger.warn({ projectId }, 'whip publish refused: the project already receives a feed');
      return null;
    }
    await this.deps.redis.zrem(ingestKeys.grace, projectId);
    this.logger.info({ projectId, publishId: publish.publishId }, 'whip publish accepted');
    await this.setStatus(projectId, { state: 'receiving', via: 'whip', since: publish.startedAt, graceEndsAt: null });
    if (!sourceId) this.afterAccept(projectId);
    else this.startAutoLiveIfOn(projectId);
    return { projectId, keyDigest, publishId: publish.publishId, sourceId };
  }

  /** The WHIP resource was deleted (or its offer failed): the feed ended. */
  async whipEnded(resource: WhipResource): Promise<void> {
    const publish = await this.currentPublish(resource.projectId);
    if (publish?.publishId === resource.publishId) await this.feedEnded(publish);
  }

  // ─── The RTMP server's callbacks ───

  /** The project a publish's key opens, and through which door; null for an unknown key. */
  private async projectOfKey(app: string, key: string): Promise<{ projectId: string; via: IngestVia } | null> {
    if (key.length < 8) return null;
    const digest = streamKeyDigest(key);
    if (app === INGEST_APPLICATION) {
      const project = await this.deps.db.project.findUnique({ where: { ingestKeyHash: digest }, select: { id: true } });
      return project ? { projectId: project.id, via: 'encoder' } : null;
    }
    if (app === CONSOLE_APPLICATION) {
      const projectId = await this.projectOfTwitchKey(key, digest);
      return projectId ? { projectId, via: 'console' } : null;
    }
    return null;
  }

  /**
   * The project whose enabled Twitch destination streams with this key (read through the linked
   * destination). Keys saved before digests existed get theirs here, once.
   */
  private async projectOfTwitchKey(key: string, digest: string): Promise<string | null> {
    const found = await this.deps.db.destination.findFirst({
      where: { type: 'Twitch', enabled: true, streamKeyHash: digest },
      select: { projectId: true },
      orderBy: { createdAt: 'asc' },
    });
    if (found) return found.projectId;
    const unhashed = await this.deps.db.destination.findMany({
      where: { type: 'Twitch', streamKeyHash: null, streamKeyEnc: { not: null } },
      select: { id: true, projectId: true, enabled: true, streamKeyEnc: true },
      take: 200,
    });
    let match: string | null = null;
    for (const row of unhashed) {
      try {
        const plain = this.deps.secrets.open(row.id, 'streamKey', row.streamKeyEnc!);
        const rowDigest = streamKeyDigest(plain);
        await this.deps.db.destination.update({ where: { id: row.id }, data: { streamKeyHash: rowDigest } });
        if (rowDigest === digest && row.enabled) match ??= row.projectId;
      } catch {
        // A key sealed with another SECRETS_KEY cannot be read; it is skipped.
      }
    }
    return match;
  }

  /**
   * nginx-rtmp's on_publish. An unknown key is refused (403) before anything starts; a second
   * publisher on a project that is already receiving is refused (409) and the first goes on. An
   * accepted publish is renamed to `<project>.<publish>` so the key goes no further than here.
   */
  async onPublish(q: RtmpCallbackQuery): Promise<PublishDecision> {
    const found = await this.projectOfKey(q.app, q.name);
    if (!found) {
      this.logger.warn({ app: q.app, addr: q.addr, clientId: q.clientid }, 'ingest publish refused: unknown or revoked key');
      return { accept: false, status: 403 };
    }
    const { projectId, via } = found;
    const publishId = randomUUID();
    const streamName = ingestStreamName(projectId, publishId);
    const publish: IngestPublish = {
      projectId,
      publishId,
      via,
      pullPath: `${q.app}/${streamName}`,
      clientId: q.clientid,
      keyDigest: streamKeyDigest(q.name),
      startedAt: new Date().toISOString(),
    };
    // NX: only one publish per project; the first stays undisturbed.
    const taken = await this.deps.redis.set(ingestKeys.publish(projectId), JSON.stringify(publish), 'PX', INGEST_PUBLISH_TTL_MS, 'NX');
    if (taken !== 'OK') {
      this.logger.warn({ projectId, app: q.app, addr: q.addr, clientId: q.clientid }, 'ingest publish refused: the project already receives a feed');
      return { accept: false, status: 409 };
    }
    await this.deps.redis.set(ingestKeys.byKeyDigest(publish.keyDigest), projectId, 'PX', INGEST_PUBLISH_TTL_MS);
    // A feed back within the grace period: the pending end is called off, the broadcast goes on.
    await this.deps.redis.zrem(ingestKeys.grace, projectId);
    this.logger.info({ projectId, publishId, via, addr: q.addr }, 'ingest publish accepted');
    await this.setStatus(projectId, { state: 'receiving', via, since: publish.startedAt, graceEndsAt: null });
    await this.deps.redis.publish(ingestKeys.channel(projectId), JSON.stringify(ingestChangeSchema.parse({ publish })));
    this.afterAccept(projectId);
    return { accept: true, streamName };
  }

  /** The publish of a callback: by its renamed stream, or by the key and connection it started with. */
  private async publishOf(q: RtmpCallbackQuery): Promise<IngestPublish | null> {
    const renamed = parseIngestStreamName(q.name);
    const projectId = renamed?.projectId ?? (await this.deps.redis.get(ingestKeys.byKeyDigest(streamKeyDigest(q.name))));
    if (!projectId) return null;
    const publish = await this.currentPublish(projectId);
    if (!publish) return null;
    const same = renamed ? publish.publishId === renamed.publishId : publish.clientId === q.clientid && publish.keyDigest === streamKeyDigest(q.name);
    return same ? publish : null;
  }

  /**
   * nginx-rtmp's on_update (every few seconds while publishing): keeps the publish record alive, and
   * cuts off a feed whose key was revoked meanwhile. False → the server drops the publisher.
   */
  async onUpdate(q: RtmpCallbackQuery): Promise<boolean> {
    const publish = await this.publishOf(q);
    if (!publish) return false;
    if (!(await this.keyStillValid(publish))) {
      this.logger.warn({ projectId: publish.projectId, publishId: publish.publishId }, 'ingest feed cut off: its key was revoked');
      await this.feedEnded(publish);
      return false;
    }
    await this.deps.redis.pexpire(ingestKeys.publish(publish.projectId), INGEST_PUBLISH_TTL_MS);
    await this.deps.redis.pexpire(ingestKeys.byKeyDigest(publish.keyDigest), INGEST_PUBLISH_TTL_MS);
    return true;
  }

  private async keyStillValid(publish: IngestPublish): Promise<boolean> {
    if (publish.via === 'encoder') {
      const project = await this.deps.db.project.findUnique({ where: { id: publish.projectId }, select: { ingestKeyHash: true } });
      return project?.ingestKeyHash === publish.keyDigest;
    }
    if (publish.via === 'console') {
      return (
        (await this.deps.db.destination.count({ where: { projectId: publish.projectId, type: 'Twitch', enabled: true, streamKeyHash: publish.keyDigest } })) > 0
      );
    }
    return true;
  }

  /** nginx-rtmp's on_publish_done: the feed stopped. Auto Live ends the broadcast if it stays away past the grace period. */
  async onPublishDone(q: RtmpCallbackQuery): Promise<void> {
    const publish = await this.publishOf(q);
    if (!publish) return;
    await this.feedEnded(publish);
  }

  private async feedEnded(publish: IngestPublish): Promise<void> {
    const { projectId } = publish;
    // Only the record of this publish: a newer one (a restart) is left alone.
    const raw = await this.deps.redis.get(ingestKeys.publish(projectId));
    if (raw && ingestPublishSchema.safeParse(JSON.parse(raw)).data?.publishId === publish.publishId) await this.deps.redis.del(ingestKeys.publish(projectId));
    await this.deps.redis.publish(ingestKeys.channel(projectId), JSON.stringify(ingestChangeSchema.parse({ publish: null })));
    const graceMs = this.deps.config.INGEST_GRACE_SECONDS * 1000;
    const graceEndsAt = Date.now() + graceMs;
    await this.deps.redis.zadd(ingestKeys.grace, graceEndsAt, projectId);
    this.logger.info({ projectId, publishId: publish.publishId, graceMs }, 'ingest feed ended');
    await this.setStatus(projectId, { state: 'dropped', via: publish.via, since: new Date().toISOString(), graceEndsAt: new Date(graceEndsAt).toISOString() });
  }

  /**
   * Feeds gone past their grace period: the ingest waits again and, with Auto Live on, the broadcast
   * ends. ZREM claims each project, so one api replica acts on it.
   */
  async sweepGrace(now = Date.now()): Promise<number> {
    const due = await this.deps.redis.zrangebyscore(ingestKeys.grace, 0, now);
    let ended = 0;
    for (const projectId of due) {
      if ((await this.deps.redis.zrem(ingestKeys.grace, projectId)) !== 1) continue;
      if (await this.currentPublish(projectId)) continue;
      await this.setStatus(projectId, { ...IDLE_INGEST_STATUS, since: new Date(now).toISOString() });
      const project = await this.deps.db.project.findUnique({ where: { id: projectId }, select: { autoLive: true } });
      if (!project?.autoLive) continue;
      try {
        if (await this.deps.broadcasts.endWithoutFeed(projectId)) ended += 1;
      } catch (err) {
        this.logger.error({ projectId, err: (err as Error).message }, 'auto live: ending the broadcast failed');
      }
    }
    return ended;
  }

  /** After a feed was accepted (the RTMP server has its answer already): a game source to show it, then Auto Live. */
  private afterAccept(projectId: string): void {
    void this.ensureGameSource(projectId)
      .catch((err: unknown) => this.logger.warn({ projectId, err: (err as Error).message }, 'no game source could be added for the feed'))
      .then(() => this.startAutoLiveIfOn(projectId));
  }

  private startAutoLiveIfOn(projectId: string): void {
    void this.deps.db.project
      .findUnique({ where: { id: projectId }, select: { autoLive: true } })
      .then((project) => {
        if (project?.autoLive) this.startAutoLive(projectId);
      })
      .catch((err: unknown) => this.logger.warn({ projectId, err: (err as Error).message }, 'auto live: the project could not be read'));
  }

  /**
   * A feed lands in the project's game source, and an arriving feed is always seen
   * (media-worker/README.md, issue 51): a project without a game source gets one, full frame in the
   * active scene (the first ordinary scene when a screen is showing, made active), and the scene is
   * arranged around it, the host's camera in a corner, following that layout (feedArrivedOps). A
   * project that has one is the creator's arrangement and is left alone. A camera nobody publishes
   * draws nothing over it in the program (the worker's presence, RenderPlan.absentInputs).
   */
  private async ensureGameSource(projectId: string): Promise<void> {
    const scenes = this.deps.scenes;
    if (!scenes) return;
    const project = await this.deps.db.project.findUnique({ where: { id: projectId }, select: { ownerId: true } });
    const owner = project ? await loadCurrentUser(this.deps.db, project.ownerId) : null;
    if (!owner) return;
    const doc = await scenes.getDocument(owner, projectId);
    const ops = feedArrivedOps(doc, randomUUID);
    if (ops.length === 0) return;
    await scenes.applyPatch(owner, projectId, { baseVersion: doc.version, ops });
    const sourceId = ops[0]?.op === 'addSource' ? ops[0].source.id : undefined;
    this.logger.info({ projectId, sourceId }, 'a game source was added for the arriving feed');
  }

  /** Starts the broadcast as the owner's Go Live would; runs after the RTMP server got its answer. */
  private startAutoLive(projectId: string): void {
    void (async () => {
      const project = await this.deps.db.project.findUnique({ where: { id: projectId }, select: { ownerId: true } });
      const owner = project ? await loadCurrentUser(this.deps.db, project.ownerId) : null;
      if (!owner) return;
      const started = await this.deps.broadcasts.goLiveAsOwner(owner, projectId);
      if (started) this.logger.info({ projectId, broadcastId: started.id, state: started.state }, 'auto live: the feed started the broadcast');
    })().catch((err: unknown) => {
      // Already live (a concurrent start), no destination can receive: the studio shows the broadcast's own state.
      const code = err instanceof OnAirError ? err.code : 'INTERNAL';
      this.logger.warn({ projectId, code, err: (err as Error).message }, 'auto live: the broadcast did not start');
    });
  }
}
