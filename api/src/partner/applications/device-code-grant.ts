import OAuth2Server from '@node-oauth/oauth2-server';
import type { OAuthClient, OAuthModel } from './oauth-model.ts';

const { AbstractGrantType, InvalidGrantError, InvalidRequestError, OAuthError } = OAuth2Server;

/** RFC 8628's error codes, answered with status 400 like the other token errors. */
class DeviceFlowError extends OAuthError {
  constructor(name: string, message: string) {
    super(message, { code: 400, name });
  }
}

/**
 * The device-code grant (RFC 8628 §3.4) as an extension grant of @node-oauth/oauth2-server: the
 * device polls with its device code until the creator answered the short code.
 */
export class DeviceCodeGrantType extends AbstractGrantType {
  async handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token> {
    const deviceCode = (request.body as Record<string, unknown> | undefined)?.device_code;
    if (typeof deviceCode !== 'string' || deviceCode.length === 0) throw new InvalidRequestError('Missing parameter: `device_code`');
    const model = (this as unknown as { model: OAuthModel }).model;
    const poll = await model.pollDeviceCode(deviceCode, client as OAuthClient);
    switch (poll.status) {
      case 'unknown':
        throw new InvalidGrantError('Invalid grant: device code is invalid');
      case 'expired':
        throw new DeviceFlowError('expired_token', 'The device code has expired: start again on the device.');
      case 'denied':
        throw new DeviceFlowError('access_denied', 'The creator denied this device.');
      case 'slow_down':
        throw new DeviceFlowError('slow_down', 'Polling too often: wait the interval between polls.');
      case 'pending':
        throw new DeviceFlowError('authorization_pending', 'The creator has not entered the code yet.');
      case 'allowed': {
        const user = { id: poll.userId };
        const accessToken = await this.generateAccessToken(client, user, poll.scopes);
        const accessTokenExpiresAt = this.getAccessTokenExpiresAt();
        return model.saveToken({ accessToken, accessTokenExpiresAt, scope: poll.scopes, client, user }, client, user);
      }
    }
  }
}
