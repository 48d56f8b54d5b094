import type { Redis } from 'ioredis';
import {
  CHATBOT_EVENTS_CHANNEL,
  eventChannels,
  liveEventDataSchema,
  type EventPlatform,
  type LiveEvent,
  type EventServerMessage,
  type ChannelEventsServerMessage,
} from '@onair/protocol';
import type { Db, LiveEvent as LiveEventRow } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { InboundEvent } from '../platforms/inbound.ts';
import type { AlertsService } from './alerts-service.ts';

/** A stored event as the studio receives it. */
export function toWire(row: LiveEventRow): LiveEvent {
  const data = liveEventDataSchema.safeParse(row.data);
  return {
    id: row.id,
    projectId: row.projectId,
    type: row.type,
    platform: row.platform as EventPlatform,
    platformUsername: row.platformUsername,
    platformCreatedAt: row.platformCreatedAt.toISOString(),
    avatar: row.avatar,
    value: row.value,
    data: data.success ? data.data : {},
  };
}

/**
 * Events in PostgreSQL and out to the studios: an event is stored once per platform id (a repeated
 * delivery, or a connector that hands an event again after a reconnect or a failover, adds
 * nothing), and only rows actually inserted, and neither replayed nor suppressed, are published on
 * the project's events channel.
 */
export class EventsStore {
  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly logger: Logger,
    /** Plays the alerts of new events in the program. */
    private readonly alerts?: AlertsService,
  ) {}

  async store(destination: { id: string | null; projectId: string; platform: EventPlatform }, events: InboundEvent[]): Promise<LiveEvent[]> {
    if (events.length === 0) return [];
    const rows = await this.db.liveEvent.createManyAndReturn({
      data: events.map((e) => ({
        projectId: destination.projectId,
        destinationId: destination.id,
        platform: destination.platform,
        platformEventId: e.platformEventId,
        type: e.type,
        platformUsername: e.platformUsername,
        avatar: e.avatar,
        value: e.value,
        data: e.data,
        replay: e.replay,
        suppressed: e.suppressed,
        platformCreatedAt: e.platformCreatedAt,
      })),
      skipDuplicates: true,
    });
    const skipped = events.length - rows.length;
    if (skipped > 0) this.logger.info({ projectId: destination.projectId, destinationId: destination.id, skipped }, 'events already stored were skipped');
    // Keep the order they came in (RETURNING gives the insert's order; sort by the platform's id order to be sure).
    const order = new Map(events.map((e, i) => [e.platformEventId, i]));
    const shown = rows
      .filter((r) => !r.replay && !r.suppressed)
      .sort((a, b) => order.get(a.platformEventId)! - order.get(b.platformEventId)!)
      .map(toWire);
    if (shown.length > 0) {
      await this.publish({ type: 'events.new', projectId: destination.projectId, events: shown });
      await this.publishToChannel(destination.projectId, shown);
      // The channel's chatbot (whichever replica runs it) posts the chat alerts and gives the points rewards.
      await this.redis
        .publish(CHATBOT_EVENTS_CHANNEL, JSON.stringify({ projectId: destination.projectId, events: shown }))
        .catch((err: unknown) => this.logger.warn({ err: (err as Error).message }, 'events not handed to the chatbot'));
      // Stored once, so each event plays its alert once, whichever replica stored it.
      await this.alerts
        ?.onEvents(destination.projectId, shown)
        .catch((err: unknown) => this.logger.warn({ err: (err as Error).message, projectId: destination.projectId }, 'alerts not sent'));
    }
    return shown;
  }

  /** The partner area's live feed of the channel that owns the project (its owner's id). */
  private async publishToChannel(projectId: string, events: LiveEvent[]): Promise<void> {
    try {
      const project = await this.db.project.findUnique({ where: { id: projectId }, select: { ownerId: true } });
      if (!project) return;
      const message: ChannelEventsServerMessage = { type: 'channel.events.new', channelId: project.ownerId, events };
      await this.redis.publish(eventChannels.channel(project.ownerId), JSON.stringify(message));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, projectId }, 'channel events publish failed');
    }
  }

  async publish(message: EventServerMessage): Promise<void> {
    try {
      await this.redis.publish(eventChannels.project(message.projectId), JSON.stringify(message));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, projectId: message.projectId }, 'events publish failed');
    }
  }
}
