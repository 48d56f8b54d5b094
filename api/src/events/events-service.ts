import { liveEventTypes, OnAirError, type LiveEvent } from '@onair/protocol';
import type { Db, Prisma } from '@onair/db';
import { toWire } from './events-store.ts';

/** A page's end: the last row's platform time and id, so the next page starts right after it. */
function encodeCursor(row: { platformCreatedAt: Date; id: string }): string {
  return Buffer.from(`${row.platformCreatedAt.toISOString()}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const at = new Date(iso ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(at.getTime()))
    throw new OnAirError('VALIDATION_FAILED', 'The cursor is not one this feed handed out.');
  return { at, id };
}

/** Partner spec §7 get-feed: a project's past events, newest first, by type, a page at a time (replays and suppressed ones never). */
export class EventsService {
  constructor(private readonly db: Db) {}

  async feed(
    scope: string | { channelId: string },
    query: { types?: string[]; others?: boolean; cursor?: string; limit: number },
  ): Promise<{ events: LiveEvent[]; nextCursor: string | null }> {
    // A project's feed, or a channel's: the events of every project its owner has.
    const of: Prisma.LiveEventWhereInput = typeof scope === 'string' ? { projectId: scope } : { project: { ownerId: scope.channelId } };
    const and: Prisma.LiveEventWhereInput[] = [{ ...of, replay: false, suppressed: false }];
    if (query.types) and.push(query.others ? { OR: [{ type: { in: query.types } }, { type: { notIn: [...liveEventTypes] } }] } : { type: { in: query.types } });
    if (query.cursor) {
      const { at, id } = decodeCursor(query.cursor);
      and.push({ OR: [{ platformCreatedAt: { lt: at } }, { platformCreatedAt: at, id: { lt: id } }] });
    }
    const where: Prisma.LiveEventWhereInput = { AND: and };
    const rows = await this.db.liveEvent.findMany({ where, orderBy: [{ platformCreatedAt: 'desc' }, { id: 'desc' }], take: query.limit + 1 });
    const page = rows.slice(0, query.limit);
    return { events: page.map(toWire), nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null };
  }
}
