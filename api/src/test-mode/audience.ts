import {
  audienceActsByPlatform,
  destinationKinds,
  OnAirError,
  type AudienceAct,
  type AudienceActBody,
  type AudienceActResult,
  type OAuthProvider,
  type TestModeStatus,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { PlatformTestModeConfig } from '../auth/config.ts';

const CONTROL_TIMEOUT_MS = 5000;
const NOT_LISTENING =
  'OnAir is not reading this channel right now: its chat reaches the studio while the broadcast is live, its events a few seconds after the destination is connected.';

export interface TestModeAudienceDeps {
  db: Db;
  logger: Logger;
  /** The loopback control addresses of the doubles (PLATFORM_TEST_MODE). */
  doubles: PlatformTestModeConfig;
  /** The platforms in test mode that this server offers (their client is configured). */
  platforms: ReadonlySet<OAuthProvider>;
}

/**
 * The test-mode control panel's server side: a viewer of a destination's test-mode channel chats,
 * follows, subscribes, raids, cheers, sends a Super Chat or comments, through the control address
 * of the platform's double. The double then delivers it over the same protocol the real platform
 * uses (IRC, EventSub, live chat polling, comment stream), so what OnAir shows is what it would
 * show of the real platform. Only for platforms in test mode; the route checks the project role.
 */
export class TestModeAudience {
  constructor(private readonly deps: TestModeAudienceDeps) {}

  status(): TestModeStatus {
    return { platforms: [...this.deps.platforms] };
  }

  async act(projectId: string, body: AudienceActBody): Promise<AudienceActResult> {
    const row = await this.deps.db.destination.findUnique({ where: { id: body.destinationId } });
    if (!row || row.projectId !== projectId) throw new OnAirError('NOT_FOUND', 'This destination is not in this project.');
    const kind = destinationKinds[row.type];
    const provider = kind.oauthProvider;
    if (!provider || !this.deps.platforms.has(provider))
      throw new OnAirError('TEST_MODE_OFF', `${kind.label} is not in test mode on this server: its audience is real.`);
    if (!audienceActsByPlatform[provider].includes(body.act.kind)) {
      throw new OnAirError('VALIDATION_FAILED', `A ${ACT_NAMES[body.act.kind]} is not something a ${kind.label} viewer can do.`, {
        where: 'body',
        rule: 'act-platform',
      });
    }
    if (!row.platformAccountId || !row.accessTokenEnc)
      throw new OnAirError('DESTINATION_AUTH_REQUIRED', `Connect this ${kind.label} destination first: its channel exists once you authorize it.`);
    const result = await this.dispatch(provider, row.platformAccountId, (row.username ?? '').toLowerCase().replace(/[^a-z0-9_]/g, ''), body.act);
    this.deps.logger.info({ projectId, destinationId: row.id, act: body.act.kind, received: result.received }, 'test-mode audience act');
    return result;
  }

  private async dispatch(provider: OAuthProvider, accountId: string, channel: string, act: AudienceAct): Promise<AudienceActResult> {
    const d = this.deps.doubles;
    const heard = (received: boolean): AudienceActResult => ({ received, note: received ? null : NOT_LISTENING });
    if (provider === 'twitch' && d.twitch) {
      if (act.kind === 'chat') {
        const listeners = await control<string[]>(d.twitch.chat, 'joined', { channel });
        await control(d.twitch.chat, 'say', {
          channel,
          login: act.viewer.toLowerCase().replace(/[^a-z0-9_]/g, '_'),
          displayName: act.viewer.replace(/ /g, '_'),
          text: act.text,
        });
        return heard(listeners.length > 0);
      }
      if (act.kind === 'superChat') throw new OnAirError('VALIDATION_FAILED', 'Twitch viewers chat, follow, subscribe, raid and cheer.');
      const { delivered } = await control<{ delivered: number }>(d.twitch.events, 'audience', { broadcasterId: accountId, act });
      return heard(delivered > 0);
    }
    if (provider === 'youtube' && d.youtube) {
      // This channel's own live chat: another test-mode channel's viewers are in another one.
      if (!(await control<boolean>(d.youtube.chat, 'live', { channel: accountId })))
        throw new OnAirError('TEST_MODE_NOT_LIVE', 'YouTube has no live chat yet: go live with this destination first.');
      if (act.kind === 'chat') await control(d.youtube.chat, 'post', { channel: accountId, displayName: act.viewer, text: act.text });
      else if (act.kind === 'superChat') {
        await control(d.youtube.chat, 'post-event', {
          channel: accountId,
          displayName: act.viewer,
          eventType: 'superChatEvent',
          details: { superChatDetails: { amountMicros: Math.round(act.amount * 1_000_000), currency: act.currency, userComment: act.message, tier: 1 } },
          displayMessage: `${act.currency} ${act.amount.toFixed(2)}${act.message ? `: ${act.message}` : ''}`,
        });
      } else throw new OnAirError('VALIDATION_FAILED', 'YouTube viewers chat and send Super Chats.');
      // The connector polls the live chat: it reads the message at its next poll.
      return heard(true);
    }
    if (provider === 'facebook' && d.facebook && act.kind === 'chat') {
      // The comments of this account's own live video.
      const streams = await control<number>(d.facebook.chat, 'streams', { owner: accountId });
      await control(d.facebook.chat, 'comment', { owner: accountId, name: act.viewer, text: act.text });
      return heard(streams > 0);
    }
    throw new OnAirError('TEST_MODE_OFF');
  }
}

const ACT_NAMES: Record<AudienceAct['kind'], string> = {
  chat: 'chat message',
  follow: 'follow',
  sub: 'subscription',
  raid: 'raid',
  cheer: 'cheer',
  superChat: 'Super Chat',
};

/** One call to a double's control address (loopback, `POST /_double/<action>`). */
async function control<T = unknown>(base: string, action: string, body: Record<string, unknown> = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${base}/_double/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CONTROL_TIMEOUT_MS),
    });
  } catch {
    throw new OnAirError('TEST_MODE_DOUBLE_UNAVAILABLE');
  }
  if (!res.ok) throw new OnAirError('TEST_MODE_DOUBLE_UNAVAILABLE', undefined, { action, status: res.status });
  return ((await res.json()) as { result: T }).result;
}
