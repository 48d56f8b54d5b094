import type { Redis } from 'ioredis';
import { z } from 'zod';
import {
  CHAT_HISTORY_LIMIT,
  chatCanSend,
  chatComingSoonTypes,
  chatConnectionStateSchema,
  chatPlatformOf,
  chatTextSchema,
  destinationKinds,
  linkSegments,
  chatNeedsSignInText,
  OnAirError,
  type ChatDestinationEntry,
  type ChatMessage,
  type ChatServerMessage,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { CurrentUser } from '../http/auth-context.ts';
import type { RedisLease } from '../leases/lease.ts';
import { needsSignIn } from '../destinations/destination-service.ts';
import { chatKeys } from './keys.ts';
import type { ChatStore } from './chat-store.ts';

/** How long a studio waits for a platform's outcome before the send counts as failed. */
const SEND_TIMEOUT_MS = 15_000;

const stateSchema = z.object({ state: chatConnectionStateSchema, error: z.string().optional() });

/** A send handed to the replica that owns the destination's connector. */
export const chatSendCommandSchema = z.object({ messageId: z.uuid(), destinationId: z.uuid(), text: z.string() });

/**
 * The studio's side of the platform chat: which chats a project has and how each is doing, the
 * recent history of its broadcast, and sending to chosen platforms. A message sent to several
 * platforms is one row with one delivery per platform; each send goes to the replica that owns
 * that platform's connector, which records the outcome.
 */
export class ChatService {
  constructor(private readonly deps: { db: Db; redis: Redis; store: ChatStore; lease: RedisLease; logger: Logger }) {}

  private async currentBroadcast(projectId: string) {
    return this.deps.db.broadcast.findFirst({ where: { projectId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: { id: true, state: true } });
  }

  /** The project's chats: every enabled destination whose platform has one (coming soon where no connector exists). */
  async destinations(projectId: string): Promise<{ live: boolean; broadcastId: string | null; destinations: ChatDestinationEntry[] }> {
    const broadcast = await this.currentBroadcast(projectId);
    const live = broadcast?.state === 'live' || broadcast?.state === 'starting';
    const rows = await this.deps.db.destination.findMany({ where: { projectId, enabled: true }, orderBy: { createdAt: 'asc' } });
    const withChat = rows.filter((r) => chatPlatformOf(r.type) !== null || chatComingSoonTypes.includes(r.type));
    const states = withChat.length > 0 ? await this.deps.redis.mget(...withChat.map((r) => chatKeys.state(r.id))) : [];
    const destinations = withChat.map((row, i): ChatDestinationEntry => {
      const platform = chatPlatformOf(row.type);
      const authenticated = destinationKinds[row.type].connection !== 'oauth' || row.accessTokenEnc !== null;
      const base = {
        id: row.id,
        platform,
        platformId: row.platformAccountId,
        username: row.username,
        variant: row.type,
        name: row.name,
        canSend: chatCanSend(platform, authenticated),
      };
      if (!platform) return { ...base, state: 'unsupported', error: `Support for ${destinationKinds[row.type].label} chat is coming soon.` };
      // Said live or not: the creator can fix it before going live.
      if (needsSignIn(row)) return { ...base, state: 'needsSignIn', error: chatNeedsSignInText(row.type) };
      if (!live) return { ...base, state: 'offline' };
      const raw = states[i];
      const parsed = raw ? stateSchema.safeParse(JSON.parse(raw)) : null;
      if (!parsed?.success) return { ...base, state: 'connecting' };
      return { ...base, state: parsed.data.state, ...(parsed.data.error ? { error: parsed.data.error } : {}) };
    });
    return { live, broadcastId: live ? broadcast!.id : null, destinations };
  }

  /** The `chat.destinations` message of a project, as every studio of it should see it now. */
  async destinationsMessage(projectId: string): Promise<ChatServerMessage> {
    const { live, destinations } = await this.destinations(projectId);
    return { type: 'chat.destinations', projectId, live, destinations };
  }

  async publishDestinations(projectId: string): Promise<void> {
    await this.deps.store.publish(await this.destinationsMessage(projectId));
  }

  /** Spec §4: the recent non-private messages of the current (or last) broadcast, with the chats. */
  async history(projectId: string): Promise<ChatServerMessage> {
    const [{ live, destinations }, broadcast] = await Promise.all([this.destinations(projectId), this.currentBroadcast(projectId)]);
    const messages = broadcast ? await this.deps.store.history(projectId, broadcast.id, CHAT_HISTORY_LIMIT) : [];
    return { type: 'chat.history', projectId, live, destinations, messages };
  }

  /** Spec §5 and §4: a message to the chosen chats, recorded once with one outcome per platform. */
  async send(user: CurrentUser, projectId: string, text: string, targets: string[]): Promise<ChatMessage> {
    const parsed = chatTextSchema.safeParse(text);
    if (!parsed.success) throw new OnAirError('VALIDATION_FAILED', parsed.error.issues[0]?.message ?? 'The message is not valid.');
    const content = parsed.data;
    const { live, broadcastId, destinations } = await this.destinations(projectId);
    if (!live) throw new OnAirError('CHAT_NOT_LIVE');
    const chosen = [...new Set(targets)].map((id) => destinations.find((d) => d.id === id));
    if (chosen.some((d) => !d || !d.canSend)) throw new OnAirError('CHAT_TARGET_INVALID');
    const sender = await this.deps.db.user.findUnique({ where: { id: user.id }, select: { name: true, email: true, image: true } });
    const row = await this.deps.db.chatMessage.create({
      data: {
        projectId,
        broadcastId,
        direction: 'outbound',
        sender: user.id,
        displayName: (sender?.name || sender?.email.split('@')[0] || 'Host').slice(0, 200),
        avatar: sender?.image ?? null,
        content,
        segments: linkSegments(content),
        sentAt: new Date(),
        deliveries: { create: chosen.map((d) => ({ destinationId: d!.id, state: 'pending' })) },
      },
      include: { deliveries: true },
    });
    const message = (await this.deps.store.message(row.id))!;
    await this.deps.store.publish({ type: 'chat.messages', projectId, messages: [message] });
    for (const d of chosen) {
      const owner = await this.deps.lease.holder(d!.id);
      const platform = destinationKinds[d!.variant].label;
      if (!owner) {
        await this.deps.store.settleDelivery(row.id, d!.id, { state: 'failed', error: `The ${platform} chat is not connected.` });
        continue;
      }
      await this.deps.redis.publish(chatKeys.replica(owner), JSON.stringify({ messageId: row.id, destinationId: d!.id, text: content }));
    }
    // The owner may die with the send in hand: what is still pending then has failed.
    setTimeout(() => {
      void (async () => {
        for (const d of chosen) {
          await this.deps.store.settleDelivery(row.id, d!.id, {
            state: 'failed',
            error: `No answer from ${destinationKinds[d!.variant].label}. The message may not have been sent.`,
          });
        }
      })().catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message, messageId: row.id }, 'pending chat deliveries not settled'));
    }, SEND_TIMEOUT_MS).unref();
    return message;
  }
}
