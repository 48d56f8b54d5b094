import { expiryOf, type OAuthClientConfig, type PlatformTokens } from './platform.ts';
import { platformCall, PlatformCallError } from './platform-http.ts';

/** A standard OAuth 2.0 token endpoint's answer (RFC 6749 §5.1). */
interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
}

function tokens(answer: TokenAnswer, previousRefresh: string | null = null): PlatformTokens {
  return { accessToken: answer.access_token, refreshToken: answer.refresh_token ?? previousRefresh, expiresAt: expiryOf(answer.expires_in) };
}

/**
 * The two grants of a standard OAuth 2.0 token endpoint, with the client's secret in the form body
 * (Twitch and Google): exchanging an authorization code, and refreshing with a refresh token, which
 * is kept when the answer brings no new one.
 */
export async function exchangeAuthorizationCode(client: OAuthClientConfig, code: string, redirectUri: string): Promise<PlatformTokens> {
  return tokens(
    await platformCall<TokenAnswer>(client.tokenUrl, {
      form: { client_id: client.clientId, client_secret: client.clientSecret, code, grant_type: 'authorization_code', redirect_uri: redirectUri },
    }),
  );
}

export async function refreshAccessToken(client: OAuthClientConfig, refreshToken: string | null): Promise<PlatformTokens> {
  if (!refreshToken) throw new PlatformCallError(401, 'no refresh token');
  return tokens(
    await platformCall<TokenAnswer>(client.tokenUrl, {
      form: { client_id: client.clientId, client_secret: client.clientSecret, grant_type: 'refresh_token', refresh_token: refreshToken },
    }),
    refreshToken,
  );
}
