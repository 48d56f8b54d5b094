import type { ChatConnectionState } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { InboundChat, InboundEvent } from './inbound.ts';

export type { InboundChat, InboundEvent };

/** The settings the chat connectors read (the chat's config and the platforms' API bases; api config.ts). */
export interface ChatConnectorConfig {
  TWITCH_CHAT_URL: string;
  TWITCH_EMOTE_URL: string;
  CHAT_TWITCH_RECONNECT_MS: number;
  YOUTUBE_API_URL: string;
  FACEBOOK_GRAPH_URL: string;
  FACEBOOK_STREAMING_URL: string;
  FACEBOOK_COMMENT_RATE: string;
  CHAT_NOT_LIVE_RETRY_MS: number;
  CHAT_ERROR_RETRY_MS: number;
  CHAT_STREAM_STALL_MS: number;
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
  config: ChatConnectorConfig;
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

/** A platform's chat, read for one destination while its broadcast is live. One file per platform (chat/connectors/, and Twitch's here: the chatbot reads it too). */
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
