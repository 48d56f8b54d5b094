import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  ALERTS_OVERLAY_PATH,
  alertChannels,
  alertEventTypeNames,
  alertEventTypes,
  alertSettingSchema,
  alertSoundChosen,
  alertValues,
  DEFAULT_ALERT_SETTINGS,
  OnAirError,
  renderAlertText,
  alertPlaySchema,
  type AlertEventType,
  type AlertNotice,
  type AlertPlay,
  type AlertSettings,
  type LiveEvent,
  type UploadPurpose,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { UploadUseCheck } from '../uploads/upload-service.ts';
import type { Logger } from '@onair/runtime';
import { PageKey } from '../http/signed-page.ts';

const ALERT_LOG_MAX = 200;
const ALERT_LOG_TTL_MS = 3_600_000;

/** The made-up event a test alert plays. */
const SAMPLES: Record<AlertEventType, Pick<LiveEvent, 'type' | 'platformUsername' | 'value' | 'data'>> = {
  follow: { type: 'follow', platformUsername: 'TestFollower', value: null, data: {} },
  sub: { type: 'sub', platformUsername: 'TestSubscriber', value: null, data: {} },
  resub: { type: 'resub', platformUsername: 'TestSubscriber', value: 12, data: { message: 'A year already!' } },
  twitchRaid: { type: 'twitchRaid', platformUsername: 'TestRaider', value: 42, data: {} },
  twitchCheer: { type: 'twitchCheer', platformUsername: 'TestCheerer', value: 100, data: { message: 'Cheer100' } },
  tip: { type: 'tip', platformUsername: 'TestTipper', value: 5, data: { currency: 'USD', message: 'Great stream!' } },
  charity: { type: 'charity', platformUsername: 'TestDonor', value: 10, data: { currency: 'USD', charityName: 'A Good Cause' } },
};

/**
 * On-screen alerts: a project's settings (defaults until saved), the alert each new event plays,
 * published on the project's alerts channel for its overlay page, the test button's sample, and the
 * overlay page's key (an HMAC of the project id: the page is opened by the render worker, which
 * has no session, so the address itself is the credential).
 */
export class AlertsService {
  private readonly pageKey: PageKey;

  constructor(
    private readonly deps: {
      db: Db;
      redis: Redis;
      logger: Logger;
      publicUrl: string;
      secret: string /** Signs the address for the studio's render worker (own-page-urls.ts). */;
      signForStudio?: (url: string) => string;
    },
  ) {
    this.pageKey = new PageKey(deps.secret, 'alerts-overlay');
  }

  overlayKey(projectId: string): string {
    return this.pageKey.of(projectId);
  }

  checkKey(projectId: string, key: unknown): boolean {
    return this.pageKey.check(projectId, key);
  }

  overlayUrl(projectId: string): string {
    const url = new URL(ALERTS_OVERLAY_PATH.replace(':projectId', projectId), this.deps.publicUrl);
    url.searchParams.set('key', this.overlayKey(projectId));
    // The studio adds this address as a browser source: signed, so the render worker may load it on a private origin.
    return this.deps.signForStudio ? this.deps.signForStudio(url.toString()) : url.toString();
  }

  /** The saved settings over the defaults: a type saved before a field existed keeps the default of that field. */
  async settings(projectId: string): Promise<AlertSettings> {
    const row = await this.deps.db.alertSettings.findUnique({ where: { projectId } });
    const saved = (row?.settings ?? {}) as Record<string, unknown>;
    const out = { ...DEFAULT_ALERT_SETTINGS };
    for (const type of alertEventTypes) {
      const merged = alertSettingSchema.safeParse({ ...DEFAULT_ALERT_SETTINGS[type], ...((saved[type] as object | undefined) ?? {}) });
      if (merged.success) out[type] = merged.data;
    }
    return out;
  }

  /** Why this upload may not be deleted: the alerts whose sound it is (the uploads service asks before a delete). */
  readonly soundInUse: UploadUseCheck = async (projectId, uploadId) => {
    const settings = await this.settings(projectId);
    const types = alertEventTypes.filter((t) => settings[t].sound === 'upload' && settings[t].soundUploadId === uploadId);
    if (types.length === 0) return undefined;
    const names = types.map((t) => alertEventTypeNames[t]).join(', ');
    return {
      message: `This sound plays with the ${names} alert${types.length > 1 ? 's' : ''}. Choose another sound there first.`,
      details: { alerts: types },
    };
  };

  async view(projectId: string): Promise<{ settings: AlertSettings; overlayUrl: string }> {
    return { settings: await this.settings(projectId), overlayUrl: this.overlayUrl(projectId) };
  }

  async update(projectId: string, settings: AlertSettings): Promise<{ settings: AlertSettings; overlayUrl: string }> {
    await this.checkSounds(projectId, settings);
    await this.deps.db.alertSettings.upsert({ where: { projectId }, create: { projectId, settings }, update: { settings } });
    return this.view(projectId);
  }

  /** An uploaded sound must be chosen when `upload` is, and be one of this project's alert sounds. */
  private async checkSounds(projectId: string, settings: AlertSettings): Promise<void> {
    const named = new Set<string>();
    for (const type of alertEventTypes) {
      const s = settings[type];
      if (!alertSoundChosen(s)) throw new OnAirError('VALIDATION_FAILED', 'Choose one of your sounds, or a built-in one.', { field: `${type}.soundUploadId` });
      if (s.sound === 'upload' && s.soundUploadId) named.add(s.soundUploadId);
    }
    if (named.size === 0) return;
    const found = await this.deps.db.upload.findMany({
      where: { id: { in: [...named] }, projectId, purpose: 'alert-sound' satisfies UploadPurpose },
      select: { id: true },
    });
    if (found.length !== named.size)
      throw new OnAirError('VALIDATION_FAILED', 'This sound is not one of the sounds uploaded to this project. Upload it again.');
  }

  private play(
    type: AlertEventType,
    event: Pick<LiveEvent, 'type' | 'platformUsername' | 'value' | 'data'>,
    settings: AlertSettings,
    id: string,
    test: boolean,
  ): AlertPlay {
    const s = settings[type];
    return {
      id,
      type,
      text: renderAlertText(s.message, alertValues(event)),
      imageUrl: s.imageUrl,
      animation: s.animation,
      sound: s.sound,
      soundUploadId: s.sound === 'upload' ? s.soundUploadId : null,
      durationMs: s.durationMs,
      test,
    };
  }

  /**
   * Logged (a Redis stream of the last ALERT_LOG_MAX, kept an hour) then announced: an overlay whose
   * connection dropped asks for what came after the last one it played, so none is lost.
   */
  private async publish(projectId: string, alerts: AlertPlay[]): Promise<void> {
    const log = alertChannels.log(projectId);
    for (const alert of alerts) {
      const logId = await this.deps.redis.xadd(log, 'MAXLEN', '~', String(ALERT_LOG_MAX), '*', 'alert', JSON.stringify(alert));
      await this.deps.redis.pexpire(log, ALERT_LOG_TTL_MS);
      await this.deps.redis.publish(alertChannels.project(projectId), JSON.stringify({ logId, alert }));
    }
  }

  /** The alerts logged after `afterId`, oldest first (an overlay resuming after a dropped connection). */
  async since(projectId: string, afterId: string): Promise<AlertNotice[]> {
    const entries = await this.deps.redis.xrange(alertChannels.log(projectId), `(${afterId}`, '+', 'COUNT', ALERT_LOG_MAX);
    const out: AlertNotice[] = [];
    for (const [logId, fields] of entries) {
      const raw = fields[fields.indexOf('alert') + 1];
      const parsed = raw ? alertPlaySchema.safeParse(JSON.parse(raw)) : null;
      if (parsed?.success) out.push({ logId, alert: parsed.data });
    }
    return out;
  }

  /** New events of the feed: each type whose alert is on plays, in the order they came. */
  async onEvents(projectId: string, events: LiveEvent[]): Promise<void> {
    const types = new Set<string>(alertEventTypes);
    const candidates = events.filter((e) => types.has(e.type));
    if (candidates.length === 0) return;
    const settings = await this.settings(projectId);
    const plays = candidates
      .filter((e) => settings[e.type as AlertEventType].enabled)
      .map((e) => this.play(e.type as AlertEventType, e, settings, e.id, false));
    await this.publish(projectId, plays);
  }

  /** The studio's test button: the type's alert with made-up values, even while that alert is off. */
  async test(projectId: string, type: AlertEventType): Promise<AlertPlay> {
    const alert = this.play(type, SAMPLES[type], await this.settings(projectId), `test-${randomUUID()}`, true);
    await this.publish(projectId, [alert]);
    this.deps.logger.info({ projectId, type }, 'test alert sent');
    return alert;
  }
}
