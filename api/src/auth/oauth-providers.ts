import type { GenericOAuthConfig } from 'better-auth/plugins';
import { testModeSignInProviders, type AuthConfig } from './config.ts';

interface FacebookPicture {
  data?: { url?: string; is_silhouette?: boolean };
}

/**
 * Twitch, Google (YouTube) and Facebook as plain OAuth 2.0 providers with every endpoint taken
 * from configuration: the defaults are the real ones, and tests point them at a local double.
 * A provider without a client id is not offered, nor one in the one-machine stack's test mode:
 * anyone can be anyone on a double's consent page, so it must not sign in to OnAir accounts.
 */
/** Records a platform's own name for a signed-in account (the Twitch login that collaborator invitations name). */
/** Read access to the signed-in account's YouTube channel (statistics, live broadcasts). */
export const YOUTUBE_READONLY_SCOPE = 'https://www.googleapis.com/auth/youtube.readonly';

export type PlatformLoginRecorder = (providerId: string, accountId: string, login: string) => Promise<void>;

export function oauthProviders(config: AuthConfig, recordLogin?: PlatformLoginRecorder): GenericOAuthConfig[] {
  const providers: GenericOAuthConfig[] = [];
  if (config.TWITCH_CLIENT_ID) {
    providers.push({
      providerId: 'twitch',
      name: 'Twitch',
      clientId: config.TWITCH_CLIENT_ID,
      clientSecret: config.TWITCH_CLIENT_SECRET,
      authorizationUrl: config.TWITCH_AUTHORIZATION_URL,
      tokenUrl: config.TWITCH_TOKEN_URL,
      userInfoUrl: config.TWITCH_USERINFO_URL,
      scopes: ['openid', 'user:read:email'],
      // Twitch's OIDC userinfo answers only the claims asked for.
      authorizationUrlParams: { claims: JSON.stringify({ userinfo: { email: null, email_verified: null, preferred_username: null, picture: null } }) },
      accountSubject: ({ profile }) => String(profile.sub ?? ''),
      disableSignUp: config.SIGNUP_MODE === 'waitlist',
      // Called at every Twitch sign-in and link (the user's name is taken from it only at sign-up).
      mapProfileToUser: async (profile) => {
        const login = typeof profile.preferred_username === 'string' ? profile.preferred_username : undefined;
        if (login && recordLogin && profile.sub !== undefined) await recordLogin('twitch', String(profile.sub), login.toLowerCase());
        return { name: login };
      },
    });
  }
  if (config.GOOGLE_CLIENT_ID) {
    providers.push({
      providerId: 'google',
      name: 'Google',
      clientId: config.GOOGLE_CLIENT_ID,
      clientSecret: config.GOOGLE_CLIENT_SECRET,
      authorizationUrl: config.GOOGLE_AUTHORIZATION_URL,
      tokenUrl: config.GOOGLE_TOKEN_URL,
      userInfoUrl: config.GOOGLE_USERINFO_URL,
      // The YouTube channel's statistics (read only) for campaign eligibility, with offline access so they
      // can be sampled while the creator is away.
      scopes: ['openid', 'email', 'profile', YOUTUBE_READONLY_SCOPE],
      accessType: 'offline',
      accountSubject: ({ profile }) => String(profile.sub ?? ''),
      disableSignUp: config.SIGNUP_MODE === 'waitlist',
    });
  }
  if (config.FACEBOOK_CLIENT_ID) {
    providers.push({
      providerId: 'facebook',
      name: 'Facebook',
      clientId: config.FACEBOOK_CLIENT_ID,
      clientSecret: config.FACEBOOK_CLIENT_SECRET,
      authorizationUrl: config.FACEBOOK_AUTHORIZATION_URL,
      tokenUrl: config.FACEBOOK_TOKEN_URL,
      userInfoUrl: config.FACEBOOK_USERINFO_URL,
      scopes: ['email', 'public_profile'],
      accountSubject: ({ profile }) => String(profile.id ?? ''),
      disableSignUp: config.SIGNUP_MODE === 'waitlist',
      mapProfileToUser: (profile) => {
        const picture = profile.picture as FacebookPicture | undefined;
        return { image: picture?.data?.is_silhouette ? undefined : picture?.data?.url };
      },
    });
  }
  const testMode = testModeSignInProviders(config);
  return providers.filter((p) => !testMode.has(p.providerId));
}
