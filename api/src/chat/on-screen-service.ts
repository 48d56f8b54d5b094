import type { Redis } from 'ioredis';
import {
  CHAT_ON_SCREEN_DEFAULT_MS,
  CHAT_ON_SCREEN_OVERLAY_PATH,
  chatChannels,
  chatOnAirSchema,
  chatOnScreenStoredSchema,
  chatOnScreenText,
  chatPlatformSchema,
  OnAirError,
  sessionKeys,
  type ChatOnAir,
  type ChatOnScreen,
  type ChatOnScreenKind,
  type ChatOnScreenStored,
  type ChatServerMessage,
  type SessionCommand,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import { PageKey } from '../http/signed-page.ts';

/** What is kept per project: the message as drawn, when it went on, and for how long (null: until taken off). */
const storedSchema = chatOnScreenStoredSchema;
type Stored = ChatOnScreenStored;

const onScreenKey = sessionKeys.chatOnScreen;

/**
 * Chat on screen: which chat message a project shows in its program. The state is the project's, in
 * Redis (every replica, every studio of the project and the session's media worker read the same; a
 * message with a duration expires with its key), and each change is published on the project's chat
 * channel, which the studios' sockets and the overlay page follow, and told to the session's worker,
 * which draws it over the program and reports it on air (issue 53 item 1). The replica that put a message on screen also
 * announces its end when its time is up; should that replica be gone, the studios and the page
 * count the remaining time down themselves.
 */
export class ChatOnScreenService {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pageKey: PageKey;

  constructor(
    private readonly deps: {
      db: Db;
      redis: Redis;
      logger: Logger;
      publicUrl: string;
      secret: string;
      /** Signs the overlay's address so the studio's render worker may load it on a private origin (own-page-urls.ts). */
      signForStudio?: (url: string) => string;
    },
  ) {
    this.pageKey = new PageKey(deps.secret, 'chat-on-screen-overlay');
  }

  overlayKey(projectId: string): string {
    return this.pageKey.of(projectId);
  }

  checkKey(projectId: string, key: unknown): boolean {
    return this.pageKey.check(projectId, key);
  }

  overlayUrl(projectId: string): string {
    const url = new URL(CHAT_ON_SCREEN_OVERLAY_PATH.replace(':projectId', projectId), this.deps.publicUrl);
    url.searchParams.set('key', this.overlayKey(projectId));
    return this.deps.signForStudio ? this.deps.signForStudio(url.toString()) : url.toString();
  }

  /** The message on screen now, with the time it has left; null when none is. */
  async current(projectId: string): Promise<ChatOnScreen | null> {
    const key = onScreenKey(projectId);
    const [[, raw], [, ttl]] = (await this.deps.redis.multi().get(key).pttl(key).exec()) as [[null, string | null], [null, number]];
    if (!raw) return null;
    const parsed = storedSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) return null;
    return this.drawn(parsed.data, ttl >= 0 ? ttl : null);
  }

  async view(projectId: string): Promise<{ onScreen: ChatOnScreen | null; onAir: ChatOnAir | null; overlayUrl: string }> {
    return { onScreen: await this.current(projectId), onAir: await this.onAir(projectId), overlayUrl: this.overlayUrl(projectId) };
  }

  /** What the session's pipeline last reported on air (the media worker keeps it while the session runs). */
  async onAir(projectId: string): Promise<ChatOnAir | null> {
    const raw = await this.deps.redis.get(sessionKeys.chatOnAir(projectId));
    if (raw === null) return null;
    const parsed = chatOnAirSchema.nullable().safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  }

  /** Puts a message of the project's platform chat or room chat on screen, in place of any other. */
  async show(projectId: string, kind: ChatOnScreenKind, messageId: string, durationMs: number | null = CHAT_ON_SCREEN_DEFAULT_MS) {
    const message = await this.message(projectId, kind, messageId);
    const stored: Stored = { ...message, kind, messageId, shownAt: new Date().toISOString(), durationMs };
    const key = onScreenKey(projectId);
    if (durationMs === null) await this.deps.redis.set(key, JSON.stringify(stored));
    else await this.deps.redis.set(key, JSON.stringify(stored), 'PX', durationMs);
    const onScreen = this.drawn(stored, durationMs);
    await this.publish(projectId, onScreen);
    if (durationMs !== null) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.timeUp(projectId, stored).catch((err: unknown) =>
          this.deps.logger.warn({ err: (err as Error).message, projectId }, 'chat on screen: end not announced'),
        );
      }, durationMs);
      timer.unref();
      this.timers.add(timer);
    }
    this.deps.logger.info({ projectId, kind, messageId, durationMs }, 'chat message on screen');
    return { onScreen, overlayUrl: this.overlayUrl(projectId) };
  }

  /** Takes the message off the screen; with `onlyMessageId`, only when that one is still the message shown. */
  async hide(projectId: string, onlyMessageId?: string) {
    const current = await this.current(projectId);
    if (current && (onlyMessageId === undefined || current.messageId === onlyMessageId)) {
      await this.deps.redis.del(onScreenKey(projectId));
      await this.publish(projectId, null);
      return { onScreen: null, overlayUrl: this.overlayUrl(projectId) };
    }
    return { onScreen: current, overlayUrl: this.overlayUrl(projectId) };
  }

  /** Ends the time of a message: announced unless another message (or the same one again) was put on since. */
  private async timeUp(projectId: string, shown: Stored): Promise<void> {
    const current = await this.current(projectId);
    if (current && (current.messageId !== shown.messageId || current.shownAt !== shown.shownAt)) return;
    if (current) await this.deps.redis.del(onScreenKey(projectId));
    await this.publish(projectId, null);
  }

  private drawn(stored: Stored, remainingMs: number | null): ChatOnScreen {
    const { durationMs: _duration, ...rest } = stored;
    return { ...rest, remainingMs };
  }

  private async publish(projectId: string, onScreen: ChatOnScreen | null): Promise<void> {
    // The worker first: it reads the key again and draws; the studios learn it is on air from its report.
    const command: SessionCommand = { type: 'chatOnScreen' };
    const message: ChatServerMessage = { type: 'chat.onScreen', projectId, onScreen };
    await this.deps.redis
      .multi()
      .publish(sessionKeys.commands(projectId), JSON.stringify(command))
      .publish(chatChannels.project(projectId), JSON.stringify(message))
      .exec();
  }

  /** The message as drawn: its sender and platform, its text cut to what a lower third holds. */
  private async message(projectId: string, kind: ChatOnScreenKind, messageId: string): Promise<Pick<ChatOnScreen, 'platform' | 'displayName' | 'text'>> {
    if (kind === 'guest') {
      const row = await this.deps.db.guestChatMessage.findFirst({ where: { id: messageId, projectId }, select: { senderName: true, content: true } });
      if (!row) throw new OnAirError('CHAT_MESSAGE_NOT_FOUND');
      return { platform: null, displayName: row.senderName.slice(0, 200), text: chatOnScreenText(row.content) };
    }
    const row = await this.deps.db.chatMessage.findFirst({
      where: { id: messageId, projectId },
      select: { platform: true, displayName: true, content: true, private: true },
    });
    if (!row) throw new OnAirError('CHAT_MESSAGE_NOT_FOUND');
    if (row.private) throw new OnAirError('CHAT_MESSAGE_PRIVATE');
    const platform = chatPlatformSchema.safeParse(row.platform);
    return { platform: platform.success ? platform.data : null, displayName: row.displayName.slice(0, 200), text: chatOnScreenText(row.content) };
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
