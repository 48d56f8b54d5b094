import { linkSegments, type ChatConnectionState, type ChatSegment } from '@onair/protocol';
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

// Shared with the events connectors (EventSub): kept in platforms/, re-exported for the chat's.
export { cleanPlatformText, nextBackoff, safeImageUrl, sleep } from '../../platforms/connector-kit.ts';

export { linkSegments };
