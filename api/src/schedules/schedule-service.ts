import { randomUUID } from 'node:crypto';
import {
  CANVAS,
  canHideOrReplaceLogo,
  OnAirError,
  SCHEDULE_MAX_DAYS_AHEAD,
  type ScheduledBroadcast as ScheduledBroadcastView,
  type ScheduledBroadcastJob,
  type SceneOp,
} from '@onair/protocol';
import type { Db, ScheduledBroadcast } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { BroadcastService } from '../destinations/broadcast-service.ts';
import { loadCurrentUser } from '../http/auth-context.ts';
import type { SceneService } from '../scenes/scene-service.ts';
import type { ScheduledBroadcastQueue } from './schedule-queue.ts';

const NOT_FOUND = 'This scheduled broadcast does not exist.';

function view(row: ScheduledBroadcast): ScheduledBroadcastView {
  return {
    id: row.id,
    projectId: row.projectId,
    uploadId: row.uploadId,
    startAt: row.startAt.toISOString(),
    state: row.state as ScheduledBroadcastView['state'],
    failureReason: row.failureReason,
    broadcastId: row.broadcastId,
  };
}

/**
 * 'Stream a video file as live' (issue 19): a creator schedules one of the project's uploaded
 * videos; at its time the job shows it full frame in a scene of its own (played once, from the
 * start), goes live as the project's owner would (their plan, their enabled destinations), and
 * ends the broadcast once the video has played.
 */
export class ScheduleService {
  constructor(
    private readonly deps: {
      db: Db;
      queue: ScheduledBroadcastQueue;
      logger: Logger;
      /** What the jobs use; the api process that only schedules needs neither. */
      scenes?: SceneService;
      broadcasts?: BroadcastService;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async create(projectId: string, body: { uploadId: string; startAt: string }): Promise<ScheduledBroadcastView> {
    const upload = await this.deps.db.upload.findFirst({ where: { id: body.uploadId, projectId } });
    if (!upload) throw new OnAirError('NOT_FOUND', "This video is not among the project's uploads.");
    if (upload.kind !== 'video') throw new OnAirError('VALIDATION_FAILED', 'Choose a video to stream; a picture cannot be played as a broadcast.');
    const startAt = new Date(body.startAt);
    const now = this.now();
    if (startAt.getTime() <= now.getTime()) throw new OnAirError('VALIDATION_FAILED', 'Choose a time in the future.');
    if (startAt.getTime() - now.getTime() > SCHEDULE_MAX_DAYS_AHEAD * 24 * 3600 * 1000)
      throw new OnAirError('VALIDATION_FAILED', `Choose a time within the next ${SCHEDULE_MAX_DAYS_AHEAD} days.`);
    const row = await this.deps.db.scheduledBroadcast.create({ data: { projectId, uploadId: upload.id, startAt } });
    await this.deps.queue.enqueue({ scheduleId: row.id, step: 'start' }, startAt.getTime() - now.getTime());
    return view(row);
  }

  async list(projectId: string): Promise<ScheduledBroadcastView[]> {
    return (await this.deps.db.scheduledBroadcast.findMany({ where: { projectId }, orderBy: [{ startAt: 'asc' }, { id: 'asc' }] })).map(view);
  }

  async cancel(projectId: string, scheduleId: string): Promise<void> {
    const cancelled = await this.deps.db.scheduledBroadcast.updateMany({
      where: { id: scheduleId, projectId, state: 'scheduled' },
      data: { state: 'cancelled' },
    });
    if (cancelled.count === 0) {
      const exists = await this.deps.db.scheduledBroadcast.count({ where: { id: scheduleId, projectId } });
      throw exists ? new OnAirError('CONFLICT', 'This broadcast has already started or ended.') : new OnAirError('NOT_FOUND', NOT_FOUND);
    }
    await this.deps.queue.remove({ scheduleId, step: 'start' });
  }

  /** A job of the queue: the scheduled start, or the end once the video has played. */
  async run(job: ScheduledBroadcastJob): Promise<void> {
    if (job.step === 'start') await this.start(job.scheduleId);
    else await this.end(job.scheduleId);
  }

  private async start(scheduleId: string): Promise<void> {
    const { scenes, broadcasts, db } = this.need();
    const row = await db.scheduledBroadcast.findUnique({ where: { id: scheduleId }, include: { upload: true, project: { select: { ownerId: true } } } });
    if (!row || row.state !== 'scheduled') return;
    const fail = async (reason: string) => {
      await db.scheduledBroadcast.updateMany({ where: { id: scheduleId, state: 'scheduled' }, data: { state: 'failed', failureReason: reason } });
      this.deps.logger.warn({ projectId: row.projectId, scheduleId, reason }, 'scheduled broadcast did not start');
    };
    const owner = await loadCurrentUser(db, row.project.ownerId);
    if (!owner) return fail('The account of this project is no longer active.');
    // The scene is named by the schedule's id, so its end finds it again.
    const sceneId = row.id;
    let added = false;
    try {
      const doc = await scenes.getDocument(owner, row.projectId);
      const sourceId = randomUUID();
      const ops: SceneOp[] = [
        // Of the `scheduled` kind: outside the plan's scene limit, removed when the broadcast ends.
        { op: 'addScene', sceneId, name: `Scheduled: ${row.upload.name}`.slice(0, 100), kind: 'scheduled' },
        {
          op: 'addSource',
          source: { id: sourceId, kind: 'video', name: row.upload.name.slice(0, 100), settings: { uploadId: row.upload.id, loop: false, restartOnShow: true } },
        },
        { op: 'addLayer', sceneId, layer: { id: randomUUID(), sourceId, x: 0, y: 0, width: CANVAS.width, height: CANVAS.height } },
      ];
      const watermark = doc.sources.find((s) => s.kind === 'watermark');
      if (!canHideOrReplaceLogo(owner.entitlements) && watermark) ops.push({ op: 'addLayer', sceneId, layer: { id: randomUUID(), sourceId: watermark.id } });
      ops.push({ op: 'setActiveScene', sceneId });
      await scenes.applyPatch(owner, row.projectId, { baseVersion: doc.version, ops }, { scheduledScenes: true });
      added = true;
      const live = await broadcasts.goLiveAsOwner(owner, row.projectId);
      if (!live) {
        await this.removeScene(row.projectId, sceneId);
        return fail('The project was already live at the scheduled time.');
      }
      await db.scheduledBroadcast.update({ where: { id: scheduleId }, data: { state: 'live', broadcastId: live.id } });
      // Ends once the video has played (a second more for its last frame to go out).
      await this.deps.queue.enqueue({ scheduleId, step: 'end' }, Math.ceil((row.upload.durationSeconds ?? 0) * 1000) + 1000);
      this.deps.logger.info({ projectId: row.projectId, scheduleId, broadcastId: live.id }, 'scheduled video broadcast started');
    } catch (err) {
      if (added) await this.removeScene(row.projectId, sceneId);
      return fail(err instanceof OnAirError ? err.message : 'The broadcast could not start.');
    }
  }

  /**
   * Removes the scene a scheduled broadcast played, with its video source when no other scene shows
   * it, as the project's owner (the project goes back to its first scene if it showed it). A scene
   * already removed by the creator is left alone; a failure is logged, the broadcast is over anyway.
   */
  private async removeScene(projectId: string, sceneId: string): Promise<void> {
    const { scenes, db } = this.need();
    try {
      const project = await db.project.findUnique({ where: { id: projectId }, select: { ownerId: true } });
      const owner = project ? await loadCurrentUser(db, project.ownerId) : null;
      if (!owner) return;
      for (let attempt = 0; attempt < 3; attempt++) {
        const doc = await scenes.getDocument(owner, projectId);
        const scene = doc.scenes.find((s) => s.id === sceneId && s.deletedAt === null);
        if (!scene || doc.scenes.filter((s) => s.deletedAt === null).length === 1) return;
        const elsewhere = new Set(doc.scenes.filter((s) => s.id !== sceneId && s.deletedAt === null).flatMap((s) => s.layers.map((l) => l.sourceId)));
        const videos = doc.sources.filter((s) => s.kind === 'video' && scene.layers.some((l) => l.sourceId === s.id) && !elsewhere.has(s.id));
        const ops: SceneOp[] = [{ op: 'removeScene', sceneId }, ...videos.map((s): SceneOp => ({ op: 'removeSource', sourceId: s.id }))];
        try {
          await scenes.applyPatch(owner, projectId, { baseVersion: doc.version, ops });
          this.deps.logger.info({ projectId, sceneId }, 'scheduled broadcast scene removed');
          return;
        } catch (err) {
          // Someone edited the project in between: read it again.
          if (!(err instanceof OnAirError && err.code === 'CONFLICT')) throw err;
        }
      }
    } catch (err) {
      this.deps.logger.warn({ projectId, sceneId, err: (err as Error).message }, 'scheduled broadcast scene not removed');
    }
  }

  private async end(scheduleId: string): Promise<void> {
    const { broadcasts, db } = this.need();
    const row = await db.scheduledBroadcast.findUnique({ where: { id: scheduleId } });
    if (!row || row.state !== 'live' || !row.broadcastId) return;
    await broadcasts.endById(row.broadcastId);
    await db.scheduledBroadcast.updateMany({ where: { id: scheduleId, state: 'live' }, data: { state: 'done' } });
    await this.removeScene(row.projectId, scheduleId);
  }

  private need(): { scenes: SceneService; broadcasts: BroadcastService; db: Db } {
    if (!this.deps.scenes || !this.deps.broadcasts) throw new Error('this schedule service runs no jobs');
    return { scenes: this.deps.scenes, broadcasts: this.deps.broadcasts, db: this.deps.db };
  }
}
