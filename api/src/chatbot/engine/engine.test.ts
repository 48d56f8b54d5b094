import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CHATBOT_ALERTS,
  DEFAULT_EXTRAS,
  DEFAULT_FILTERS,
  DEFAULT_LINK_PREVIEW,
  DEFAULT_LOYALTY,
  DEFAULT_MODERATION,
  type ChatSegment,
} from '@onair/protocol';
import {
  BotEngine,
  eventReward,
  rankWords,
  watchedWords,
  type BotActions,
  type BotConfig,
  type BotData,
  type BotMemory,
  type BotMessage,
  type GuardState,
} from './engine.ts';
import { bannedWordError } from './filters.ts';
import { renderTemplate } from './template.ts';

function config(overrides: Partial<BotConfig> = {}): BotConfig {
  return {
    channelLogin: 'ada',
    commands: [],
    timers: [],
    timerSettings: { intervalMinutes: 10, onlyWhileLive: true, minChatLines: 3 },
    filters: structuredClone(DEFAULT_FILTERS),
    warningLevels: [{ warnings: 3, action: 'timeout', duration: 10, unit: 'minutes' }],
    moderation: structuredClone(DEFAULT_MODERATION),
    ignored: new Set(),
    regulars: new Set(),
    alerts: structuredClone(DEFAULT_CHATBOT_ALERTS),
    loyalty: structuredClone(DEFAULT_LOYALTY),
    ranks: [],
    extras: DEFAULT_EXTRAS,
    linkPreview: DEFAULT_LINK_PREVIEW,
    raffle: null,
    raffleNews: false,
    ...overrides,
  };
}

class Fakes {
  now = Date.UTC(2026, 10, 25, 12);
  live = true;
  said: string[] = [];
  previewed: string[] = [];
  deleted: string[] = [];
  timeouts: { userId: string; seconds: number }[] = [];
  bans: string[] = [];
  restricted: unknown[] = [];
  purged: string[][] = [];
  rewards = new Map<string, { login: string; points: number }>();
  /** What Redis holds in a replica (cooldowns, permits, the guard); shared by two engines, it is a takeover. */
  store = {
    values: new Map<string, number>(),
    guard: { armedUntil: 0, activeUntil: 0 } as GuardState,
    first: [] as { at: number; userId: string; messageId: string }[],
    purged: new Set<string>(),
  };
  points = new Map<string, number>();
  watched = new Map<string, number>();
  warnings = new Map<string, number>();
  counts = new Map<string, number>();
  quotes: { number: number; message: string; author: string; createdAt: Date }[] = [];
  claimed = new Set<string>();
  regulars = new Set<string>();
  /** Twitch's chatters list; null: Twitch refuses it. */
  chatters: { userId: string; login: string }[] | null = null;
  actions: BotActions = {
    say: async (t) => void this.said.push(t),
    previewLink: (messageId, href) => void this.previewed.push(href),
    deleteMessage: async (id) => void this.deleted.push(id),
    timeout: async (userId, seconds) => void this.timeouts.push({ userId, seconds }),
    ban: async (userId) => void this.bans.push(userId),
    restrictChat: async (s) => void this.restricted.push(s),
    purge: (ids) => void this.purged.push([...ids]),
  };
  memory: BotMemory = {
    cooling: async (keys, now) => keys.some((k) => (this.store.values.get(`c:${k}`) ?? 0) > now),
    cool: async (entries) => {
      for (const e of entries) this.store.values.set(`c:${e.key}`, e.until);
    },
    permit: async (login, until) => void this.store.values.set(`p:${login}`, until),
    permitted: async (login, now) => (this.store.values.get(`p:${login}`) ?? -1) >= now,
    guard: async () => ({ ...this.store.guard }),
    setGuard: async (state) => void Object.assign(this.store.guard, state),
    firstTimer: async (entry, since) => {
      this.store.first = [...this.store.first.filter((f) => f.at >= since), entry];
      return this.store.first.map(({ userId, messageId }) => ({ userId, messageId }));
    },
    clearFirstTimers: async () => void (this.store.first = []),
    unpurged: async (ids) => ids.filter((id) => !this.store.purged.has(id) && this.store.purged.add(id)),
    clearPurged: async () => this.store.purged.clear(),
  };
  data: BotData = {
    countUse: async (id) => this.counts.set(id, (this.counts.get(id) ?? 0) + 1).get(id)!,
    spendPoints: async (userId, _login, cost) => {
      const have = this.points.get(userId) ?? 0;
      if (have < cost) return { spent: false, balance: have };
      this.points.set(userId, have - cost);
      return { spent: true, balance: have - cost };
    },
    points: async (userId) => this.points.get(userId) ?? 0,
    watched: async (userId) => this.watched.get(userId) ?? 0,
    viewers: async () => this.chatters,
    promoteRegulars: async (seconds) => {
      const logins = [...this.watched].filter(([id, s]) => s >= seconds && !this.regulars.has(id)).map(([id]) => id.replace(/^u-/, ''));
      for (const l of logins) this.regulars.add(`u-${l}`);
      return logins;
    },
    reward: async (key, _kind, login, points) => {
      if (this.rewards.has(key)) return false;
      this.rewards.set(key, { login, points });
      return true;
    },
    enterRaffle: async () => ({ entered: true, tickets: 1 }),
    drawRaffle: async () => undefined,
    raffleNews: async () => [],
    warn: async (userId) => this.warnings.set(userId, (this.warnings.get(userId) ?? 0) + 1).get(userId)!,
    addQuote: async (message, author) => {
      const q = { number: this.quotes.length + 1, message, author, createdAt: new Date(this.now) };
      this.quotes.push(q);
      return q;
    },
    quote: async (n) => this.quotes.find((q) => q.number === n) ?? null,
    accrue: async (entries) => {
      for (const e of entries) {
        this.points.set(e.userId, (this.points.get(e.userId) ?? 0) + e.points);
        this.watched.set(e.userId, (this.watched.get(e.userId) ?? 0) + e.seconds);
      }
    },
    channelInfo: async () => ({ title: 'Speedrun {user} night', game: 'Celeste' }),
    isLive: async () => this.live,
    claim: async (id) => (this.claimed.has(id) ? false : (this.claimed.add(id), true)),
  };
  engine(c: BotConfig): BotEngine {
    return new BotEngine(c, {
      actions: this.actions,
      data: this.data,
      memory: this.memory,
      now: () => this.now,
      onError: (err) => {
        throw err;
      },
    });
  }
}

let seq = 0;
function msg(login: string, text: string, extra: Partial<BotMessage> = {}): BotMessage {
  return {
    id: `m${++seq}`,
    userId: `u-${login}`,
    login,
    displayName: login,
    text,
    segments: [{ kind: 'text', value: text }],
    roles: { broadcaster: false, moderator: false, vip: false, subscriber: false },
    firstMessage: false,
    ...extra,
  };
}

const command = (over: Partial<BotConfig['commands'][number]> = {}) => ({
  id: 'c1',
  command: '!hello',
  message: 'Hello {user}!',
  permission: 'everyone' as const,
  replyToSender: false,
  pointCost: 0,
  globalCooldownSeconds: 30,
  userCooldownSeconds: 0,
  enabled: true,
  ...over,
});

describe('commands', () => {
  it('answers once per global cooldown and once per user cooldown', async () => {
    const f = new Fakes();
    const bot = f.engine(config({ commands: [command({ globalCooldownSeconds: 30, userCooldownSeconds: 120 })] }));
    await bot.onMessage(msg('bo', '!hello'));
    await bot.onMessage(msg('cy', '!HELLO'));
    expect(f.said).toEqual(['Hello bo!']);
    f.now += 31_000;
    await bot.onMessage(msg('bo', '!hello'));
    expect(f.said).toHaveLength(1);
    await bot.onMessage(msg('cy', '!hello'));
    expect(f.said).toEqual(['Hello bo!', 'Hello cy!']);
  });

  it('fills variables once: args carrying {title} or {{user}} stay text, and the title is not read again', async () => {
    const f = new Fakes();
    const bot = f.engine(config({ commands: [command({ message: '{sender} says {args} | {title} | {count} | {nope}', globalCooldownSeconds: 0 })] }));
    await bot.onMessage(msg('bo', '!hello {title} {{user}} ${process.env}'));
    expect(f.said).toEqual(['bo says {title} {{user}} ${process.env} | Speedrun {user} night | 1 | {nope}']);
    expect(renderTemplate('{args}', { args: 'x'.repeat(1000) })).toHaveLength(480);
    expect(renderTemplate('{constructor}{__proto__}', {})).toBe('{constructor}{__proto__}');
  });

  it('keeps to permission levels, Regulars included, and spends points', async () => {
    const f = new Fakes();
    const loyalty = structuredClone(DEFAULT_LOYALTY);
    loyalty.program = 'points';
    const bot = f.engine(
      config({
        regulars: new Set(['reg']),
        loyalty,
        commands: [
          command({ id: 'r', command: '!reg', message: 'regular ok', permission: 'regular', globalCooldownSeconds: 0 }),
          command({ id: 'p', command: '!hydrate', message: '{user} drinks', pointCost: 50, globalCooldownSeconds: 0 }),
        ],
      }),
    );
    await bot.onMessage(msg('bo', '!reg'));
    await bot.onMessage(msg('reg', '!reg'));
    await bot.onMessage(msg('mo', '!reg', { roles: { broadcaster: false, moderator: true, vip: false, subscriber: false } }));
    expect(f.said).toEqual(['regular ok', 'regular ok']);
    f.said = [];
    await bot.onMessage(msg('bo', '!hydrate'));
    expect(f.said).toEqual(['@bo, !hydrate costs 50 points; you have 0.']);
    f.points.set('u-bo', 70);
    await bot.onMessage(msg('bo', '!hydrate'));
    expect(f.said[1]).toBe('bo drinks');
    expect(f.points.get('u-bo')).toBe(20);
  });
});

describe('filters', () => {
  const emote = (value: string): ChatSegment => ({ kind: 'emoticon', value, url: 'https://static-cdn.jtvnw.net/emoticons/v2/1/default/dark/1.0' });

  it('removes shouting but spares emotes written in capitals', async () => {
    const f = new Fakes();
    const filters = structuredClone(DEFAULT_FILTERS);
    filters.caps = { enabled: true, punishment: 'remove-silent', minPercent: 70, minLength: 10 };
    const bot = f.engine(config({ filters }));
    const shout = msg('bo', 'THIS IS SO LOUD');
    const emotes = msg('cy', 'KEKW KEKW LUL haha nice', {
      segments: [emote('KEKW'), { kind: 'text', value: ' ' }, emote('KEKW'), { kind: 'text', value: ' ' }, emote('LUL'), { kind: 'text', value: ' haha nice' }],
    });
    await bot.onMessage(shout);
    await bot.onMessage(emotes);
    expect(f.deleted).toEqual([shout.id]);
    expect(f.said).toEqual([]);
  });

  it('removes links outside the whitelist unless permitted; symbols; emote floods; duplicates', async () => {
    const f = new Fakes();
    const filters = structuredClone(DEFAULT_FILTERS);
    filters.links.enabled = true;
    filters.symbols = { enabled: true, punishment: 'remove-notice', minPercent: 50, minLength: 8 };
    filters.emotes = { enabled: true, punishment: 'remove-silent', maxCount: 2 };
    filters.duplicates = { enabled: true, punishment: 'remove-silent', windowSeconds: 30 };
    const bot = f.engine(config({ filters }));
    const link = (login: string, host: string) =>
      msg(login, `look ${host}`, {
        segments: [
          { kind: 'text', value: 'look ' },
          { kind: 'link', value: host, href: `https://${host}/` },
        ],
      });
    const bad = link('bo', 'evil.example');
    const fine = link('bo', 'clips.twitch.tv');
    await bot.onMessage(bad);
    await bot.onMessage(fine);
    await bot.onMessage(msg('mo', '!permit @cy', { roles: { broadcaster: false, moderator: true, vip: false, subscriber: false } }));
    const permitted = link('cy', 'evil.example');
    await bot.onMessage(permitted);
    const symbols = msg('dd', '!!!$$$%%%&&&');
    await bot.onMessage(symbols);
    const flood = msg('ee', 'a b c', { segments: [emote('a'), emote('b'), emote('c')] });
    await bot.onMessage(flood);
    const once = msg('ff', 'same thing');
    const twice = msg('ff', 'Same  thing');
    await bot.onMessage(once);
    await bot.onMessage(twice);
    expect(f.deleted).toEqual([bad.id, symbols.id, flood.id, twice.id]);
    expect(f.said).toEqual([
      '@bo, links are not allowed here without permission.',
      '@cy may post links for the next 60 seconds.',
      '@dd, please use fewer symbols.',
    ]);
  });

  it('runs a catastrophic banned-word pattern in linear time and refuses what RE2 cannot run', async () => {
    const f = new Fakes();
    const filters = structuredClone(DEFAULT_FILTERS);
    filters.bannedWords = { enabled: true, punishment: 'remove-silent', patterns: ['(a+)+$', 'bad\\s*word'] };
    const bot = f.engine(config({ filters }));
    const evil = msg('bo', `${'a'.repeat(50_000)}!`);
    await bot.onMessage(evil);
    const banned = msg('bo', 'such a BAD  word');
    await bot.onMessage(banned);
    expect(f.deleted).toEqual([banned.id]);
    expect(bannedWordError('(a)\\1')).toMatch(/not a pattern the filter can run/);
    expect(bannedWordError('(?=x)')).toMatch(/not a pattern/);
    expect(bannedWordError('bad\\s*word')).toBeNull();
  });

  it('the third warning times out for the configured duration', async () => {
    const f = new Fakes();
    const filters = structuredClone(DEFAULT_FILTERS);
    filters.bannedWords = { enabled: true, punishment: 'remove-notice-warn', patterns: ['heck'] };
    const bot = f.engine(
      config({
        filters,
        warningLevels: [
          { warnings: 3, action: 'timeout', duration: 2, unit: 'hours' },
          { warnings: 5, action: 'ban', duration: 1, unit: 'days' },
        ],
      }),
    );
    for (let i = 0; i < 3; i++) await bot.onMessage(msg('bo', 'heck'));
    expect(f.timeouts).toEqual([{ userId: 'u-bo', seconds: 7200 }]);
    expect(f.said[0]).toBe('@bo, that word is not allowed here. (warning 1)');
    expect(f.said[2]).toBe('@bo was timed out for 2 hours: that word is not allowed here.');
    for (let i = 0; i < 2; i++) await bot.onMessage(msg('bo', 'heck'));
    expect(f.bans).toEqual(['u-bo']);
  });

  it('spares moderators, ignores ignored users entirely', async () => {
    const f = new Fakes();
    const filters = structuredClone(DEFAULT_FILTERS);
    filters.bannedWords = { enabled: true, punishment: 'remove-silent', patterns: ['heck'] };
    const bot = f.engine(config({ filters, ignored: new Set(['nightbot']), commands: [command({ globalCooldownSeconds: 0 })] }));
    await bot.onMessage(msg('mo', 'heck', { roles: { broadcaster: false, moderator: true, vip: false, subscriber: false } }));
    await bot.onMessage(msg('nightbot', 'heck'));
    await bot.onMessage(msg('nightbot', '!hello'));
    expect(f.deleted).toEqual([]);
    expect(f.said).toEqual([]);
  });
});

describe('hate-raid guard', () => {
  it('goes follower-only and slow when first-time chatters flood, removes their messages, and lifts it after', async () => {
    const f = new Fakes();
    const moderation = structuredClone(DEFAULT_MODERATION);
    moderation.hateRaidGuard = {
      enabled: true,
      firstTimeChatters: 3,
      windowSeconds: 10,
      followerOnlyMinutes: 10,
      slowSeconds: 5,
      durationMinutes: 2,
      armOn: 'raidOrBurst',
      raidWindowMinutes: 5,
    };
    const bot = f.engine(config({ moderation }));
    const raid = [1, 2, 3, 4].map((i) => msg(`raider${i}`, 'spam', { firstMessage: true }));
    for (const m of raid) await bot.onMessage(m);
    await bot.onMessage(msg('regularviewer', 'hi'));
    expect(f.restricted).toEqual([{ followerOnlyMinutes: 10, slowSeconds: 5 }]);
    // One batch of the three who tripped it, then the fourth alone: a purge per viewer, not a call per line.
    expect(f.purged).toEqual([['u-raider1', 'u-raider2', 'u-raider3'], ['u-raider4']]);
    expect(f.deleted).toEqual([]);
    f.now += 121_000;
    await bot.onMessage(msg('later', 'hello'));
    expect(f.restricted[1]).toEqual({ followerOnlyMinutes: null, slowSeconds: null });
  });

  it('armed by a raid only (the default): a burst without a raid passes, the same burst after one trips it; a takeover keeps it on', async () => {
    const f = new Fakes();
    const moderation = structuredClone(DEFAULT_MODERATION);
    moderation.hateRaidGuard = { ...moderation.hateRaidGuard, enabled: true, firstTimeChatters: 3, windowSeconds: 10, durationMinutes: 2 };
    expect(moderation.hateRaidGuard.armOn).toBe('raid');
    const bot = f.engine(config({ moderation }));
    for (const i of [1, 2, 3, 4]) await bot.onMessage(msg(`newcomer${i}`, 'hello!', { firstMessage: true }));
    expect(f.restricted).toEqual([]);
    await bot.onEvents([{ id: 'raid-1', type: 'twitchRaid', platformUsername: 'Friend', value: 40, data: {} }]);
    for (const i of [1, 2, 3]) await bot.onMessage(msg(`raider${i}`, 'spam', { firstMessage: true }));
    expect(f.restricted).toEqual([{ followerOnlyMinutes: 10, slowSeconds: 10 }]);
    // Another engine on the same memory (the next replica): the guard is still on, raider1 is not purged twice.
    const next = f.engine(config({ moderation }));
    await next.onMessage(msg('raider9', 'spam', { firstMessage: true }));
    expect(f.purged).toEqual([['u-raider1', 'u-raider2', 'u-raider3'], ['u-raider9']]);
    // The raid's window ends: a later burst passes again.
    f.now += 6 * 60_000;
    await next.tick();
    for (const i of [5, 6, 7]) await next.onMessage(msg(`newcomer${i}`, 'hi', { firstMessage: true }));
    expect(f.restricted).toEqual([
      { followerOnlyMinutes: 10, slowSeconds: 10 },
      { followerOnlyMinutes: null, slowSeconds: null },
    ]);
  });
});

describe('takeover', () => {
  it('a cooldown and a !permit started by one engine hold in the next one on the same memory', async () => {
    const f = new Fakes();
    const filters = structuredClone(DEFAULT_FILTERS);
    filters.links = { ...filters.links, enabled: true, permitSeconds: 60 };
    const commands = [
      {
        id: 'c1',
        command: '!hype',
        message: 'HYPE',
        permission: 'everyone' as const,
        replyToSender: false,
        pointCost: 0,
        globalCooldownSeconds: 30,
        userCooldownSeconds: 0,
        enabled: true,
      },
    ];
    const first = f.engine(config({ commands, filters }));
    await first.onMessage(msg('bo', '!hype'));
    await first.onMessage(msg('ada', '!permit cy', { roles: { broadcaster: true, moderator: false, vip: false, subscriber: false } }));
    const next = f.engine(config({ commands, filters }));
    await next.onMessage(msg('cy', '!hype'));
    const link = msg('cy', 'see evil.example/x', { segments: [{ kind: 'link', value: 'evil.example/x', href: 'https://evil.example/x' }] });
    await next.onMessage(link);
    expect(f.said.filter((t) => t === 'HYPE')).toEqual(['HYPE']);
    expect(f.deleted).not.toContain(link.id);
    f.now += 31_000;
    await next.onMessage(msg('cy', '!hype'));
    expect(f.said.filter((t) => t === 'HYPE')).toEqual(['HYPE', 'HYPE']);
  });
});

describe('timers, loyalty, quotes, alerts', () => {
  it('a timer fires only while live, after its interval and minimum lines, taking turns', async () => {
    const f = new Fakes();
    f.live = false;
    const bot = f.engine(
      config({
        timers: [
          { id: 't1', message: 'Follow {url}', enabled: true },
          { id: 't2', message: 'Second', enabled: true },
        ],
      }),
    );
    for (let i = 0; i < 5; i++) await bot.onMessage(msg('bo', `line ${i}`));
    f.now += 11 * 60_000;
    await bot.tick();
    expect(f.said).toEqual([]);
    f.live = true;
    await bot.tick();
    f.now += 10 * 60_000;
    await bot.tick();
    expect(f.said).toEqual([]);
    for (let i = 0; i < 3; i++) await bot.onMessage(msg('bo', `live ${i}`));
    await bot.tick();
    expect(f.said).toEqual(['Follow https://twitch.tv/ada']);
    f.now += 10 * 60_000;
    await bot.tick();
    expect(f.said).toHaveLength(1);
    for (let i = 0; i < 3; i++) await bot.onMessage(msg('bo', `more ${i}`));
    await bot.tick();
    expect(f.said).toEqual(['Follow https://twitch.tv/ada', 'Second']);
  });

  it('points accrue for a viewer over an hour; subscribers get the multiplier; hours watched count', async () => {
    const f = new Fakes();
    const loyalty = structuredClone(DEFAULT_LOYALTY);
    loyalty.program = 'points';
    loyalty.points.whileViewing = { enabled: true, amount: 10, intervalMinutes: 15 };
    loyalty.points.whileChatting = { enabled: true, amount: 5, intervalMinutes: 15 };
    const bot = f.engine(config({ loyalty }));
    for (let q = 0; q < 4; q++) {
      await bot.onMessage(msg('bo', `quarter ${q}`));
      await bot.onMessage(msg('sub', `quarter ${q}`, { roles: { broadcaster: false, moderator: false, vip: false, subscriber: true } }));
      f.now += 15 * 60_000;
      await bot.tick();
    }
    expect(f.points.get('u-bo')).toBe(4 * 15);
    expect(f.points.get('u-sub')).toBe(4 * 30);
    expect(f.watched.get('u-bo')).toBe(3600);
  });

  it("viewers in Twitch's chatters list earn while viewing and watching without chatting; without the list, recent chatters only", async () => {
    const f = new Fakes();
    const loyalty = structuredClone(DEFAULT_LOYALTY);
    loyalty.program = 'points';
    loyalty.points.whileViewing = { enabled: true, amount: 10, intervalMinutes: 15 };
    loyalty.points.whileChatting = { enabled: false, amount: 5, intervalMinutes: 15 };
    const bot = f.engine(config({ loyalty, ignored: new Set(['onairbot']) }));
    f.chatters = [
      { userId: 'u-lurker', login: 'Lurker' },
      { userId: 'u-bot', login: 'onairbot' },
    ];
    await bot.onMessage(msg('bo', 'hi'));
    f.now += 15 * 60_000;
    await bot.tick();
    expect(f.points.get('u-lurker')).toBe(10);
    expect(f.points.get('u-bo')).toBe(10);
    expect(f.points.has('u-bot')).toBe(false);
    expect(f.watched.get('u-lurker')).toBe(15 * 60);
    f.chatters = null;
    f.now += 15 * 60_000;
    await bot.tick();
    expect(f.points.get('u-lurker')).toBe(10);
    expect(f.points.get('u-bo')).toBe(20);
  });

  it('!watchtime and !rank answer with the hours watched and the rank, once per user cooldown', async () => {
    const f = new Fakes();
    const loyalty = structuredClone(DEFAULT_LOYALTY);
    loyalty.program = 'ranks';
    const ranks = [
      { name: 'Veteran', hoursWatched: 10 },
      { name: 'Newcomer', hoursWatched: 1 },
    ];
    const bot = f.engine(config({ loyalty, ranks, extras: { ...DEFAULT_EXTRAS, statsUserCooldownSeconds: 30 } }));
    f.watched.set('u-bo', 3 * 3600 + 25 * 60);
    await bot.onMessage(msg('bo', '!watchtime'));
    await bot.onMessage(msg('bo', '!rank'));
    await bot.onMessage(msg('bo', '!rank'));
    await bot.onMessage(msg('cy', '!rank'));
    expect(f.said).toEqual([
      '@bo has watched 3 hours 25 minutes here.',
      '@bo is Newcomer (3 hours 25 minutes watched); Veteran at 10 hours.',
      '@cy has no rank yet (0 minutes watched); Newcomer at 1 hour.',
    ]);
    f.now += 31_000;
    await bot.onMessage(msg('bo', '!rank'));
    expect(f.said).toHaveLength(4);
    expect(rankWords('ada', 11 * 3600, ranks)).toBe('@ada is Veteran (11 hours watched), the highest rank.');
    expect(rankWords('ada', 60, [])).toBe('@ada has watched 1 minute; this channel has no ranks yet.');
    expect(watchedWords(3600)).toBe('1 hour');
    // !rank belongs to the Ranks program; switched off in Extras, neither answers.
    const off = f.engine(config({ loyalty: DEFAULT_LOYALTY, ranks, extras: { ...DEFAULT_EXTRAS, rankCommands: true } }));
    await off.onMessage(msg('dee', '!rank'));
    const none = f.engine(config({ loyalty, ranks, extras: { ...DEFAULT_EXTRAS, rankCommands: false } }));
    await none.onMessage(msg('eve', '!watchtime'));
    expect(f.said).toHaveLength(4);
  });

  it('the Regulars program promotes a viewer by themselves once they have watched the hours set', async () => {
    const f = new Fakes();
    const loyalty = structuredClone(DEFAULT_LOYALTY);
    loyalty.program = 'regulars';
    loyalty.regulars = { autoPromote: true, hoursWatched: 1 };
    const bot = f.engine(
      config({ loyalty, commands: [command({ command: '!lounge', message: 'Welcome to the lounge', permission: 'regular', globalCooldownSeconds: 0 })] }),
    );
    f.chatters = [{ userId: 'u-lurker', login: 'lurker' }];
    await bot.onMessage(msg('lurker', '!lounge'));
    f.now += 30 * 60_000;
    await bot.tick();
    expect(f.regulars.size).toBe(0);
    f.now += 30 * 60_000;
    await bot.tick();
    expect([...f.regulars]).toEqual(['u-lurker']);
    await bot.onMessage(msg('lurker', '!lounge'));
    expect(f.said).toEqual(['Welcome to the lounge']);
  });

  it('adds a quote and recalls it by number with its date', async () => {
    const f = new Fakes();
    const bot = f.engine(config());
    await bot.onMessage(msg('mo', '!addquote I am speed - Lightning', { roles: { broadcaster: false, moderator: true, vip: false, subscriber: false } }));
    await bot.onMessage(msg('bo', '!addquote not allowed'));
    await bot.onMessage(msg('bo', '!quote 1'));
    await bot.onMessage(msg('bo', '!quote 7'));
    expect(f.said).toEqual(['Quote #1 added: "I am speed" — Lightning', 'Quote #1: "I am speed" — Lightning (2026-11-25)', 'There is no quote #7.']);
  });

  it('a follow produces its chat alert once', async () => {
    const f = new Fakes();
    const bot = f.engine(config());
    const follow = { id: 'e1', type: 'follow', platformUsername: 'NewFan', value: null, data: {} };
    await bot.onEvents([follow]);
    await bot.onEvents([follow]);
    expect(f.said).toEqual(['Thank you for following, NewFan!']);
  });

  it('every event reward of the Points program is asked once per event, to the right viewer', async () => {
    const f = new Fakes();
    const loyalty = structuredClone(DEFAULT_LOYALTY);
    loyalty.program = 'points';
    loyalty.points.rewards = { tip: 100, follow: 50, subscribe: 500, giftSub: 300, raffleWin: 1000, host: 40, cheer: 2, raid: 150 };
    const bot = f.engine(config({ loyalty }));
    const events = [
      { id: 'f', type: 'follow', platformUsername: 'Fan1', value: null, data: {} },
      { id: 's', type: 'sub', platformUsername: 'Sub1', value: null, data: { tier: '1000' } },
      { id: 'r', type: 'resub', platformUsername: 'Sub2', value: 5, data: {} },
      { id: 'g', type: 'sub', platformUsername: 'Gifter', value: 5, data: { gifted: true, giftCount: 5, gifter: { platformUsername: 'Gifter' } } },
      { id: 'ga', type: 'sub', platformUsername: 'Anonymous', value: 2, data: { gifted: true, giftCount: 2, gifter: { platformUsername: 'Anonymous' } } },
      { id: 't', type: 'tip', platformUsername: 'Tipper', value: 5, data: { currency: 'USD' } },
      { id: 'c', type: 'twitchCheer', platformUsername: 'Cheerer', value: 300, data: {} },
      { id: 'rd', type: 'twitchRaid', platformUsername: 'Raider', value: 40, data: {} },
      { id: 'h', type: 'host', platformUsername: 'Hoster', value: 10, data: {} },
      { id: 'x', type: 'tweet', platformUsername: 'Someone', value: null, data: {} },
    ];
    await bot.onEvents(events);
    await bot.onEvents(events);
    expect(Object.fromEntries(f.rewards)).toEqual({
      'event:f': { login: 'fan1', points: 50 },
      'event:s': { login: 'sub1', points: 500 },
      'event:r': { login: 'sub2', points: 500 },
      'event:g': { login: 'gifter', points: 1500 },
      'event:t': { login: 'tipper', points: 100 },
      'event:c': { login: 'cheerer', points: 600 },
      'event:rd': { login: 'raider', points: 150 },
      'event:h': { login: 'hoster', points: 40 },
    });
    // Without the Points program nothing is due.
    expect(eventReward(DEFAULT_LOYALTY, events[0]!)).toBeNull();
  });
});

describe('link preview', () => {
  const linked = (login: string, href: string) =>
    msg(login, `look ${href}`, {
      segments: [
        { kind: 'text', value: 'look ' },
        { kind: 'link', value: href, href },
      ],
    });

  it('hands a link over only when Link Preview is on, the message passed the filters and it is not a command', async () => {
    const f = new Fakes();
    const filters = structuredClone(DEFAULT_FILTERS);
    filters.links = { enabled: true, punishment: 'remove-silent', whitelist: 'good.example', permitSeconds: 60 };
    const off = f.engine(config({ filters }));
    await off.onMessage(linked('bo', 'https://good.example/a'));
    expect(f.previewed).toEqual([]);

    const on = f.engine(config({ filters, linkPreview: { enabled: true, maxPerMinute: 4 } }));
    await on.onMessage(linked('bo', 'https://good.example/a'));
    await on.onMessage(linked('cy', 'https://evil.example/b'));
    await on.onMessage(
      msg('dd', '!nothing https://good.example/c', {
        segments: [
          { kind: 'text', value: '!nothing ' },
          { kind: 'link', value: 'x', href: 'https://good.example/c' },
        ],
      }),
    );
    expect(f.previewed).toEqual(['https://good.example/a']);
    expect(f.deleted).toHaveLength(1);
  });
});
