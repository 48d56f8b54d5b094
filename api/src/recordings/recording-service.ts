import type { Readable } from 'node:stream';
import {
  canRecord,
  OnAirError,
  RECORDING_NOT_IN_PLAN,
  recordingPartSchema,
  recordingRetentionDays,
  type Recording as RecordingView,
  type RecordingPart,
} from '@onair/protocol';
import type { Db, Recording } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { loadCurrentUser } from '../http/auth-context.ts';
import type { RecordingArchive } from './recording-archive.ts';
import type { RecordingFiles } from './recording-files.ts';

const DAY_MS = 24 * 3600 * 1000;
/**
 * How long after a broadcast ended its parts are measured for good: the worker writes out the last
 * fragment when recording stops (a second, see the worker's outputs/recording.ts), after the api
 * has already moved on.
 */
export const RECORDING_SETTLE_MS = 5000;

/**
 * Recordings of broadcasts (issue 19). The plan of the project's owner decides whether a broadcast
 * may be recorded (`recording`) and how long the recording is kept (`recording-retention-days`);
 * the media worker writes the parts, this service keeps the row, measures the parts once the
 * broadcast ended, serves them and deletes them when they expire.
 */
export class RecordingService {
  constructor(
    private readonly deps: {
      db: Db;
      files: RecordingFiles;
      logger: Logger;
      now?: () => Date;
      settleMs?: number;
      /** With UPLOADS_BACKEND=s3: where measured parts are copied to, and served and deleted from. */
      archive?: RecordingArchive;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The retention of the owner's plan; refused in words when the plan does not record. */
  async allowed(projectId: string): Promise<number> {
    const project = await this.deps.db.project.findUnique({ where: { id: projectId }, select: { ownerId: true } });
    const owner = project ? await loadCurrentUser(this.deps.db, project.ownerId) : null;
    if (!owner || !canRecord(owner.entitlements)) throw new OnAirError('PLAN_LIMIT_REACHED', RECORDING_NOT_IN_PLAN, { rule: 'recording-not-in-plan' });
    return Math.max(1, recordingRetentionDays(owner.entitlements));
  }

  async begin(projectId: string, broadcastId: string, retentionDays: number): Promise<string> {
    const row = await this.deps.db.recording.create({ data: { projectId, broadcastId, retentionDays, startedAt: this.now() } });
    this.deps.logger.info({ projectId, broadcastId, recordingId: row.id }, 'recording started');
    return row.id;
  }

  /** The broadcast ended (or failed): the recording is complete and its retention starts. */
  async finish(broadcastId: string): Promise<void> {
    const row = await this.deps.db.recording.findUnique({ where: { broadcastId } });
    if (!row || row.state !== 'recording') return;
    const endedAt = this.now();
    await this.deps.db.recording.updateMany({
      where: { id: row.id, state: 'recording' },
      data: { state: 'ready', endedAt, expiresAt: new Date(endedAt.getTime() + row.retentionDays * DAY_MS) },
    });
  }

  async idOf(broadcastId: string): Promise<string | null> {
    return (await this.deps.db.recording.findUnique({ where: { broadcastId }, select: { id: true } }))?.id ?? null;
  }

  async list(projectId: string): Promise<RecordingView[]> {
    const rows = await this.deps.db.recording.findMany({ where: { projectId }, orderBy: [{ startedAt: 'desc' }, { id: 'desc' }] });
    const views: RecordingView[] = [];
    for (const row of rows) {
      // Copying parts into the bucket can take minutes for a long show: not in the page's request.
      // Until it is done the row is shown (and its parts served) as the worker's files are now.
      if (this.deps.archive) this.settleInBackground(row);
      views.push(await this.view(this.deps.archive ? row : await this.measured(row)));
    }
    return views;
  }

  /** Recordings of this process being measured and copied now (one at a time each). */
  private readonly settling = new Set<string>();

  private settleInBackground(row: Recording): void {
    if (row.state !== 'ready' || row.durationSeconds !== null || this.settling.has(row.id)) return;
    this.settling.add(row.id);
    void this.measured(row)
      .catch((err: unknown) => this.deps.logger.warn({ projectId: row.projectId, recordingId: row.id, err: (err as Error).message }, 'recording not measured'))
      .finally(() => this.settling.delete(row.id));
  }

  /** A part's file, for download; NOT_FOUND for a part that does not exist (or a recording of another project). */
  async open(projectId: string, recordingId: string, part: number): Promise<{ stream: Readable; sizeBytes: number; name: string }> {
    const row = await this.deps.db.recording.findFirst({ where: { id: recordingId, projectId } });
    // Measured parts are in the archive when there is one (copied before the row says measured).
    const fromArchive = row !== null && this.deps.archive !== undefined && row.durationSeconds !== null;
    // (A part measured before the store became a bucket is still on disk.)
    const file = !row ? null : ((fromArchive ? await this.deps.archive!.open(row.id, part) : null) ?? (await this.deps.files.open(row.id, part)));
    if (!row || !file) throw new OnAirError('NOT_FOUND', 'This recording does not exist (it may have expired).');
    const day = row.startedAt.toISOString().slice(0, 10);
    return { ...file, name: `onair-recording-${day}-part-${part}.mp4` };
  }

  async remove(projectId: string, recordingId: string): Promise<void> {
    const row = await this.deps.db.recording.findFirst({ where: { id: recordingId, projectId } });
    if (!row) throw new OnAirError('NOT_FOUND', 'This recording does not exist (it may have expired).');
    if (row.state === 'recording') throw new OnAirError('CONFLICT', 'This recording is still being written. End the broadcast first.');
    await this.deps.files.remove(row.id);
    await this.deps.archive?.remove(row.id);
    await this.deps.db.recording.delete({ where: { id: row.id } });
  }

  /** The retention job's sweep: recordings past their plan's retention are deleted, files first. */
  async deleteExpired(): Promise<number> {
    const due = await this.deps.db.recording.findMany({ where: { state: 'ready', expiresAt: { lte: this.now() } }, select: { id: true, projectId: true } });
    for (const row of due) {
      await this.deps.files.remove(row.id);
      await this.deps.archive?.remove(row.id);
      await this.deps.db.recording.deleteMany({ where: { id: row.id } });
      this.deps.logger.info({ projectId: row.projectId, recordingId: row.id }, 'recording deleted: past its retention');
    }
    return due.length;
  }

  /**
   * The retention job's other sweep: recordings that ended long enough ago are measured (and with
   * an archive, copied into it) even if nobody has opened the Recordings page since.
   */
  async settleEnded(): Promise<number> {
    const before = new Date(this.now().getTime() - (this.deps.settleMs ?? RECORDING_SETTLE_MS));
    const rows = await this.deps.db.recording.findMany({ where: { state: 'ready', durationSeconds: null, endedAt: { lte: before } } });
    let settled = 0;
    for (const row of rows) if ((await this.measured(row)).durationSeconds !== null) settled++;
    return settled;
  }

  /**
   * A recording that ended long enough ago has its parts measured once (ffprobe) and stored. With
   * an archive, the parts are copied into it first, the row then says measured (from then on the
   * archive serves them), and only the caller whose update took removes the worker's files; a copy
   * that fails leaves everything as it was, for the next look.
   */
  private async measured(row: Recording): Promise<Recording> {
    if (row.state !== 'ready' || row.durationSeconds !== null || !row.endedAt) return row;
    if (this.now().getTime() - row.endedAt.getTime() < (this.deps.settleMs ?? RECORDING_SETTLE_MS)) return row;
    const parts = await this.deps.files.parts(row.id, true);
    const durationSeconds = Math.round(parts.reduce((sum, p) => sum + (p.durationSeconds ?? 0), 0) * 100) / 100;
    const sizeBytes = parts.reduce((sum, p) => sum + p.sizeBytes, 0);
    const { archive } = this.deps;
    if (archive) {
      try {
        for (const part of parts) await archive.put(row.id, part.number, this.deps.files.partPath(row.id, part.number));
      } catch (err) {
        this.deps.logger.warn({ projectId: row.projectId, recordingId: row.id, err: (err as Error).message }, 'recording parts not copied to the bucket yet');
        return (await this.deps.db.recording.findUnique({ where: { id: row.id } })) ?? row;
      }
    }
    const taken = await this.deps.db.recording.updateMany({
      where: { id: row.id, durationSeconds: null },
      data: { parts, durationSeconds, sizeBytes: BigInt(sizeBytes) },
    });
    if (archive && taken.count === 1) {
      await this.deps.files.remove(row.id);
      this.deps.logger.info({ projectId: row.projectId, recordingId: row.id, parts: parts.length }, 'recording copied to the bucket');
    }
    return (await this.deps.db.recording.findUnique({ where: { id: row.id } })) ?? row;
  }

  private async view(row: Recording): Promise<RecordingView> {
    // Not measured yet (being written, or just ended): the sizes of the files as they are now.
    const settled = row.durationSeconds !== null;
    const parts: RecordingPart[] = settled ? recordingPartSchema.array().parse(row.parts) : await this.deps.files.parts(row.id, false);
    return {
      id: row.id,
      projectId: row.projectId,
      broadcastId: row.broadcastId,
      state: row.state === 'ready' ? 'ready' : 'recording',
      startedAt: row.startedAt.toISOString(),
      endedAt: row.endedAt?.toISOString() ?? null,
      durationSeconds: row.durationSeconds,
      sizeBytes: settled ? Number(row.sizeBytes) : parts.reduce((sum, p) => sum + p.sizeBytes, 0),
      parts,
      expiresAt: row.expiresAt?.toISOString() ?? null,
    };
  }
}
