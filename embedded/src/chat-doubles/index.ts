import { startFacebookChatDouble, type FacebookChatDouble } from './facebook-chat-double.ts';
import { startTwitchChatDouble, type TwitchChatDouble } from './twitch-chat-double.ts';
import { startYouTubeChatDouble, type YouTubeChatDouble } from './youtube-chat-double.ts';

export { controlDouble } from './double-http.ts';
export { startFacebookChatDouble, FacebookChatDouble, type FacebookComment } from './facebook-chat-double.ts';
export { startTwitchChatDouble, TwitchChatDouble, type TwitchChatLine } from './twitch-chat-double.ts';
export { startYouTubeChatDouble, YouTubeChatDouble, type YouTubeChatItem } from './youtube-chat-double.ts';

export interface ChatDoubles {
  twitch: TwitchChatDouble;
  youtube: YouTubeChatDouble;
  facebook: FacebookChatDouble;
  close(): Promise<void>;
}

/** The three platform chat doubles on loopback ports. */
export async function startChatDoubles(): Promise<ChatDoubles> {
  const [twitch, youtube, facebook] = await Promise.all([startTwitchChatDouble(), startYouTubeChatDouble(), startFacebookChatDouble()]);
  return {
    twitch,
    youtube,
    facebook,
    close: async () => {
      await Promise.all([twitch.close(), youtube.close(), facebook.close()]);
    },
  };
}

/** The api environment that points every platform's chat (emote images included) at the doubles. */
export function chatDoublesEndpoints(d: ChatDoubles): Record<string, string> {
  return {
    TWITCH_CHAT_URL: d.twitch.wsUrl,
    TWITCH_EMOTE_URL: `${d.twitch.url}/emoticons/v2`,
    YOUTUBE_API_URL: `${d.youtube.url}/youtube/v3`,
    FACEBOOK_GRAPH_URL: `${d.facebook.url}/${d.facebook.version}`,
    FACEBOOK_STREAMING_URL: `${d.facebook.url}/${d.facebook.version}`,
  };
}

/**
 * …and the platforms' OAuth clients and token endpoints, which refreshing a token needs (a
 * platform without a client is not configured at all); the doubles accept any client id.
 */
export function chatDoublesEnv(d: ChatDoubles): Record<string, string> {
  return {
    ...chatDoublesEndpoints(d),
    TWITCH_CLIENT_ID: 'chat-double-twitch',
    TWITCH_CLIENT_SECRET: 'chat-double-secret',
    TWITCH_TOKEN_URL: `${d.twitch.url}/oauth2/token`,
    GOOGLE_CLIENT_ID: 'chat-double-google',
    GOOGLE_CLIENT_SECRET: 'chat-double-secret',
    GOOGLE_TOKEN_URL: `${d.youtube.url}/token`,
    FACEBOOK_CLIENT_ID: 'chat-double-facebook',
    FACEBOOK_CLIENT_SECRET: 'chat-double-secret',
    FACEBOOK_TOKEN_URL: `${d.facebook.url}/${d.facebook.version}/oauth/access_token`,
  };
}
