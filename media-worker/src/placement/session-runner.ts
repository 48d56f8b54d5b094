import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { SLATE_IMAGE } from './screens.ts';
import {
  chatOnScreenStoredSchema,
  planOutputSchema,
  projectChannels,
  runningCountdownSchema,
  sceneDocumentSchema,
  sceneToRenderPlan,
  sessionCommandSchema,
  sessionKeys,
  sessionOwnerSchema,
  SESSION_OWNER_TTL_MS,
  type InputResolver,
  type PlanOutput,
  type PlanPreview,
  type RenderPlan,
  type ChatOnScreenDrawn,
  type RunningCountdown,
  type SceneDocument,
  type SessionOwner,
} from '@onair/protocol';
import type { Logger, SecretBox } from '@onair/runtime';
import type { SessionHost } from '../session/session-host.ts';
import type { ChannelRouter } from './channel-router.ts';
import type { SessionPages } from './session-pages.ts';

export interface SessionRunnerDeps {
  redis: Redis;
  router: ChannelRouter;
  host: SessionHost;
  box: SecretBox | undefined;
  resolveInput: InputResolver;
  workerId: string;
  logger: Logger;
  /** The WebRTC side of sessions: opened before the pipeline (it says where the preview goes), closed after. */
  media?: SessionMedia;
  /** Web-page sources rendered by render workers, kept in step with the scene. */
  pages?: SessionPages;
  /** See DEFAULT_SESSION_IDLE_MS. */
  idleMs?: number;
  /** The ingest feed of the project (encoder, console), pulled into its game sources. */
  ingest?: SessionIngestLink;
  /** Absolute folder of recordings in the uploads store (UPLOADS_DIR/recordings); without it nothing is recorded. */
  recordingsDir?: string;
  /** With the uploads in a bucket: brings the files a scene shows to this worker before it is planned (uploads/upload-cache.ts). */
  uploads?: { fetch(document: SceneDocument): Promise<void> };
}

export interface SessionIngestLink {
  open(projectId: string, document: SceneDocument): Promise<void>;
  update(projectId: string, document: SceneDocument): void;
  close(projectId: string): Promise<void>;
  /** Whether the project's ingest has an accepted feed now (RTMP or WHIP): its game sources are there. */
  feeding?(projectId: string): boolean;
}

export interface SessionMedia {
  openSession(projectId: string): Promise<PlanPreview>;
  closeSession(projectId: string): Promise<void>;
  /** People connected to the session now (studios, guests). */
  participantCount(projectId: string): number;
  /** The person-fed sources of `document` whose person is connected to the session now (see RenderPlan.absentInputs). */
  presentSources?(projectId: string, document: SceneDocument): ReadonlySet<string>;
}

/**
 * A session with nobody in it and nothing going out ends after this long (ARCHITECTURE "The studio
 * session": it ends after everyone left and it is not live), so its cores go back to the fleet.
 */
export const DEFAULT_SESSION_IDLE_MS = 60_000;

/** How long every live source of the program has sent nothing before the holding slate shows. */
const SLATE_AFTER_MS = 1000;

export type SessionEnd = 'stopped' | 'handed-over' | 'lost';

export class SessionDocumentMissing extends Error {
  override readonly name = 'SessionDocumentMissing';
}

/** The countdown scene the api is timing in the project (sessionKeys.countdown), if any. */
export async function readCountdown(redis: Redis, projectId: string): Promise<RunningCountdown | undefined> {
  const raw = await redis.get(sessionKeys.countdown(projectId));
  const parsed = raw === null ? undefined : runningCountdownSchema.safeParse(JSON.parse(raw));
  return parsed?.success ? parsed.data : undefined;
}

/**
 * The time left the program draws: while the active scene is the countdown scene the api is timing
 * (a running countdown of another scene, one left since, or none: nothing drawn).
 */
export function countdownInPlan(document: SceneDocument, running: RunningCountdown | undefined): RenderPlan['countdown'] {
  const active = document.scenes.find((s) => s.id === document.activeSceneId && s.deletedAt === null);
  if (active?.kind !== 'countdown' || running?.sceneId !== active.id) return undefined;
  return { endsAt: running.endsAt };
}

/** The chat message on screen the api keeps for the project (sessionKeys.chatOnScreen), as the pipeline draws it. */
export async function readChatOnScreen(redis: Redis, projectId: string): Promise<ChatOnScreenDrawn | undefined> {
  const raw = await redis.get(sessionKeys.chatOnScreen(projectId));
  const parsed = raw === null ? undefined : chatOnScreenStoredSchema.safeParse(JSON.parse(raw));
  if (!parsed?.success) return undefined;
  const { messageId, shownAt, platform, displayName, text } = parsed.data;
  return { messageId, shownAt, platform, displayName, text };
}

/** Reads the api's snapshot of a project's scene document (workers have no database access). */
export async function readDocument(redis: Redis, projectId: string): Promise<SceneDocument | undefined> {
  const raw = await redis.hget(sessionKeys.document(projectId), 'document');
  return raw === null ? undefined : sceneDocumentSchema.parse(JSON.parse(raw));
}

/**
 * One session placed on this worker: it builds the render plan from the newest scene document,
 * starts the pipeline, follows every accepted scene patch (always re-reading the snapshot, so a
 * missed or reordered message costs nothing), applies output changes, and keeps the owner record
 * alive so the api knows where the session lives.
 */
/** Deletes KEYS[1] only while it still holds ARGV[1] (an empty ARGV[1]: never). */
const DELETE_IF_UNCHANGED = `if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export class SessionRunner {
  private document: SceneDocument | undefined;
  private outputs: PlanOutput[] = [];
  /** The sealed outputs as this session last read or was sent them (what its end may clear). */
  private sealedOutputs: string | null = null;
  private unsubscribe: (() => Promise<void>)[] = [];
  private ownerTimer: NodeJS.Timeout | undefined;
  private ending: ((end: SessionEnd) => void) | undefined;
  private refreshing = Promise.resolve();
  private idleSince: number | undefined;
  readonly ended: Promise<SessionEnd>;
  private readonly since = new Date().toISOString();
  private readonly logger: Logger;
  private preview: PlanPreview | undefined;
  /** The recording the api asked for (sessionKeys.recording), written as parts under recordingsDir. */
  private recordingId: string | null = null;
  /** The countdown the api times (written before it announces the patch that shows its scene). */
  private countdown: RunningCountdown | undefined;
  /** The chat message on screen (the api's, re-read on each chatOnScreen command). */
  private chatOnScreen: ChatOnScreenDrawn | undefined;
  private chatReads = Promise.resolve();
  /** Who was there when the plan sent last was made, to re-plan when that changes. */
  private presence = '';

  constructor(
    readonly projectId: string,
    private readonly deps: SessionRunnerDeps,
    private readonly pickups = 0,
  ) {
    this.logger = deps.logger.child({ projectId });
    this.ended = new Promise((resolve) => (this.ending = resolve));
  }

  /** Whether the session streams to a destination now: what a draining worker waits for. */
  get live(): boolean {
    return this.outputs.length > 0;
  }

  /** Whether someone (a studio, a guest) is connected to the session. */
  get occupied(): boolean {
    return (this.deps.media?.participantCount(this.projectId) ?? 0) > 0;
  }

  get appliedVersion(): number {
    return this.document?.version ?? 0;
  }

  async start(): Promise<void> {
    const { router, host } = this.deps;
    // Subscribe before reading, so a patch accepted in between is not missed.
    this.unsubscribe.push(await router.on(projectChannels.scene(this.projectId), () => this.refresh()));
    this.unsubscribe.push(await router.on(sessionKeys.commands(this.projectId), (m) => this.onCommand(m)));
    const document = await readDocument(this.deps.redis, this.projectId);
    if (!document) throw new SessionDocumentMissing(`no scene document snapshot for ${this.projectId}`);
    this.document = document;
    this.outputs = await this.readOutputs();
    // A session picked up after a failover records on into the same recording, as its next part.
    this.recordingId = await this.deps.redis.get(sessionKeys.recording(this.projectId));
    this.countdown = await readCountdown(this.deps.redis, this.projectId);
    this.chatOnScreen = await readChatOnScreen(this.deps.redis, this.projectId);
    this.preview = await this.deps.media?.openSession(this.projectId);
    await this.deps.uploads?.fetch(document);
    const plan = this.plan(document);
    host.startSession({ sessionId: this.projectId, planVersion: document.version, plan });
    await this.syncPages(document, plan.profile.height);
    await this.openIngest(document);
    await this.writeOwner('running');
    this.ownerTimer = setInterval(() => {
      this.writeOwner('running').catch((err: unknown) => this.logger.warn({ err }, 'owner record not refreshed'));
      this.checkIdle();
      this.checkPresence();
    }, 1000);
    this.logger.info({ version: document.version, outputs: this.outputs.length, pickups: this.pickups }, 'session started');
  }

  /** Ends the session here. `stopped` also clears its live state; a hand-over leaves it for the next worker. */
  async stop(end: SessionEnd): Promise<void> {
    if (this.ownerTimer) clearInterval(this.ownerTimer);
    for (const off of this.unsubscribe.splice(0)) await off();
    await this.deps.ingest?.close(this.projectId);
    await this.deps.host.stopSession(this.projectId);
    // Handed over: the next owner sees that this pipeline is gone and need not wait it out.
    if (end === 'handed-over') await this.writeOwner('stopped').catch((err: unknown) => this.logger.warn({ err }, 'owner record not updated'));
    await this.deps.media?.closeSession(this.projectId);
    // Pages are stopped on a real end only: after a hand-over the next worker's session takes them
    // over (a fresh request per page), and their leases end the old ones.
    if (end === 'stopped') await this.deps.pages?.close(this.projectId);
    if (end === 'stopped') {
      await this.deps.redis.del(sessionKeys.owner(this.projectId));
      // Only what this session knew: a Go Live while it was stopping (an idle session ends in
      // seconds, and the studio reopened meanwhile) wrote new outputs for the session after it,
      // which must find them (the two-creators journey went live with no output when this cleared them).
      await this.deps.redis.eval(DELETE_IF_UNCHANGED, 1, sessionKeys.outputs(this.projectId), this.sealedOutputs ?? '');
      await this.deps.redis.eval(DELETE_IF_UNCHANGED, 1, sessionKeys.recording(this.projectId), this.recordingId ?? '');
    }
    this.logger.info({ end }, 'session ended on this worker');
    this.ending?.(end);
  }

  private refresh(): void {
    // Serialised: two patches in quick succession must not apply an older snapshot last.
    this.refreshing = this.refreshing
      .then(async () => {
        const document = await readDocument(this.deps.redis, this.projectId);
        if (!document || (this.document && document.version <= this.document.version)) return;
        this.document = document;
        this.countdown = await readCountdown(this.deps.redis, this.projectId);
        await this.deps.uploads?.fetch(document);
        const plan = this.plan(document);
        this.deps.host.applyPlan(this.projectId, document.version, plan);
        this.deps.ingest?.update(this.projectId, document);
        await this.syncPages(document, plan.profile.height);
      })
      .catch((err: unknown) => this.logger.warn({ err }, 'scene update not applied'));
  }

  /**
   * Someone joined or left (looked at every second, after any scene update in flight): the same
   * version is planned again, so a camera whose person left stops drawing 'Camera Offline' and the
   * scenes that follow a layout re-flow (issue 51).
   */
  private checkPresence(): void {
    this.refreshing = this.refreshing
      .then(() => {
        const document = this.document;
        if (!document || !this.deps.media?.presentSources) return;
        const before = this.presence;
        const plan = this.plan(document);
        if (this.presence === before) return;
        this.logger.info({ version: document.version, absent: plan.absentInputs.length }, 'who is in the session changed: planned again');
        this.deps.host.replan(this.projectId, plan);
      })
      .catch((err: unknown) => this.logger.warn({ err }, 'presence not applied'));
  }

  private checkIdle(): void {
    const busy = this.live || this.occupied;
    if (busy) {
      this.idleSince = undefined;
      return;
    }
    this.idleSince ??= Date.now();
    if (Date.now() - this.idleSince >= (this.deps.idleMs ?? DEFAULT_SESSION_IDLE_MS)) {
      this.logger.info({ idleMs: Date.now() - this.idleSince }, 'session idle: nobody in it and not live');
      this.ending?.('stopped');
    }
  }

  private async syncPages(document: SceneDocument, outputHeight: number): Promise<void> {
    try {
      await this.deps.pages?.sync(document, outputHeight);
    } catch (err) {
      // A page that cannot be requested shows nothing; the rest of the program goes on.
      this.logger.warn({ err: (err as Error).message }, 'web pages not updated');
    }
  }

  private async openIngest(document: SceneDocument): Promise<void> {
    try {
      await this.deps.ingest?.open(this.projectId, document);
    } catch (err) {
      // Without its feed the game source shows 'Game Source Offline'; the rest of the program goes on.
      this.logger.warn({ err: (err as Error).message }, 'ingest feed not followed');
    }
  }

  private plan(document: SceneDocument): RenderPlan {
    const recording = this.recording();
    const countdown = this.countdownShown(document);
    const present = this.present(document);
    this.presence = JSON.stringify(present ? [...present].sort() : null);
    const plan = {
      ...sceneToRenderPlan(document, this.deps.resolveInput, this.outputs, present ? { present } : {}),
      slate: { path: this.slatePicture(document), afterMs: SLATE_AFTER_MS },
      ...(recording ? { recording } : {}),
      ...(countdown ? { countdown } : {}),
      ...(this.chatOnScreen ? { chatOnScreen: this.chatOnScreen } : {}),
    };
    return this.preview ? { ...plan, preview: this.preview } : plan;
  }

  /**
   * Whose sources are there (RenderPlan.absentInputs): the people connected to the session, and the
   * game sources while the ingest has a feed. Unknown without the WebRTC side (tests of the fleet).
   */
  private present(document: SceneDocument): ReadonlySet<string> | undefined {
    const people = this.deps.media?.presentSources?.(this.projectId, document);
    if (!people) return undefined;
    const feeding = this.deps.ingest?.feeding?.(this.projectId) ?? false;
    return feeding ? new Set([...people, ...document.sources.filter((s) => s.kind === 'game').map((s) => s.id)]) : people;
  }

  private countdownShown(document: SceneDocument): RenderPlan['countdown'] {
    return countdownInPlan(document, this.countdown);
  }

  private recording(): RenderPlan['recording'] {
    if (!this.recordingId || !this.deps.recordingsDir) return undefined;
    return { dir: join(this.deps.recordingsDir, this.recordingId) };
  }

  /** The creator's own Be Right Back screen (an uploaded picture in a 'brb' scene) when there is one, else 'We'll be right back'. */
  private slatePicture(document: SceneDocument): string {
    for (const scene of document.scenes) {
      if (scene.kind !== 'brb' || scene.deletedAt !== null) continue;
      for (const layer of scene.layers) {
        const source = document.sources.find((s) => s.id === layer.sourceId);
        if (source?.kind !== 'image' || !source.settings.uploadId) continue;
        const input = this.deps.resolveInput(source);
        if (input?.kind === 'image') return input.path;
      }
    }
    return SLATE_IMAGE;
  }

  private onCommand(message: string): void {
    const parsed = sessionCommandSchema.safeParse(JSON.parse(message));
    if (!parsed.success) {
      this.logger.warn({ issues: parsed.error.issues.length }, 'malformed session command ignored');
      return;
    }
    const command = parsed.data;
    if (command.type === 'stop') {
      this.ending?.('stopped');
      return;
    }
    if (command.type === 'chatOnScreen') {
      this.followChatOnScreen();
      return;
    }
    if (command.type === 'setRecording') {
      this.recordingId = command.recordingId;
      this.deps.host.setRecording(this.projectId, this.recording());
      return;
    }
    try {
      this.sealedOutputs = command.outputs;
      this.outputs = this.openOutputs(command.outputs);
      this.deps.host.setOutputs(this.projectId, this.outputs);
    } catch (err) {
      this.logger.error({ err: (err as Error).message }, 'session outputs could not be opened');
    }
  }

  /**
   * The chat message on screen changed: read again (serialised, so an older read never lands last;
   * a lost command costs nothing the next one does not bring back) and drawn at once, outside the
   * scene's plan versions: the lower third is one property write in the pipeline (issue 53 item 1).
   */
  private followChatOnScreen(): void {
    this.chatReads = this.chatReads
      .then(async () => {
        const message = await readChatOnScreen(this.deps.redis, this.projectId);
        if (message?.messageId === this.chatOnScreen?.messageId && message?.shownAt === this.chatOnScreen?.shownAt) return;
        this.chatOnScreen = message;
        this.deps.host.setChatOnScreen(this.projectId, message ?? null);
      })
      .catch((err: unknown) => this.logger.warn({ err }, 'chat on screen not followed'));
  }

  private async readOutputs(): Promise<PlanOutput[]> {
    const sealed = await this.deps.redis.get(sessionKeys.outputs(this.projectId));
    this.sealedOutputs = sealed;
    return sealed === null ? [] : this.openOutputs(sealed);
  }

  private openOutputs(sealed: string): PlanOutput[] {
    if (!this.deps.box) throw new Error('SECRETS_KEY is not configured on this media worker');
    const json: unknown = JSON.parse(this.deps.box.open(sealed, `session:${this.projectId}`));
    return planOutputSchema.array().parse(json);
  }

  private async writeOwner(state: SessionOwner['state']): Promise<void> {
    const pid = state === 'running' ? this.deps.host.session(this.projectId)?.pid : undefined;
    const owner = sessionOwnerSchema.parse({
      ...(pid ? { pipeline: { host: hostname(), pid } } : {}),
      projectId: this.projectId,
      workerId: this.deps.workerId,
      state,
      since: this.since,
      lastSeenAt: new Date().toISOString(),
      appliedVersion: this.appliedVersion,
      pickups: this.pickups,
    });
    await this.deps.redis.set(sessionKeys.owner(this.projectId), JSON.stringify(owner), 'PX', SESSION_OWNER_TTL_MS);
  }
}
