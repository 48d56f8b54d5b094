import { CHAT_PLATFORM_TEXT_MAX, linkSegments, type ChatConnectionState, type ChatSegment } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { ChatConfig } from '../config.ts';
import type { InboundEvent } from '../../events/twitch-events.ts';

/** One message read from a platform, before it is stored. */
export interface InboundChat {
  platformMessageId: string;
  sender: string | null;
  displayName: string;
  avatar: string | null;
  content: string;
  segments: ChatSegment[];
  sentAt: Date;
  private: boolean;
  /** Twitch: the sender's login and standing, from the message's tags (the chatbot's permission levels). */
  twitch?: { login: string; broadcaster: boolean; moderator: boolean; vip: boolean; subscriber: boolean; firstMessage: boolean };
}

/** What a connector knows of its destination. */
export interface ConnectorDestination {
  id: string;
  projectId: string;
  username: string | null;
  platformAccountId: string | null;
  /** Facebook: where the live video is (the chosen page, group or event; the timeline is the account). */
  targetId: string | null;
}

export interface ConnectorContext {
  destination: ConnectorDestination;
  config: ChatConfig & { YOUTUBE_API_URL: string; FACEBOOK_GRAPH_URL: string };
  logger: Logger;
  /** The destination's token now, and one refresh after the platform refused it; null when there is none. */
  tokens: { current(): Promise<string | null>; refresh(): Promise<string | null> };
  /** Where a polling connector resumes after a failover (YouTube's page token), kept in Redis. */
  cursor: { get(): Promise<string | null>; set(value: string): Promise<void> };
  /** Hands messages over; resolves true once they are stored (false when they could not be). */
  onMessages(messages: InboundChat[]): Promise<boolean>;
  /** Hands events read with the chat (YouTube's Super Chats, Super Stickers, memberships) to the events feed; true once stored. */
  onEvents?(events: InboundEvent[]): Promise<boolean>;
  onState(state: ChatConnectionState, error?: string): void;
}

/** A platform's chat, read for one destination while its broadcast is live. One file per platform. */
export interface ChatConnector {
  start(): void;
  stop(): Promise<void>;
  /** Sends as the destination's account; the platform's id of the message when it gives one. */
  send(text: string): Promise<{ platformMessageId: string | null }>;
}

/** A send the platform refused or could not take, in the creator's words. */
export class ChatSendError extends Error {
  override readonly name = 'ChatSendError';
}

/**
 * Text from a platform as the panel may show it: control characters out, cut to
 * CHAT_PLATFORM_TEXT_MAX (a 10 000-character message is kept short, and says so in the log).
 */
export function cleanPlatformText(text: string, logger: Logger, where: Record<string, unknown>): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  let clean = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
  if (clean.length > CHAT_PLATFORM_TEXT_MAX) {
    logger.info({ ...where, length: clean.length, kept: CHAT_PLATFORM_TEXT_MAX }, 'platform chat message cut to the longest kept');
    clean = `${Array.from(clean).slice(0, CHAT_PLATFORM_TEXT_MAX).join('')}…`;
  }
  return clean;
}

/** A platform's avatar or emote address, kept only when it is http(s). */
export function safeImageUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > 2000) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** Waits, or less when stopped (the signal aborts). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/** Doubles a retry delay from 1 s up to `max` (500s and 429s are retried with backoff). */
export function nextBackoff(previous: number, max: number): number {
  return Math.min(max, previous === 0 ? Math.min(1000, max) : previous * 2);
}

export { linkSegments };
