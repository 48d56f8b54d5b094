// What the platform connectors hand over, normalised, before the chat and the events feed store it.
import type { ChatSegment, LiveEventData } from '@onair/protocol';

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

/** One event read from a platform, normalised into the feed's shape (studio spec §3), before it is stored. */
export interface InboundEvent {
  platformEventId: string;
  type: string;
  platformUsername: string;
  /** The platform's user id, for the avatar. */
  platformUserId: string | null;
  avatar: string | null;
  value: number | null;
  data: LiveEventData;
  platformCreatedAt: Date;
  replay: boolean;
  suppressed: boolean;
}
