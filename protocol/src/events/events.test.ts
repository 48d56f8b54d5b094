import { describe, expect, it } from 'vitest';
import { formatEventTime, listEventsEndpoint, liveEventSchema } from './events.ts';

const now = new Date('2026-11-25T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const DAY = 86_400_000;

describe('event time display (studio spec §9)', () => {
  it('shows the clock time under 24 hours, then days up to 31, months up to a year, then years', () => {
    expect(formatEventTime(ago(5 * 60_000), now, 'en-GB')).toBe(
      new Date(now.getTime() - 5 * 60_000).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' }),
    );
    expect(formatEventTime(ago(DAY - 1), now, 'en-GB')).toMatch(/^\d\d:\d\d$/);
    expect(formatEventTime(ago(DAY), now)).toBe('1d');
    expect(formatEventTime(ago(31 * DAY), now)).toBe('31d');
    expect(formatEventTime(ago(32 * DAY), now)).toBe('1m');
    expect(formatEventTime(ago(200 * DAY), now)).toBe('6m');
    expect(formatEventTime(ago(365 * DAY), now)).toBe('12m');
    expect(formatEventTime(ago(366 * DAY), now)).toBe('1y');
    expect(formatEventTime(ago(3 * 366 * DAY), now)).toBe('3y');
  });
});

describe('event contracts', () => {
  it('keeps the type open but refuses markup as a type, and reads the type filter as a list', () => {
    const base = {
      id: '00000000-0000-4000-8000-000000000001',
      projectId: '00000000-0000-4000-8000-000000000002',
      platform: 'twitch',
      platformUsername: '<b>x</b>',
      platformCreatedAt: now.toISOString(),
      avatar: null,
      value: null,
      data: {},
    };
    expect(liveEventSchema.safeParse({ ...base, type: 'mysteryBox' }).success).toBe(true);
    expect(liveEventSchema.safeParse({ ...base, type: '<script>' }).success).toBe(false);
    const query = listEventsEndpoint.query!.parse({ types: 'follow, sub,,tip' });
    expect(query).toEqual({ types: ['follow', 'sub', 'tip'], others: false, limit: 50 });
  });
});

describe('alert text (partner spec §3 alert variables)', () => {
  it('fills each type’s variables from the event, leaves unknown ones as written, and keeps markup as text', async () => {
    const { alertValues, renderAlertText, DEFAULT_ALERT_SETTINGS } = await import('./alerts.ts');
    const ev = (type: string, platformUsername: string, value: number | null, data: Record<string, unknown> = {}) => ({ type, platformUsername, value, data });
    expect(renderAlertText(DEFAULT_ALERT_SETTINGS.follow.message, alertValues(ev('follow', '<b>Ada</b>', null)))).toBe('<b>Ada</b> just followed!');
    expect(renderAlertText(DEFAULT_ALERT_SETTINGS.resub.message, alertValues(ev('resub', 'Bo', 7)))).toBe('Bo resubscribed for 7 months!');
    expect(
      renderAlertText('{gifter} gave {count} subs', alertValues(ev('sub', 'Cy', 5, { gifted: true, gifter: { platformUsername: 'Cy' }, giftCount: 5 }))),
    ).toBe('Cy gave 5 subs');
    expect(renderAlertText('{recipient} got a sub', alertValues(ev('sub', 'Di', null, { gifted: true })))).toBe('Di got a sub');
    expect(renderAlertText(DEFAULT_ALERT_SETTINGS.twitchRaid.message, alertValues(ev('twitchRaid', 'Ed', 321)))).toBe('Ed is raiding with 321 viewers!');
    expect(renderAlertText(DEFAULT_ALERT_SETTINGS.twitchCheer.message, alertValues(ev('twitchCheer', 'Fi', 100)))).toBe('Fi cheered 100 bits!');
    expect(renderAlertText('{tipper} tipped {amount}: {message}', alertValues(ev('tip', 'Gu', 5, { currency: 'EUR', message: 'hi' })))).toBe(
      'Gu tipped €5.00: hi',
    );
    expect(
      renderAlertText(DEFAULT_ALERT_SETTINGS.charity.message, alertValues(ev('charity', 'Ha', 12.5, { currency: 'USD', charityName: 'Good Cause' }))),
    ).toBe('Ha donated $12.50 to Good Cause!');
    expect(renderAlertText('{follower} {nope} {toString}', alertValues(ev('follow', 'Io', null)))).toBe('Io {nope} {toString}');
  });
});
