import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import {
  canUploadFor,
  OnAirError,
  uploadMimeTypes,
  uploadPurposeRules,
  type ChannelUploadPurpose,
  type SceneDocument,
  type Upload,
  type UploadKind,
  type UploadMimeType,
  type UploadPurpose,
  type UploadUsage,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { loadCurrentUser, type CurrentUser } from '../http/auth-context.ts';
import type { UploadLimits } from './config.ts';
import { imageToPng, probeMedia } from './media-probe.ts';
import type { UploadStore } from './upload-store.ts';

/** Bytes file-type needs to recognise every accepted type. */
const HEAD_BYTES = 4100;

const EXTENSION: Record<UploadKind | UploadMimeType, string> = {
  image: 'png',
  video: 'mp4',
  audio: 'mp3',
  'image/png': 'png',
  'image/jpeg': 'png',
  'image/webp': 'png',
  'image/gif': 'png',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/wav': 'wav',
};

/** The key an upload's bytes are stored under: images are stored as PNG, videos and sounds as they came. */
export function storageKeyOf(uploadId: string, mimeType: UploadMimeType): string {
  return `${uploadId}.${EXTENSION[mimeType]}`;
}

type UploadRow = Awaited<ReturnType<Db['upload']['findFirstOrThrow']>>;

function toUpload(row: UploadRow): Upload {
  return {
    id: row.id,
    projectId: row.projectId,
    purpose: row.purpose as UploadPurpose | ChannelUploadPurpose,
    kind: row.kind as UploadKind,
    mimeType: row.mimeType as UploadMimeType,
    name: row.name,
    sizeBytes: Number(row.sizeBytes),
    width: row.width,
    height: row.height,
    durationSeconds: row.durationSeconds,
    hasAudio: row.hasAudio,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface IncomingFile {
  /** The raw body. */
  body: Readable;
  /** Content-Length as sent; required, so limits are checked before a byte is read. */
  declaredBytes: number | undefined;
  purpose: UploadPurpose;
  name: string;
}

/** Why another feature needs this upload kept (the refusal's words and details), or undefined. */
export type UploadUseCheck = (projectId: string, uploadId: string) => Promise<{ message: string; details: Record<string, unknown> } | undefined>;

/**
 * Uploads of a project. The checks come in the order that reads the least: the plan, the declared
 * size against the limit and the owner's quota (nothing read yet), the type from the first 4 KB
 * (the rest not read), then the whole file into a staging folder, probed by ffprobe/ffmpeg; only a
 * file that passed everything is moved into the store and recorded. A refusal at any step leaves
 * the store and every earlier upload untouched.
 */
export class UploadService {
  private readonly useChecks: UploadUseCheck[] = [];

  constructor(
    private readonly db: Db,
    private readonly store: UploadStore,
    private readonly limits: UploadLimits,
    private readonly logger: Logger,
  ) {}

  /** Another feature's check that a file it uses is not deleted under it (the alerts' sounds). */
  guardUse(check: UploadUseCheck): void {
    this.useChecks.push(check);
  }

  async create(user: CurrentUser, projectId: string, file: IncomingFile): Promise<Upload> {
    const owner = await this.ownerOf(user, projectId);
    const rule = uploadPurposeRules[file.purpose];
    if (!canUploadFor(owner.entitlements, file.purpose))
      throw new OnAirError('PLAN_LIMIT_REACHED', rule.refusal, { rule: `upload-${file.purpose}-not-in-plan` });
    return this.receiveAndStore(owner.id, projectId, { ...file, kinds: rule.kinds, ...(rule.maxSeconds ? { maxSeconds: rule.maxSeconds } : {}) });
  }

  /**
   * A picture of a partner channel (creator site, overlays): no project, owned by the channel and
   * counted against its storage. Who may upload was checked by the channel's permission groups.
   */
  async createForChannel(channelId: string, file: Omit<IncomingFile, 'purpose'> & { purpose: ChannelUploadPurpose }): Promise<Upload> {
    return this.receiveAndStore(channelId, null, { ...file, kinds: ['image'] });
  }

  /** A channel's upload of this purpose, or null. */
  async channelUpload(channelId: string, purpose: ChannelUploadPurpose, uploadId: string): Promise<Upload | null> {
    const row = await this.db.upload.findFirst({ where: { id: uploadId, ownerId: channelId, projectId: null, purpose } });
    return row ? toUpload(row) : null;
  }

  /** The channel's uploads of this purpose among `ids`. */
  async channelUploads(channelId: string, purpose: ChannelUploadPurpose, ids: readonly string[]): Promise<Upload[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.upload.findMany({ where: { id: { in: [...ids] }, ownerId: channelId, projectId: null, purpose } });
    return rows.map(toUpload);
  }

  /** The bytes of a channel's upload (the caller decided the reader may see it). */
  async openForChannel(
    channelId: string,
    purpose: ChannelUploadPurpose,
    uploadId: string,
  ): Promise<{ upload: Upload; stream: Readable; sizeBytes: number } | null> {
    const row = await this.db.upload.findFirst({ where: { id: uploadId, ownerId: channelId, projectId: null, purpose } });
    if (!row) return null;
    const { stream, sizeBytes } = await this.store.read(row.storageKey);
    return { upload: toUpload(row), stream, sizeBytes };
  }

  get maxImageBytes(): number {
    return this.limits.maxImageBytes;
  }

  private async receiveAndStore(
    ownerId: string,
    projectId: string | null,
    file: Omit<IncomingFile, 'purpose'> & { purpose: UploadPurpose | ChannelUploadPurpose; kinds: readonly UploadKind[]; maxSeconds?: number },
  ): Promise<Upload> {
    const rule = { kinds: file.kinds };
    const owner = { id: ownerId };
    const declared = file.declaredBytes;
    if (declared === undefined || !Number.isSafeInteger(declared))
      throw new OnAirError('BAD_REQUEST', 'Send the file with its size (a Content-Length header).');
    if (declared === 0) throw new OnAirError('UPLOAD_UNREADABLE', 'This file is empty.');
    const largest = Math.max(...rule.kinds.map((k) => this.maxBytes(k)));
    if (declared > largest) throw this.tooLarge(rule.kinds.length === 1 ? rule.kinds[0]! : 'video');
    await this.checkQuota(owner.id, declared);

    await this.store.prepare();
    const id = randomUUID();
    const staged = join(this.store.stagingDir, `${id}.upload`);
    const converted = join(this.store.stagingDir, `${id}.png`);
    try {
      const mimeType = await this.receive(file.body, declared, staged, async (head) => {
        const type = await fileTypeFromBuffer(head);
        // Ogg Opus is told as 'audio/ogg; codecs=opus': the container is what is accepted.
        const mime = type?.mime.split(';')[0] as UploadMimeType | undefined;
        const kind = mime ? uploadMimeTypes[mime] : undefined;
        if (!mime || !kind) throw new OnAirError('UPLOAD_TYPE_UNSUPPORTED', undefined, { detected: type?.mime ?? null });
        if (!rule.kinds.includes(kind))
          throw new OnAirError(
            'UPLOAD_TYPE_UNSUPPORTED',
            rule.kinds.includes('image')
              ? 'Upload an image (PNG, JPEG, WebP or GIF) here.'
              : rule.kinds.includes('audio')
                ? 'Upload a sound (MP3, Ogg or WAV) here.'
                : 'Upload a video (MP4 or WebM) here.',
            { detected: mime },
          );
        if (declared > this.maxBytes(kind)) throw this.tooLarge(kind);
        return mime;
      });
      const kind = uploadMimeTypes[mimeType];
      const probed = await probeMedia(staged, kind, mimeType, this.limits.maxDimension);
      if (file.maxSeconds !== undefined && probed.durationSeconds !== null && probed.durationSeconds > file.maxSeconds + 0.05)
        throw new OnAirError(
          'UPLOAD_UNREADABLE',
          `This sound lasts ${Math.round(probed.durationSeconds)} s; an alert sound can last up to ${file.maxSeconds} s.`,
          {
            durationSeconds: probed.durationSeconds,
            maxSeconds: file.maxSeconds,
          },
        );
      let stored = staged;
      if (kind === 'image') {
        await imageToPng(staged, converted);
        stored = converted;
      }
      const { size } = await stat(stored);
      const storageKey = storageKeyOf(id, mimeType);
      const row = await this.db.$transaction(async (tx) => {
        // One owner's uploads are recorded one at a time, so two at once cannot both fit the last free space.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`uploads:${owner.id}`}))`;
        await this.checkQuota(owner.id, size, tx);
        await this.store.putFile(storageKey, stored);
        return tx.upload.create({
          data: {
            id,
            projectId,
            ownerId: owner.id,
            purpose: file.purpose,
            kind,
            mimeType,
            name: file.name,
            sizeBytes: BigInt(size),
            width: probed.width,
            height: probed.height,
            durationSeconds: probed.durationSeconds,
            hasAudio: probed.hasAudio,
            storageKey,
          },
        });
      });
      this.logger.info({ projectId, ownerId, uploadId: id, kind, mimeType, sizeBytes: size }, 'upload stored');
      return toUpload(row);
    } finally {
      await rm(staged, { force: true });
      await rm(converted, { force: true });
    }
  }

  async list(user: CurrentUser, projectId: string): Promise<{ uploads: Upload[]; usage: UploadUsage }> {
    const owner = await this.ownerOf(user, projectId);
    const rows = await this.db.upload.findMany({ where: { projectId }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
    return { uploads: rows.map(toUpload), usage: { usedBytes: await this.usedBytes(owner.id), quotaBytes: this.limits.quotaBytes } };
  }

  async open(projectId: string, uploadId: string): Promise<{ upload: Upload; stream: Readable; sizeBytes: number }> {
    const row = await this.db.upload.findFirst({ where: { id: uploadId, projectId } });
    if (!row) throw new OnAirError('NOT_FOUND', 'This file does not exist.');
    const { stream, sizeBytes } = await this.store.read(row.storageKey);
    return { upload: toUpload(row), stream, sizeBytes };
  }

  async remove(projectId: string, uploadId: string, document: SceneDocument | null): Promise<void> {
    const row = await this.db.upload.findFirst({ where: { id: uploadId, projectId } });
    if (!row) throw new OnAirError('NOT_FOUND', 'This file does not exist.');
    const usedBy = document?.sources.find((s) => (s.settings as { uploadId?: string | null }).uploadId === uploadId);
    if (usedBy) throw new OnAirError('UPLOAD_IN_USE', undefined, { sourceId: usedBy.id });
    for (const check of this.useChecks) {
      const use = await check(projectId, uploadId);
      if (use) throw new OnAirError('UPLOAD_IN_USE', use.message, use.details);
    }
    await this.db.upload.delete({ where: { id: uploadId } });
    await this.store.remove(row.storageKey);
  }

  /**
   * The uploads a scene document names must be this project's, of the kind the source shows. The
   * api checks it before a patch is saved, so a worker never meets an upload id it cannot play.
   */
  async uploadsOf(projectId: string, ids: readonly string[]): Promise<Map<string, UploadKind>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.upload.findMany({ where: { projectId, id: { in: [...ids] } }, select: { id: true, kind: true } });
    return new Map(rows.map((r) => [r.id, r.kind as UploadKind]));
  }

  private maxBytes(kind: UploadKind): number {
    return kind === 'image' ? this.limits.maxImageBytes : kind === 'audio' ? this.limits.maxAudioBytes : this.limits.maxVideoBytes;
  }

  private tooLarge(kind: UploadKind): OnAirError {
    const max = this.maxBytes(kind);
    const what = { image: 'images', video: 'videos', audio: 'sounds' }[kind];
    return new OnAirError('UPLOAD_TOO_LARGE', `This file is too large: ${what} can be up to ${formatBytes(max)}.`, {
      maxBytes: max,
    });
  }

  private async usedBytes(ownerId: string, db: Pick<Db, 'upload'> = this.db): Promise<number> {
    const sum = await db.upload.aggregate({ where: { ownerId }, _sum: { sizeBytes: true } });
    return Number(sum._sum.sizeBytes ?? 0n);
  }

  private async checkQuota(ownerId: string, bytes: number, db: Pick<Db, 'upload'> = this.db): Promise<void> {
    const used = await this.usedBytes(ownerId, db);
    if (used + bytes > this.limits.quotaBytes) {
      throw new OnAirError(
        'UPLOAD_QUOTA_EXCEEDED',
        `This file needs ${formatBytes(bytes)} but only ${formatBytes(Math.max(0, this.limits.quotaBytes - used))} of your ${formatBytes(this.limits.quotaBytes)} storage is free. Delete files you no longer need and try again.`,
        { usedBytes: used, quotaBytes: this.limits.quotaBytes, fileBytes: bytes },
      );
    }
  }

  /** Uploads count against the project owner's storage and follow the owner's plan (as scene edits do). */
  private async ownerOf(user: CurrentUser, projectId: string): Promise<CurrentUser> {
    const project = await this.db.project.findUnique({ where: { id: projectId }, select: { ownerId: true } });
    if (!project) throw new OnAirError('NOT_FOUND', 'This project does not exist.');
    if (project.ownerId === user.id) return user;
    const owner = await loadCurrentUser(this.db, project.ownerId);
    if (!owner) throw new OnAirError('NOT_FOUND', 'This project does not exist.');
    return owner;
  }

  /**
   * Streams the body to `path`, at most `declared` bytes (a body longer than it said is refused);
   * `checkHead` sees the first bytes before anything is written and may refuse the file.
   */
  private async receive<T>(body: Readable, declared: number, path: string, checkHead: (head: Buffer) => Promise<T>): Promise<T> {
    const out = createWriteStream(path, { flags: 'wx' });
    let head: Buffer[] = [];
    let headBytes = 0;
    let verdict: { value: T } | undefined;
    let received = 0;
    const write = async (chunk: Buffer) => {
      if (!out.write(chunk)) await once(out, 'drain');
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        received += chunk.length;
        if (received > declared) throw new OnAirError('BAD_REQUEST', 'The file is longer than its Content-Length said.');
        if (verdict) {
          await write(chunk);
          continue;
        }
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes >= HEAD_BYTES) {
          const all = Buffer.concat(head);
          head = [];
          verdict = { value: await checkHead(all) };
          await write(all);
        }
      }
      if (!verdict) {
        const all = Buffer.concat(head);
        verdict = { value: await checkHead(all) };
        await write(all);
      }
      if (received !== declared) throw new OnAirError('BAD_REQUEST', 'The upload was cut short. Try again.');
      out.end();
      await once(out, 'close');
      return verdict.value;
    } catch (err) {
      out.destroy();
      throw err;
    }
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
