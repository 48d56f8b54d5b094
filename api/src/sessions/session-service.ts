import type { Redis } from 'ioredis';
import {
  OnAirError,
  queues,
  SESSION_OWNER_FRESH_MS,
  sessionCommandSchema,
  sessionKeys,
  sessionOwnerSchema,
  type PlanOutput,
  type SessionCommand,
  type SessionJob,
  type SessionOwner,
  type SessionStatus,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import { BullQueue, type Logger, type SecretBox } from '@onair/runtime';
import type { SessionControl } from '../destinations/session-control.ts';
import { loadSceneDocument } from '../scenes/scene-store.ts';
import { assertOwnerPlanAllows } from '../http/auth-context.ts';
import { writeDocumentSnapshot } from '../scenes/document-snapshot.ts';

/**
 * The api's side of studio sessions: it queues a session for placement, tells the owning worker
 * what to do (over Redis, wherever that worker runs), and answers where a session stands. The
 * queue's job id is the project id, so a project has at most one session however often it is opened.
 */
export class SessionService implements SessionControl {
  /** A producer on the api's connection: the media workers consume it. */
  private readonly jobs: BullQueue<SessionJob>;

  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly box: SecretBox | undefined,
    private readonly logger: Logger,
  ) {
    this.jobs = new BullQueue(redis, queues.sessions, { connection: 'shared' });
  }

  /** Refused (PRODUCT_NOT_IN_PLAN) when the owner's plan has `can-use-product` off: the room, Go Live and ingest all open through here. */
  async open(projectId: string): Promise<SessionStatus> {
    await assertOwnerPlanAllows(this.db, projectId, 'can-use-product');
    const document = await loadSceneDocument(this.db, projectId);
    if (!document) throw new OnAirError('NOT_FOUND', 'This project does not exist.');
    await writeDocumentSnapshot(this.redis, document);
    const vertical = (await this.db.destination.count({ where: { projectId, enabled: true, canvas: 'vertical' } })) > 0;
    const job: SessionJob = { projectId, requestedAt: new Date().toISOString(), ...(vertical ? { vertical } : {}) };
    // An existing job with this id (waiting or running) makes this a no-op: opening twice is fine.
    await this.jobs.add('session', job, { jobId: projectId, removeOnComplete: true, removeOnFail: true });
    this.logger.info({ projectId }, 'session requested');
    return this.status(projectId);
  }

  async status(projectId: string): Promise<SessionStatus> {
    const [owner, job] = await Promise.all([this.owner(projectId), this.jobs.queue.getJob(projectId)]);
    const state = job ? await job.getState() : 'unknown';
    const base = { projectId, workerId: null, waitingSinceMs: null, appliedVersion: null, pickups: owner?.pickups ?? 0 };
    if (state === 'active' && owner && Date.now() - Date.parse(owner.lastSeenAt) < SESSION_OWNER_FRESH_MS) {
      return { ...base, state: owner.state, workerId: owner.workerId, appliedVersion: owner.appliedVersion };
    }
    if (state === 'active') return { ...base, state: 'starting' };
    if (job && (state === 'waiting' || state === 'delayed' || state === 'prioritized')) {
      return { ...base, state: 'waiting', waitingSinceMs: Math.max(0, Date.now() - job.timestamp) };
    }
    return { ...base, state: 'stopped' };
  }

  async close(projectId: string): Promise<SessionStatus> {
    const job = await this.jobs.queue.getJob(projectId);
    if (job && (await job.getState()) !== 'active') await job.remove().catch(() => undefined);
    await this.command(projectId, { type: 'stop' });
    return { ...(await this.status(projectId)), state: job ? 'stopping' : 'stopped' };
  }

  /** Hands the session its destinations (stream keys sealed for the worker; kept for a pickup after failover). */
  async setOutputs(projectId: string, outputs: PlanOutput[]): Promise<void> {
    if (!this.box) throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'Going live needs SECRETS_KEY to be configured on this server.');
    const sealed = this.box.seal(JSON.stringify(outputs), `session:${projectId}`);
    await this.redis.set(sessionKeys.outputs(projectId), sealed);
    await this.command(projectId, { type: 'setOutputs', outputs: sealed });
  }

  /** Go Live: the session is opened if it is not running yet, and picks the outputs up when it starts. */
  async startBroadcast(projectId: string, outputs: PlanOutput[], recordingId: string | null = null): Promise<void> {
    // The recording first: a session that starts now reads both keys when it starts.
    await this.setRecording(projectId, recordingId);
    await this.setOutputs(projectId, outputs);
    const status = await this.status(projectId);
    if (status.state === 'stopped') await this.open(projectId);
  }

  /** End Broadcast: every output stops; the session itself stays for the studio's preview. */
  async stopBroadcast(projectId: string): Promise<void> {
    await this.setOutputs(projectId, []);
    await this.setRecording(projectId, null);
  }

  /** Kept in Redis too, so a session picked up after a failover records on (as the recording's next part). */
  private async setRecording(projectId: string, recordingId: string | null): Promise<void> {
    if (recordingId) await this.redis.set(sessionKeys.recording(projectId), recordingId);
    else await this.redis.del(sessionKeys.recording(projectId));
    await this.command(projectId, { type: 'setRecording', recordingId });
  }

  async closeQueue(): Promise<void> {
    await this.jobs.close();
  }

  private async command(projectId: string, command: SessionCommand): Promise<void> {
    await this.redis.publish(sessionKeys.commands(projectId), JSON.stringify(sessionCommandSchema.parse(command)));
  }

  private async owner(projectId: string): Promise<SessionOwner | undefined> {
    const raw = await this.redis.get(sessionKeys.owner(projectId));
    if (raw === null) return undefined;
    const parsed = sessionOwnerSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }
}
