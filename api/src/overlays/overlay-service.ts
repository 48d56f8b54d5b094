import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  OVERLAY_PAGE_PATH,
  OVERLAYS_PER_CHANNEL_MAX,
  OnAirError,
  overlayChannels,
  triggerAccessSchema,
  widgetSchema,
  type Overlay,
  type OverlayContent,
  type OverlaySummary,
  type TriggerAccess,
  type Widget,
} from '@onair/protocol';
import type { Readable } from 'node:stream';
import type { Db, Overlay as OverlayRow } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { UploadService } from '../uploads/index.ts';
import type { OwnPageUrls } from '../access/own-page-urls.ts';
import { PageKey } from '../http/signed-page.ts';

const NOT_FOUND = 'This overlay does not exist, or was deleted.';

const imageIdsOf = (widgets: readonly Widget[]) => widgets.flatMap((w) => (w.kind === 'image' && w.uploadId ? [w.uploadId] : []));

/** An overlay as stored, its JSON read back through protocol's schemas (a widget that no longer parses is left out). */
export interface StoredOverlay {
  id: string;
  channelId: string;
  name: string;
  widgets: Widget[];
  triggerAccess: TriggerAccess;
  keySalt: string;
  updatedAt: Date;
}

export function readOverlay(row: OverlayRow): StoredOverlay {
  const widgets = Array.isArray(row.widgets)
    ? row.widgets.flatMap((w) => {
        const parsed = widgetSchema.safeParse(w);
        return parsed.success ? [parsed.data] : [];
      })
    : [];
  const access = triggerAccessSchema.safeParse(row.triggerAccess);
  return {
    id: row.id,
    channelId: row.channelId,
    name: row.name,
    widgets,
    triggerAccess: access.success ? access.data : { mode: 'none', whitelist: [] },
    keySalt: row.keySalt,
    updatedAt: row.updatedAt,
  };
}

/**
 * A channel's overlays (partner spec §2 'Overlay'): who may call was checked by mount() against the
 * Overlay groups. Each overlay's page key is an HMAC of its id and a salt under the server's secret:
 * nothing secret is stored, and a new salt rotates the address. Changes are announced on the
 * overlay's Redis channel, so every open page (on any replica) redraws or closes.
 */
export class OverlayService {
  private readonly pageKey: PageKey;

  constructor(
    private readonly deps: { db: Db; redis: Redis; logger: Logger; publicUrl: string; secret: string; ownPages: OwnPageUrls; uploads: UploadService },
  ) {
    this.pageKey = new PageKey(deps.secret, 'overlay');
  }

  keyOf(overlay: Pick<StoredOverlay, 'id' | 'keySalt'>): string {
    return this.pageKey.of(`${overlay.id}:${overlay.keySalt}`);
  }

  checkKey(overlay: Pick<StoredOverlay, 'id' | 'keySalt'>, key: unknown): boolean {
    return this.pageKey.check(`${overlay.id}:${overlay.keySalt}`, key);
  }

  urlOf(overlay: Pick<StoredOverlay, 'id' | 'keySalt'>): string {
    const url = new URL(OVERLAY_PAGE_PATH.replace(':overlayId', overlay.id), this.deps.publicUrl);
    url.searchParams.set('key', this.keyOf(overlay));
    return url.toString();
  }

  private async view(o: StoredOverlay): Promise<Overlay> {
    const url = this.urlOf(o);
    const uploads = await this.deps.uploads.channelUploads(o.channelId, 'overlay', imageIdsOf(o.widgets));
    return {
      id: o.id,
      channelId: o.channelId,
      name: o.name,
      widgets: o.widgets,
      triggerAccess: o.triggerAccess,
      url,
      studioUrl: this.deps.ownPages.sign(url),
      updatedAt: o.updatedAt.toISOString(),
      images: Object.fromEntries(uploads.map((u) => [u.id, { name: u.name, width: u.width, height: u.height }])),
      maxImageBytes: this.deps.uploads.maxImageBytes,
    };
  }

  /**
   * An uploaded picture of an overlay for whoever holds its page key (OBS, the render worker): only
   * one an image widget of the saved overlay names, so an upload not (or no longer) on it stays private.
   */
  async publicImage(overlayId: string, key: unknown, uploadId: string): Promise<{ stream: Readable; sizeBytes: number } | null> {
    const overlay = await this.findByKey(overlayId, key);
    if (!overlay || !imageIdsOf(overlay.widgets).includes(uploadId)) return null;
    const opened = await this.deps.uploads.openForChannel(overlay.channelId, 'overlay', uploadId);
    return opened ? { stream: opened.stream, sizeBytes: opened.sizeBytes } : null;
  }

  /** The overlay with this id when its key is right (the public page and its feed); null otherwise, alike for a wrong key and no overlay. */
  async findByKey(overlayId: string, key: unknown): Promise<StoredOverlay | null> {
    const row = await this.deps.db.overlay.findUnique({ where: { id: overlayId } });
    if (!row) return null;
    const overlay = readOverlay(row);
    return this.checkKey(overlay, key) ? overlay : null;
  }

  private async row(channelId: string, overlayId: string): Promise<StoredOverlay> {
    const row = await this.deps.db.overlay.findFirst({ where: { id: overlayId, channelId } });
    if (!row) throw new OnAirError('NOT_FOUND', NOT_FOUND);
    return readOverlay(row);
  }

  async list(channelId: string): Promise<OverlaySummary[]> {
    const rows = await this.deps.db.overlay.findMany({ where: { channelId }, orderBy: { updatedAt: 'desc' } });
    return rows.map(readOverlay).map((o) => ({ id: o.id, name: o.name, updatedAt: o.updatedAt.toISOString(), widgetCount: o.widgets.length }));
  }

  async get(channelId: string, overlayId: string): Promise<Overlay> {
    return this.view(await this.row(channelId, overlayId));
  }

  async create(channelId: string, name: string): Promise<Overlay> {
    const count = await this.deps.db.overlay.count({ where: { channelId } });
    if (count >= OVERLAYS_PER_CHANNEL_MAX)
      throw new OnAirError('CONFLICT', `A channel can have at most ${OVERLAYS_PER_CHANNEL_MAX} overlays. Delete one first.`);
    const row = await this.deps.db.overlay.create({
      data: { channelId, name, widgets: [], triggerAccess: { mode: 'all', whitelist: [] }, keySalt: randomBytes(16).toString('base64url') },
    });
    this.deps.logger.info({ channelId, overlayId: row.id }, 'overlay created');
    return this.view(readOverlay(row));
  }

  async update(channelId: string, overlayId: string, content: OverlayContent): Promise<Overlay> {
    await this.row(channelId, overlayId);
    // An image widget may only show a picture uploaded for this channel's overlays.
    const known = new Set((await this.deps.uploads.channelUploads(channelId, 'overlay', imageIdsOf(content.widgets))).map((u) => u.id));
    const index = content.widgets.findIndex((w) => w.kind === 'image' && w.uploadId !== null && !known.has(w.uploadId));
    if (index >= 0) {
      throw new OnAirError('VALIDATION_FAILED', 'This picture is not one of your overlay uploads. Upload it again.', {
        where: 'body',
        issues: [{ path: ['widgets', String(index), 'uploadId'], code: 'custom', message: 'Upload the picture again' }],
      });
    }
    const row = await this.deps.db.overlay.update({
      where: { id: overlayId },
      data: { name: content.name, widgets: content.widgets, triggerAccess: content.triggerAccess },
    });
    await this.announce(overlayId, 'changed');
    return this.view(readOverlay(row));
  }

  async remove(channelId: string, overlayId: string): Promise<void> {
    const { count } = await this.deps.db.overlay.deleteMany({ where: { id: overlayId, channelId } });
    if (count === 0) throw new OnAirError('NOT_FOUND', NOT_FOUND);
    await this.announce(overlayId, 'closed');
    this.deps.logger.info({ channelId, overlayId }, 'overlay deleted');
  }

  async rotate(channelId: string, overlayId: string): Promise<Overlay> {
    await this.row(channelId, overlayId);
    const row = await this.deps.db.overlay.update({ where: { id: overlayId }, data: { keySalt: randomBytes(16).toString('base64url') } });
    // Pages opened with the old key are closed: the old address must stop working at once.
    await this.announce(overlayId, 'closed');
    this.deps.logger.info({ channelId, overlayId }, 'overlay address rotated');
    return this.view(readOverlay(row));
  }

  private async announce(overlayId: string, what: 'changed' | 'closed'): Promise<void> {
    try {
      await this.deps.redis.publish(overlayChannels.overlay(overlayId), what);
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, overlayId }, 'overlay change not announced');
    }
  }
}
