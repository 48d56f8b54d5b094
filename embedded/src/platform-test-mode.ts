import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ConsentSignIn } from './chat-doubles/consent-sign-in.ts';
import { TestModeStreamKeys, type DoubleAccount } from './chat-doubles/double-http.ts';
import { startFacebookChatDouble, type FacebookChatDouble } from './chat-doubles/facebook-chat-double.ts';
import { startTwitchChatDouble, type TwitchChatDouble } from './chat-doubles/twitch-chat-double.ts';
import { startYouTubeChatDouble, type YouTubeChatDouble } from './chat-doubles/youtube-chat-double.ts';
import { startEventSubDouble, type EventSubDouble } from './eventsub-double/eventsub-double.ts';

/**
 * The platforms' test mode of the one-machine stack, as the Stripe double is billing's: without a
 * platform's OAuth client (TWITCH_CLIENT_ID, GOOGLE_CLIENT_ID, FACEBOOK_CLIENT_ID) the stack starts
 * that platform's doubles and points the api's platform code at them. The api runs its real code
 * paths over real sockets: the OAuth popup reaches the double's consent page ('Test mode — no real
 * Twitch account'), the code is exchanged at its token endpoint, the account, stream key, ingest
 * and broadcast metadata come from its API, and the stream goes to this machine's RTMP server
 * under the channel's own key, handed out by the double as the platform does (`streamKeys`; the
 * RTMP server's publish gate asks `streamKeyOwner`). Chat and events come from the same doubles, and the test-mode
 * control panel makes them act as the audience through their control endpoints (loopback only).
 */
export const TEST_MODE_PLATFORMS = ['twitch', 'youtube', 'facebook'] as const;
export type TestModePlatform = (typeof TEST_MODE_PLATFORMS)[number];

/** The environment variable whose presence switches a platform to the real service. */
export const REAL_CLIENT_ID_VARIABLE: Record<TestModePlatform, string> = {
  twitch: 'TWITCH_CLIENT_ID',
  youtube: 'GOOGLE_CLIENT_ID',
  facebook: 'FACEBOOK_CLIENT_ID',
};

export interface PlatformTestModeOptions {
  platforms: readonly TestModePlatform[];
  /** Origins the api is reached at: the consent pages send the browser back only there. */
  redirectOrigins: string[];
  /** The local RTMP server (`rtmp://127.0.0.1:port/app`, the api's LOCAL_RTMP_URL): every test-mode channel's ingest. */
  ingest: { rtmpUrl: string };
  /** Where each platform's tokens and channels' stream keys are kept across restarts (the stack's data folder); in memory only when unset. */
  stateDir?: string;
}

export interface RunningPlatformTestMode {
  platforms: TestModePlatform[];
  twitch?: { chat: TwitchChatDouble; events: EventSubDouble; signIn: ConsentSignIn };
  youtube?: { chat: YouTubeChatDouble; signIn: ConsentSignIn };
  facebook?: { chat: FacebookChatDouble; signIn: ConsentSignIn };
  /** The api's environment for the platforms in test mode (OAuth clients, endpoints, PLATFORM_TEST_MODE). */
  env: Record<string, string>;
  /** The stream keys each platform handed out, one per channel. */
  streamKeys: Partial<Record<TestModePlatform, TestModeStreamKeys>>;
  /** Which platform and channel a stream key was handed out to; undefined for a key no double issued. */
  streamKeyOwner(key: string): { platform: TestModePlatform; channel: string } | undefined;
  /** Registers one more origin every consent page may send the browser back to. */
  allowRedirectOrigin(origin: string): void;
  close(): Promise<void>;
}

const digits = (name: string, length: number) => {
  let h = 17n;
  for (const ch of name) h = (h * 131n + BigInt(ch.codePointAt(0) ?? 0)) % 10n ** BigInt(length);
  return h.toString().padStart(length, '0');
};

export async function startPlatformTestMode(options: PlatformTestModeOptions): Promise<RunningPlatformTestMode> {
  const env: Record<string, string> = {};
  const control: Record<string, Record<string, string>> = {};
  const redirectOrigins = [...options.redirectOrigins];
  const streamKeys: Partial<Record<TestModePlatform, TestModeStreamKeys>> = {};
  const out: RunningPlatformTestMode = {
    platforms: [...options.platforms],
    env,
    streamKeys,
    streamKeyOwner: (key) => {
      for (const platform of options.platforms) {
        const channel = streamKeys[platform]?.channelOf(key);
        if (channel !== undefined) return { platform, channel };
      }
      return undefined;
    },
    allowRedirectOrigin: (origin) => {
      if (!redirectOrigins.includes(origin)) redirectOrigins.push(origin);
    },
    close: async () => {},
  };
  const closers: (() => Promise<void>)[] = [];
  const secret = () => randomBytes(24).toString('hex');
  const ingestOf = (p: TestModePlatform) => {
    const keys = new TestModeStreamKeys(`${p}_test_`);
    if (options.stateDir) keys.persistIn(join(options.stateDir, `test-mode-${p}-stream-keys.json`));
    streamKeys[p] = keys;
    return { rtmpUrl: options.ingest.rtmpUrl, keys };
  };

  try {
    if (options.platforms.includes('twitch')) {
      const chat = await startTwitchChatDouble();
      closers.push(() => chat.close());
      const events = await startEventSubDouble();
      closers.push(() => events.close());
      // One Twitch login serves chat, EventSub and Helix.
      events.shareTokensWith(chat);
      if (options.stateDir) chat.tokens.persistIn(join(options.stateDir, 'test-mode-twitch-tokens.json'));
      events.ingest = ingestOf('twitch');
      const clientId = 'onair-test-mode-twitch';
      const clientSecret = secret();
      const accountOf = (name: string): DoubleAccount => {
        const login = name.toLowerCase().replace(/[^a-z0-9_]/g, '_');
        return { id: chat.userIdOf(login), login, displayName: name.replace(/[^A-Za-z0-9_]/g, '_'), email: `${login}@twitch.test-mode.invalid` };
      };
      const signIn = new ConsentSignIn({
        platform: 'Twitch',
        brandColor: '#9146FF',
        authorizePath: '/oauth2/authorize',
        userinfoPath: '/oauth2/userinfo',
        clientId,
        clientSecret,
        redirectOrigins,
        defaultName: 'onair_tester',
        accountOf,
        profileOf: (a) => ({
          aud: clientId,
          sub: a.id,
          preferred_username: a.displayName,
          email: a.email,
          email_verified: true,
          picture: `${events.url}/avatars/${a.id}.svg`,
        }),
        issue: (a) => events.issueToken(a),
        onSignIn: (a) => events.knowLogin(a.id, a.login),
        ownerOf: (t) => events.ownerOf(t),
      });
      events.signIn = signIn;
      // The partner network's chatbot speaks as one bot account of this machine; what it says through
      // Helix shows in the IRC chat double as a line of that account.
      const bot = accountOf('onairbot');
      events.knowLogin(bot.id, bot.login);
      const botToken = events.issueToken(bot);
      events.onChatMessage = (channel, sender, text) => {
        if (channel) chat.say(channel, { login: sender ?? bot.login, text });
      };
      out.twitch = { chat, events, signIn };
      Object.assign(env, {
        TWITCH_CLIENT_ID: clientId,
        TWITCH_CLIENT_SECRET: clientSecret,
        TWITCH_AUTHORIZATION_URL: `${events.url}/oauth2/authorize`,
        TWITCH_TOKEN_URL: `${events.url}/oauth2/token`,
        TWITCH_USERINFO_URL: `${events.url}/oauth2/userinfo`,
        TWITCH_API_URL: events.helixUrl,
        TWITCH_INGEST_URL: `${events.url}/ingests`,
        TWITCH_EVENTSUB_URL: events.wsUrl,
        TWITCH_CHAT_URL: chat.wsUrl,
        TWITCH_EMOTE_URL: `${chat.url}/emoticons/v2`,
        CHATBOT_TWITCH_USER_ID: bot.id,
        CHATBOT_TWITCH_LOGIN: bot.login,
        CHATBOT_TWITCH_TOKEN: botToken.accessToken,
      });
      control.twitch = { chat: chat.url, events: events.url };
    }
    if (options.platforms.includes('youtube')) {
      const chat = await startYouTubeChatDouble();
      closers.push(() => chat.close());
      chat.ingest = ingestOf('youtube');
      if (options.stateDir) chat.tokens.persistIn(join(options.stateDir, 'test-mode-youtube-tokens.json'));
      const clientId = 'onair-test-mode-google';
      const clientSecret = secret();
      const signIn = new ConsentSignIn({
        platform: 'YouTube',
        brandColor: '#FF0000',
        authorizePath: '/o/oauth2/v2/auth',
        userinfoPath: '/v1/userinfo',
        clientId,
        clientSecret,
        redirectOrigins,
        defaultName: 'OnAir Tester',
        accountOf: (name) => ({ id: `UC${digits(name, 22)}`, login: name, displayName: name, email: `${digits(name, 10)}@youtube.test-mode.invalid` }),
        profileOf: (a) => ({ sub: a.id, name: a.displayName, email: a.email, email_verified: true }),
        issue: (a) => chat.issueToken(a),
        ownerOf: (t) => chat.ownerOf(t),
      });
      chat.signIn = signIn;
      out.youtube = { chat, signIn };
      Object.assign(env, {
        GOOGLE_CLIENT_ID: clientId,
        GOOGLE_CLIENT_SECRET: clientSecret,
        GOOGLE_AUTHORIZATION_URL: `${chat.url}/o/oauth2/v2/auth`,
        GOOGLE_TOKEN_URL: `${chat.url}/token`,
        GOOGLE_USERINFO_URL: `${chat.url}/v1/userinfo`,
        YOUTUBE_API_URL: `${chat.url}/youtube/v3`,
      });
      control.youtube = { chat: chat.url };
    }
    if (options.platforms.includes('facebook')) {
      const chat = await startFacebookChatDouble();
      closers.push(() => chat.close());
      chat.ingest = ingestOf('facebook');
      if (options.stateDir) chat.tokens.persistIn(join(options.stateDir, 'test-mode-facebook-tokens.json'));
      const clientId = 'onair-test-mode-facebook';
      const clientSecret = secret();
      const graph = `${chat.url}/${chat.version}`;
      const signIn = new ConsentSignIn({
        platform: 'Facebook',
        brandColor: '#1877F2',
        authorizePath: `/${chat.version}/dialog/oauth`,
        clientId,
        clientSecret,
        redirectOrigins,
        defaultName: 'OnAir Tester',
        accountOf: (name) => ({ id: `1000${digits(name, 11)}`, login: name, displayName: name, email: `${digits(name, 10)}@facebook.test-mode.invalid` }),
        profileOf: (a) => ({ id: a.id, name: a.displayName, email: a.email }),
        issue: (a) => chat.issueToken(a),
        ownerOf: (t) => chat.ownerOf(t),
      });
      chat.signIn = signIn;
      out.facebook = { chat, signIn };
      Object.assign(env, {
        FACEBOOK_CLIENT_ID: clientId,
        FACEBOOK_CLIENT_SECRET: clientSecret,
        FACEBOOK_AUTHORIZATION_URL: `${graph}/dialog/oauth`,
        FACEBOOK_TOKEN_URL: `${graph}/oauth/access_token`,
        FACEBOOK_USERINFO_URL: `${graph}/me?fields=id,name,email,picture.type(large)`,
        FACEBOOK_GRAPH_URL: graph,
        FACEBOOK_STREAMING_URL: graph,
      });
      control.facebook = { chat: chat.url };
    }
  } catch (err) {
    await Promise.all(closers.map((c) => c()));
    throw err;
  }
  if (options.platforms.length > 0) env.PLATFORM_TEST_MODE = JSON.stringify(control);
  out.close = async () => {
    await Promise.all(closers.map((c) => c()));
  };
  return out;
}
