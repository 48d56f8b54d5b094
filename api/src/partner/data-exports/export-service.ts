import { OnAirError, type DataExport } from '@onair/protocol';
import { Prisma, type Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { Mailer } from '../../mail/mailer.ts';
import { buildArchive, exportSteps, type ExportTable } from './archive-builder.ts';

const HOUR_MS = 60 * 60 * 1000;

const exportSelect = { id: true, state: true, progress: true, createdAt: true, expiresAt: true, sizeBytes: true } as const;
type ExportRow = Prisma.DataExportGetPayload<{ select: typeof exportSelect }>;

/** Hands an export to the background (the data-exports queue). */
export type EnqueueExport = (job: { exportId: string; userId: string }) => Promise<void>;

/**
 * Settings › Data Exports: one export at a time per account, built by a background job with its
 * progress written as it goes; the archive can be downloaded by its owner until the link expires.
 */
export class DataExportService {
  constructor(
    private readonly deps: { db: Db; logger: Logger; mailer: Mailer; publicUrl: string; linkHours: number; enqueue: EnqueueExport; now?: () => Date },
  ) {}

  get linkHours(): number {
    return this.deps.linkHours;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private toContract(row: ExportRow): DataExport {
    const expired = row.state === 'ready' && !!row.expiresAt && row.expiresAt <= this.now();
    return {
      id: row.id,
      state: row.state as DataExport['state'],
      progress: row.progress,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
      expired,
      sizeBytes: row.sizeBytes,
      downloadUrl: row.state === 'ready' && !expired ? `/api/v1/partner/exports/${row.id}/download` : null,
    };
  }

  async list(userId: string): Promise<DataExport[]> {
    const rows = await this.deps.db.dataExport.findMany({ where: { userId }, orderBy: { createdAt: 'desc' }, take: 10, select: exportSelect });
    return rows.map((r) => this.toContract(r));
  }

  async request(userId: string): Promise<DataExport> {
    let row: ExportRow;
    try {
      row = await this.deps.db.$transaction(async (tx) => {
        const open = await tx.dataExport.count({ where: { userId, state: { in: ['queued', 'running'] } } });
        if (open > 0) throw new OnAirError('EXPORT_IN_PROGRESS');
        return tx.dataExport.create({ data: { userId }, select: exportSelect });
      });
    } catch (err) {
      // The partial unique index: two requests at the same moment.
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw new OnAirError('EXPORT_IN_PROGRESS');
      throw err;
    }
    try {
      await this.deps.enqueue({ exportId: row.id, userId });
    } catch (err) {
      await this.deps.db.dataExport.update({ where: { id: row.id }, data: { state: 'failed' } });
      throw err;
    }
    return this.toContract(row);
  }

  /** The job's work: every table, progress after each, then the archive. */
  async build(exportId: string, userId: string, onProgress: (percent: number) => Promise<void> = async () => {}): Promise<void> {
    const { db } = this.deps;
    await db.dataExport.update({ where: { id: exportId }, data: { state: 'running', progress: 0 } });
    try {
      const steps = exportSteps(db, userId);
      const tables: ExportTable[] = [];
      for (const [index, step] of steps.entries()) {
        tables.push({ name: step.name, rows: await step.load() });
        // The archive itself is the last tenth.
        const progress = Math.floor(((index + 1) / steps.length) * 90);
        await db.dataExport.update({ where: { id: exportId }, data: { progress } });
        await onProgress(progress);
      }
      const archive = await buildArchive(tables, this.now());
      const expiresAt = new Date(this.now().getTime() + this.deps.linkHours * HOUR_MS);
      await db.dataExport.update({
        where: { id: exportId },
        data: { state: 'ready', progress: 100, archive: new Uint8Array(archive), sizeBytes: archive.length, expiresAt, completedAt: this.now() },
      });
      await onProgress(100);
    } catch (err) {
      await db.dataExport.update({ where: { id: exportId }, data: { state: 'failed' } });
      throw err;
    }
    const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
    if (user) {
      const url = `${this.deps.publicUrl.replace(/\/+$/, '')}/partner/settings/data-exports`;
      await this.deps.mailer
        .send({
          to: user.email,
          subject: 'Your OnAir data export is ready',
          text: `Your data export is ready. Download it within ${this.deps.linkHours} hours from Settings › Data Exports: ${url}`,
          html: `<p>Your data export is ready. Download it within ${this.deps.linkHours} hours from <a href="${url}">Settings › Data Exports</a>.</p>`,
        })
        .catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message, exportId }, 'export mail not sent'));
    }
  }

  async download(userId: string, exportId: string): Promise<{ filename: string; body: Uint8Array }> {
    const row = await this.deps.db.dataExport.findFirst({ where: { id: exportId, userId }, select: { ...exportSelect, archive: true } });
    if (!row) throw new OnAirError('NOT_FOUND', 'This export does not exist.');
    if (row.state !== 'ready' || !row.archive) throw new OnAirError('EXPORT_NOT_READY');
    if (!row.expiresAt || row.expiresAt <= this.now()) throw new OnAirError('EXPORT_LINK_EXPIRED');
    return { filename: `onair-export-${row.createdAt.toISOString().slice(0, 10)}.zip`, body: row.archive };
  }
}
