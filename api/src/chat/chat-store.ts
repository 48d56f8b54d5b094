import type { Redis } from 'ioredis';
import { chatChannels, chatSegmentSchema, type ChatMessage, type ChatPlatform, type ChatServerMessage } from '@onair/protocol';
import type { ChatDelivery as DeliveryRow, ChatMessage as MessageRow, Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { InboundChat } from '../platforms/inbound.ts';

type Row = MessageRow & { deliveries: DeliveryRow[] };

const FLUSH_MS = 20;
const FLUSH_AT = 500;

interface Pending {
  destination: { id: string; projectId: string; platform: ChatPlatform };
  broadcastId: string | null;
  messages: InboundChat[];
  /** Called once the batch is stored (or failed to be). */
  done: Array<(stored: boolean) => void>;
}

/** A stored message as the studio receives it. */
export function toWire(row: Row): ChatMessage {
  const segments = chatSegmentSchema.array().safeParse(row.segments);
  // One stable order for the outcomes, whatever order the rows come back in.
  const deliveries = [...row.deliveries].sort((a, b) => a.destinationId.localeCompare(b.destinationId));
  return {
    id: row.id,
    projectId: row.projectId,
    ts: row.sentAt.toISOString(),
    direction: row.direction === 'outbound' ? 'outbound' : 'inbound',
    platform: row.platform === 'twitch' || row.platform === 'youtube' || row.platform === 'facebook' ? row.platform : null,
    destinationId: row.destinationId,
    sender: row.sender,
    displayName: row.displayName,
    avatar: row.avatar,
    content: row.content,
    segments: segments.success ? segments.data : [{ kind: 'text', value: row.content }],
    toDestinations: deliveries.map((d) => d.destinationId),
    deliveries: deliveries.map((d) => ({
      destinationId: d.destinationId,
      state: d.state === 'sent' || d.state === 'failed' ? d.state : 'pending',
      ...(d.error ? { error: d.error } : {}),
    })),
    private: row.private,
  };
}

/**
 * Chat messages in PostgreSQL and out to the studios. Messages read from platforms are written in
 * small batches (every 20 ms): a platform message is stored once (unique per destination and
 * platform id, so a connector that replays after a failover adds nothing), the platform's copy of a
 * message sent from the studio is recognised by its delivery's platform id and left out, and only
 * the rows actually inserted are published on the project's chat channel.
 */
export class ChatStore {
  private readonly queue: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  async publish(message: ChatServerMessage): Promise<void> {
    try {
      await this.redis.publish(chatChannels.project(message.projectId), JSON.stringify(message));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, projectId: message.projectId }, 'chat publish failed');
    }
  }

  /** Queues messages read from a platform; resolves true once they are stored (a poller then moves its cursor on). */
  enqueue(destination: Pending['destination'], broadcastId: string | null, messages: InboundChat[]): Promise<boolean> {
    return new Promise((resolve) => {
      this.queue.push({ destination, broadcastId, messages, done: [resolve] });
      const count = this.queue.reduce((n, p) => n + p.messages.length, 0);
      if (count >= FLUSH_AT) this.flushSoon(0);
      else this.flushSoon(FLUSH_MS);
    });
  }

  private flushSoon(ms: number): void {
    if (this.timer && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushing = this.flushing.then(() => this.flush());
    }, ms);
  }

  /** Resolves once everything queued so far is stored and published. */
  async settle(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.flushing = this.flushing.then(() => this.flush());
    }
    await this.flushing;
  }

  /** Never throws: a batch that cannot be stored is logged and its senders told (they keep their cursor). */
  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, this.queue.length);
    const byDestination = new Map<string, Pending>();
    for (const p of batch) {
      const key = `${p.destination.id}:${p.broadcastId ?? ''}`;
      const seen = byDestination.get(key);
      if (seen) {
        seen.messages.push(...p.messages);
        seen.done.push(...p.done);
      } else byDestination.set(key, { ...p, messages: [...p.messages], done: [...p.done] });
    }
    const byProject = new Map<string, ChatMessage[]>();
    for (const p of byDestination.values()) {
      try {
        const inserted = await this.insert(p);
        const list = byProject.get(p.destination.projectId) ?? [];
        list.push(...inserted);
        byProject.set(p.destination.projectId, list);
      } catch (err) {
        this.logger.error({ err, destinationId: p.destination.id, count: p.messages.length }, 'chat messages not stored');
        for (const done of p.done) done(false);
        p.done = [];
      }
    }
    for (const [projectId, messages] of byProject) {
      if (messages.length === 0) continue;
      messages.sort((a, b) => a.ts.localeCompare(b.ts));
      await this.publish({ type: 'chat.messages', projectId, messages });
    }
    for (const p of byDestination.values()) for (const done of p.done) done(true);
  }

  private async insert(p: Pending): Promise<ChatMessage[]> {
    const unique = new Map(p.messages.map((m) => [m.platformMessageId, m]));
    // The platform's copy of what the studio sent (YouTube lists it back) is already shown.
    const echoes = await this.db.chatDelivery.findMany({
      where: { destinationId: p.destination.id, platformMessageId: { in: [...unique.keys()] } },
      select: { platformMessageId: true },
    });
    for (const e of echoes) if (e.platformMessageId) unique.delete(e.platformMessageId);
    if (unique.size === 0) return [];
    const rows = await this.db.chatMessage.createManyAndReturn({
      data: [...unique.values()].map((m) => ({
        projectId: p.destination.projectId,
        broadcastId: p.broadcastId,
        direction: 'inbound',
        platform: p.destination.platform,
        destinationId: p.destination.id,
        platformMessageId: m.platformMessageId,
        sender: m.sender,
        displayName: m.displayName,
        avatar: m.avatar,
        content: m.content,
        segments: m.segments,
        private: m.private,
        sentAt: m.sentAt,
      })),
      skipDuplicates: true,
    });
    return rows.map((r) => toWire({ ...r, deliveries: [] }));
  }

  /** The last `limit` non-private messages of a broadcast, oldest first. */
  async history(projectId: string, broadcastId: string, limit: number): Promise<ChatMessage[]> {
    const rows = await this.db.chatMessage.findMany({
      where: { projectId, broadcastId, private: false },
      orderBy: [{ sentAt: 'desc' }, { createdAt: 'desc' }],
      take: limit,
      include: { deliveries: true },
    });
    return rows.reverse().map(toWire);
  }

  async message(id: string): Promise<ChatMessage | null> {
    const row = await this.db.chatMessage.findUnique({ where: { id }, include: { deliveries: true } });
    return row ? toWire(row) : null;
  }

  /** Records one platform's outcome of a sent message (only while it is pending) and tells the studios. */
  async settleDelivery(
    messageId: string,
    destinationId: string,
    outcome: { state: 'sent' | 'failed'; error?: string; platformMessageId?: string | null },
  ): Promise<void> {
    const moved = await this.db.chatDelivery.updateMany({
      where: { messageId, destinationId, state: 'pending' },
      data: { state: outcome.state, error: outcome.error ?? null, platformMessageId: outcome.platformMessageId ?? null },
    });
    if (moved.count === 0) return;
    const message = await this.message(messageId);
    if (message) await this.publish({ type: 'chat.messages', projectId: message.projectId, messages: [message] });
  }
}
