// The Chatbot page's api (issue 22): every section saved and read back, the limits of partner spec
// §3/§9 refused with words, the 14-day timeout cap, banned-word patterns RE2 cannot run, and the
// Chatbot permission groups of collaborators checked on the server section by section.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXTRAS, DEFAULT_FILTERS, DEFAULT_LOYALTY, TIMEOUT_TOO_LONG, type ChatbotConfig } from '@onair/protocol';
import { collaboratorWith, linkTwitch } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let owner: TestUser;
const base = (u: TestUser) => `/api/v1/partner/channels/${u.id}/chatbot`;
const errorOf = (res: { body: unknown }) => (res.body as { error: { code: string; message: string } }).error;

beforeAll(async () => {
  // No bot runs here (chatbot-bot.test.ts runs them): the health seen is the page's own reading.
  api = await startStudioApi({ env: { CHATBOT_RUNNERS: 'false' } });
  owner = await createTestUser(api);
});
afterAll(async () => {
  await api?.close();
});

describe('commands', () => {
  it('are created, listed, changed and removed; names compare without case', async () => {
    const made = await call(api, owner, 'POST', `${base(owner)}/commands`, { command: 'Discord', message: 'Join us: {url}', userCooldownSeconds: 60 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      command: '!Discord',
      permission: 'everyone',
      globalCooldownSeconds: 5,
      userCooldownSeconds: 60,
      count: 0,
      platforms: ['twitch'],
    });
    const id = (made.body as { id: string }).id;
    expect(errorOf(await call(api, owner, 'POST', `${base(owner)}/commands`, { command: '!discord', message: 'again' }))).toMatchObject({
      code: 'CHATBOT_COMMAND_TAKEN',
    });
    const changed = await call(api, owner, 'PUT', `${base(owner)}/commands/${id}`, {
      command: '!discord',
      message: 'New text',
      permission: 'regular',
      pointCost: 25,
    });
    expect(changed).toMatchObject({ status: 200, body: { command: '!discord', permission: 'regular', pointCost: 25 } });
    const page = (await call(api, owner, 'GET', base(owner))).body as ChatbotConfig;
    expect(page.commands.map((c) => c.command)).toEqual(['!discord']);
    expect((await call(api, owner, 'DELETE', `${base(owner)}/commands/${id}`)).status).toBe(204);
    expect(errorOf(await call(api, owner, 'DELETE', `${base(owner)}/commands/${id}`))).toMatchObject({ code: 'CHATBOT_ITEM_NOT_FOUND' });
  });

  it('refuse a 17- or 500-character name, a message over 480, two words, a negative cost', async () => {
    for (const body of [
      { command: '!abcdefghijklmnop', message: 'x' },
      { command: 'a'.repeat(500), message: 'x' },
      { command: '!ok', message: 'x'.repeat(481) },
      { command: '!two words', message: 'x' },
      { command: '!ok', message: 'x', pointCost: -1 },
      { command: '!ok', message: '   ' },
    ]) {
      const res = await call(api, owner, 'POST', `${base(owner)}/commands`, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
    const sixteen = await call(api, owner, 'POST', `${base(owner)}/commands`, { command: '!abcdefghijklmno', message: 'x'.repeat(480) });
    expect(sixteen.status).toBe(201);
    const long = await call(api, owner, 'POST', `${base(owner)}/commands`, { command: '!a', message: 'x'.repeat(481) });
    expect(errorOf(long).message).toMatch(/480 characters or fewer/);
  });
});

describe('sections', () => {
  it('quotes get numbers that are never reused, with their date; the author is at most 32 characters', async () => {
    const q1 = await call(api, owner, 'POST', `${base(owner)}/quotes`, { message: 'First!', author: 'Ada' });
    const q2 = await call(api, owner, 'POST', `${base(owner)}/quotes`, { message: 'Second', author: 'Bo' });
    expect([q1.status, q2.status]).toEqual([201, 201]);
    expect((q1.body as { number: number }).number).toBe(1);
    expect((q2.body as { createdAt: string }).createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await call(api, owner, 'DELETE', `${base(owner)}/quotes/${(q2.body as { id: string }).id}`)).status).toBe(204);
    expect((await call(api, owner, 'POST', `${base(owner)}/quotes`, { message: 'Third', author: 'Cy' })).body).toMatchObject({ number: 3 });
    expect((await call(api, owner, 'POST', `${base(owner)}/quotes`, { message: 'x', author: 'a'.repeat(33) })).status).toBe(400);
  });

  it('warning levels: a timeout over 14 days is refused with words; a ban of any length is fine', async () => {
    const tooLong = await call(api, owner, 'PUT', `${base(owner)}/warning-levels`, {
      levels: [{ warnings: 3, action: 'timeout', duration: 15, unit: 'days' }],
    });
    expect(tooLong.status).toBe(400);
    expect(errorOf(tooLong).message).toContain(TIMEOUT_TOO_LONG);
    expect(
      (await call(api, owner, 'PUT', `${base(owner)}/warning-levels`, { levels: [{ warnings: 3, action: 'timeout', duration: 1, unit: 'months' }] })).status,
    ).toBe(400);
    const ok = await call(api, owner, 'PUT', `${base(owner)}/warning-levels`, {
      levels: [
        { warnings: 3, action: 'timeout', duration: 2, unit: 'weeks' },
        { warnings: 5, action: 'ban', duration: 6, unit: 'months' },
      ],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((ok.body as ChatbotConfig).warningLevels).toHaveLength(2);
  });

  it('filters: a pattern RE2 cannot run is refused; a catastrophic one is taken (it runs in linear time)', async () => {
    const filters = structuredClone(DEFAULT_FILTERS);
    filters.bannedWords = { enabled: true, punishment: 'remove-notice-warn', patterns: ['(\\w+)\\s\\1'] };
    const refused = await call(api, owner, 'PUT', `${base(owner)}/filters`, filters);
    expect(refused.status).toBe(422);
    expect(errorOf(refused)).toMatchObject({ code: 'CHATBOT_PATTERN_INVALID' });
    expect(errorOf(refused).message).toMatch(/is not a pattern the filter can run/);
    filters.bannedWords.patterns = ['(a+)+$', 'bad\\s*word'];
    const saved = await call(api, owner, 'PUT', `${base(owner)}/filters`, filters);
    expect(saved.status).toBe(200);
    expect((saved.body as ChatbotConfig).filters.bannedWords.patterns).toEqual(['(a+)+$', 'bad\\s*word']);
  });

  it('extras and loyalty saved without the fields that came later (rank commands, their cooldown, Regulars promotion) take their defaults; out-of-range values are refused', async () => {
    const extras = await call(api, owner, 'PUT', `${base(owner)}/extras`, { permitCommand: false, quoteCommands: true, pointsCommand: true });
    expect(extras.status, JSON.stringify(extras.body)).toBe(200);
    expect((extras.body as ChatbotConfig).extras).toEqual({
      permitCommand: false,
      quoteCommands: true,
      pointsCommand: true,
      rankCommands: true,
      statsUserCooldownSeconds: 30,
    });
    expect((await call(api, owner, 'PUT', `${base(owner)}/extras`, { ...DEFAULT_EXTRAS, statsUserCooldownSeconds: 3601 })).status).toBe(400);
    const { regulars: _omitted, ...older } = structuredClone(DEFAULT_LOYALTY);
    const loyalty = await call(api, owner, 'PUT', `${base(owner)}/loyalty`, { ...older, program: 'regulars' });
    expect(loyalty.status, JSON.stringify(loyalty.body)).toBe(200);
    expect((loyalty.body as ChatbotConfig).loyalty.regulars).toEqual({ autoPromote: false, hoursWatched: 10 });
    expect((await call(api, owner, 'PUT', `${base(owner)}/loyalty`, { ...DEFAULT_LOYALTY, regulars: { autoPromote: true, hoursWatched: 0 } })).status).toBe(
      400,
    );
    expect((await call(api, owner, 'GET', base(owner))).body).toMatchObject({ connection: { notices: [] } });
  });

  it('loyalty takes only the points intervals of §9; ranks, alerts, timers, extras, moderation save', async () => {
    const loyalty = structuredClone(DEFAULT_LOYALTY);
    loyalty.program = 'points';
    loyalty.points.whileViewing.intervalMinutes = 45;
    expect((await call(api, owner, 'PUT', `${base(owner)}/loyalty`, loyalty)).status).toBe(200);
    expect(
      (
        await call(api, owner, 'PUT', `${base(owner)}/loyalty`, {
          ...loyalty,
          points: { ...loyalty.points, whileViewing: { enabled: true, amount: 1, intervalMinutes: 10 } },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(api, owner, 'PUT', `${base(owner)}/ranks`, {
          ranks: [
            { name: 'Lurker', hoursWatched: 0 },
            { name: 'Legend', hoursWatched: 100 },
          ],
        })
      ).status,
    ).toBe(200);
    expect((await call(api, owner, 'PUT', `${base(owner)}/timer-settings`, { intervalMinutes: 20, onlyWhileLive: true, minChatLines: 10 })).status).toBe(200);
    expect((await call(api, owner, 'POST', `${base(owner)}/timers`, { name: 'Socials', message: 'Follow on {url}' })).status).toBe(201);
    expect((await call(api, owner, 'POST', `${base(owner)}/regulars`, { username: 'SomeRegular' })).status).toBe(201);
    expect(errorOf(await call(api, owner, 'POST', `${base(owner)}/regulars`, { username: 'someregular' }))).toMatchObject({ code: 'CHATBOT_USER_LISTED' });
    expect((await call(api, owner, 'POST', `${base(owner)}/ignored-users`, { username: 'a'.repeat(42) })).status).toBe(400);
    expect((await call(api, owner, 'POST', `${base(owner)}/ignored-users`, { username: 'Nightbot' })).status).toBe(201);
    const page = (await call(api, owner, 'GET', base(owner))).body as ChatbotConfig;
    expect(page.loyalty.points.whileViewing.intervalMinutes).toBe(45);
    expect(page.ranks.map((r) => r.name)).toEqual(['Lurker', 'Legend']);
    expect(page.timerSettings).toEqual({ intervalMinutes: 20, onlyWhileLive: true, minChatLines: 10 });
    expect(page.regulars.map((r) => r.username)).toEqual(['someregular']);
    expect(page.ignoredUsers.map((r) => r.username)).toEqual(['nightbot']);
    expect(page.alerts.follow.message).toContain('{follower}');
  });
});

describe('connection health', () => {
  it('is disabled until turned on, needs a linked Twitch account, then pending; a second channel on the same chat is a duplicate', async () => {
    const creator = await createTestUser(api);
    expect((await call(api, creator, 'GET', base(creator))).body).toMatchObject({ connection: { enabled: false, health: 'disabled', twitchLogin: null } });
    expect(errorOf(await call(api, creator, 'PUT', `${base(creator)}/connection`, { enabled: true }))).toMatchObject({ code: 'CHATBOT_NO_TWITCH' });
    const login = `bot${creator.id.slice(0, 8)}`;
    await linkTwitch(api, creator, login);
    expect((await call(api, creator, 'PUT', `${base(creator)}/connection`, { enabled: true })).body).toMatchObject({
      enabled: true,
      health: 'pending',
      twitchLogin: login,
    });
    const twin = await createTestUser(api);
    await linkTwitch(api, twin, login);
    expect((await call(api, twin, 'PUT', `${base(twin)}/connection`, { enabled: true })).body).toMatchObject({ health: 'duplicate' });
    await api.redis.set(`onair:chatbot:state:${creator.id}`, JSON.stringify({ state: 'connected' }), 'PX', 5000);
    expect((await call(api, creator, 'GET', base(creator))).body).toMatchObject({ connection: { health: 'healthy' } });
    await api.redis.set(
      `onair:chatbot:state:${creator.id}`,
      JSON.stringify({ state: 'error', error: 'The bot is not a moderator of this channel.' }),
      'PX',
      5000,
    );
    expect((await call(api, creator, 'GET', base(creator))).body).toMatchObject({
      connection: { health: 'unhealthy', reason: 'The bot is not a moderator of this channel.' },
    });
    expect((await call(api, creator, 'PUT', `${base(creator)}/connection`, { enabled: false })).body).toMatchObject({ health: 'disabled' });
  });
});

describe('collaborators with Chatbot groups', () => {
  it('edit exactly the sections their groups allow', async () => {
    const chat = await collaboratorWith(api, owner, ['chatbot.chat']);
    const moderation = await collaboratorWith(api, owner, ['chatbot.moderation']);
    const loyalty = await collaboratorWith(api, owner, ['chatbot.loyalty']);
    const filters = structuredClone(DEFAULT_FILTERS);
    const cases: [TestUser, string, string, unknown, boolean][] = [
      [chat.user, 'POST', 'commands', { command: '!bychat', message: 'hi' }, true],
      [chat.user, 'PUT', 'filters', filters, false],
      [chat.user, 'POST', 'regulars', { username: 'reg_by_chat' }, false],
      [moderation.user, 'PUT', 'filters', filters, true],
      [moderation.user, 'POST', 'ignored-users', { username: 'ignored_by_mod' }, true],
      [moderation.user, 'POST', 'commands', { command: '!bymod', message: 'hi' }, false],
      [loyalty.user, 'POST', 'regulars', { username: 'reg_by_loyalty' }, true],
      [loyalty.user, 'PUT', 'timer-settings', { intervalMinutes: 5, onlyWhileLive: false, minChatLines: 0 }, false],
      [chat.user, 'PUT', 'connection', { enabled: false }, false],
    ];
    for (const [user, method, path, body, allowed] of cases) {
      const res = await call(api, user, method, `${base(owner)}/${path}`, body);
      if (allowed) expect(res.status, `${method} ${path}`).toBeLessThan(300);
      else {
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(errorOf(res).message).toMatch(/^Your access to this channel does not include/);
      }
    }
    // Every collaborator can see the page.
    expect((await call(api, loyalty.user, 'GET', base(owner))).status).toBe(200);
  });
});
