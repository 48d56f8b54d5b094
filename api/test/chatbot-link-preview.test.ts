// Link Preview against real sockets: a viewer writes a link in the IRC chat double; the bot
// fetches the page from a local HTTP server through the egress policy of web-page sources (names
// resolved by the DNS double) and posts its title through the Helix double. Addresses the policy
// refuses are never connected to, on the first hop or on a redirect.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwitchChatDouble, waitFor, type TwitchChatDouble } from '@onair/embedded';
import { createLogger, EgressPolicy, dnsServersResolver } from '@onair/runtime';
import { startDnsDouble, type DnsDouble } from '@onair/runtime/dns-double';
import { loadConfig } from '../src/config.ts';
import { startChatbots, type Chatbots } from '../src/chatbot/index.ts';
import { compose, type Composition } from '../src/compose.ts';
import { fetchLinkPreview } from '../src/chatbot/runtime/link-preview.ts';
import { linkTwitch } from './helpers/partner.ts';
import { startTwitchDouble, type TwitchDouble } from './helpers/platform-doubles/twitch-double.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

const BOT_ID = '987654322';
let api: StudioApi;
let irc: TwitchChatDouble;
let twitch: TwitchDouble;
let dns: DnsDouble;
let pages: Server;
let port: number;
let chatbots: Chatbots;
let bots: Composition;
let clock = Date.UTC(2026, 10, 25, 18);
let owner: TestUser;
const login = `lin${randomUUID().slice(0, 6)}`;
const hits = new Map<string, number>();
const base = () => `/api/v1/partner/channels/${owner.id}/chatbot`;
const replies = () => twitch.chat.messages.map((m) => m.text);
const previews = () => chatbots.supervisor!.runner(owner.id)!.previews;
const page = (path: string) => `http://pages.test:${port}${path}`;

function servePages(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0]!;
  hits.set(path, (hits.get(path) ?? 0) + 1);
  const html = (body: string) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  if (path === '/page' || path.startsWith('/many/')) return html('<html><head><title>Ada &amp; the Speedrun</title></head><body>hi</body></html>');
  if (path === '/og') return html('<title>Plain title</title><meta property="og:title" content="The Open Graph title">');
  if (path === '/script') return html('<title><script>alert(1)</script> &lt;b&gt;bold&lt;/b&gt;</title>');
  if (path === '/flood') return html('<title>Flood page</title>');
  if (path === '/json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end('{"title":"not a page"}');
  }
  if (path === '/huge') {
    // No length announced: the bot reads its first 256 KB only, where no title is.
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write(`<html><!-- ${'x'.repeat(1024 * 1024)} -->`);
    return void res.end('<title>Too far down</title></html>');
  }
  if (path === '/slow') return; // never answers: the bot gives up after its timeout
  if (path === '/to-loopback') {
    res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` });
    return void res.end();
  }
  if (path === '/to-loop-name') {
    res.writeHead(301, { location: `http://loop.test:${port}/secret` });
    return void res.end();
  }
  if (path === '/secret') return html('<title>Internal admin</title>');
  res.writeHead(404);
  res.end();
}

/** Says a message and waits until the bot's previews have finished `n` more runs. */
async function sayAndWait(text: string, runs = 1): Promise<void> {
  const before = previews().stats.finished;
  irc.say(login, { login: `viewer${randomUUID().slice(0, 4)}`, text });
  await waitFor(`${runs} preview run(s)`, async () => (previews().stats.finished >= before + runs ? true : undefined), 15_000, 20);
}

/**
 * Every message said so far handled (a `!ping` answered after them: one line, in order) and no
 * preview under way.
 */
let pings = 0;
async function settled(): Promise<void> {
  const n = ++pings;
  irc.say(login, { login: 'pinger', text: `!ping ${n}` });
  await waitFor(`pong ${n}`, async () => (replies().includes(`pong ${n}`) ? true : undefined), 20_000, 20);
  await waitFor('no preview under way', async () => (previews().running === 0 ? true : undefined), 10_000, 20);
}

/** A change saved through the api, and the running bot's reload of it. */
async function put(path: string, body: unknown): Promise<void> {
  const bot = chatbots.supervisor!.runner(owner.id);
  const before = bot?.reloads ?? 0;
  const res = await call(api, owner, 'PUT', `${base()}/${path}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  if (bot) await waitFor(`the bot to reload ${path}`, async () => (bot.reloads > before ? true : undefined), 10_000, 10);
}

beforeAll(async () => {
  [irc, twitch, dns] = await Promise.all([startTwitchChatDouble(), startTwitchDouble(), startDnsDouble()]);
  pages = createServer(servePages);
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  port = (pages.address() as AddressInfo).port;
  // pages.test stands for a public site (allowed by name, as an operator's allowlist would);
  // the other names resolve where a hostile link would point.
  dns.set('pages.test', ['127.0.0.1']);
  dns.set('loop.test', ['127.0.0.1']);
  dns.set('private.test', ['10.20.30.40']);
  dns.set('metadata.test', ['169.254.169.254']);
  twitch.moderators.add(BOT_ID);
  const env = {
    ...twitch.env(),
    TWITCH_CHAT_URL: irc.wsUrl,
    TWITCH_EMOTE_URL: `${irc.url}/emoticons/v2`,
    CHATBOT_TWITCH_USER_ID: BOT_ID,
    CHATBOT_TWITCH_LOGIN: 'onairbot',
    CHATBOT_TWITCH_TOKEN: twitch.issueAccessToken(),
    CHATBOT_PREVIEW_ALLOWED_HOSTS: `pages.test:${port}`,
    EGRESS_DNS_SERVERS: dns.server,
    PLATFORM_SUPERVISE_MS: '200',
    PLATFORM_OWNER_LEASE_MS: '2000',
    CHAT_TWITCH_RECONNECT_MS: '300',
    CHATBOT_TICK_MS: '3600000',
  };
  api = await startStudioApi({ env: { ...env, CHATBOT_RUNNERS: 'false' } });
  const config = loadConfig({ DATABASE_URL: api.databaseUrl, REDIS_URL: 'redis://unused', ...env });
  bots = compose({
    config: { ...config, REDIS_URL: '' },
    db: api.db,
    redis: api.redis,
    logger: createLogger('chatbot-preview-test', 'silent'),
    now: () => new Date(clock),
  });
  chatbots = await startChatbots(bots);
  owner = await createTestUser(api);
  await linkTwitch(api, owner, login);
  expect((await call(api, owner, 'POST', `${base()}/commands`, { command: '!ping', message: 'pong {args}', globalCooldownSeconds: 0 })).status).toBe(201);
  expect((await call(api, owner, 'PUT', `${base()}/connection`, { enabled: true })).status).toBe(200);
  await waitFor('the bot in the chat', async () => (irc.joined(login).length > 0 && chatbots.supervisor!.runner(owner.id) ? true : undefined), 20_000, 50);
  await put('link-preview', { enabled: true, maxPerMinute: 30 });
}, 120_000);

afterAll(async () => {
  await chatbots?.close();
  await bots?.close();
  await api?.close();
  await irc?.close();
  await twitch?.close();
  await dns?.close();
  await new Promise((resolve) => pages?.close(resolve));
});

describe('link preview', () => {
  it('posts the title and domain of a linked page, og:title first, as plain text', async () => {
    await sayAndWait(`have you seen ${page('/page')} ?`);
    expect(replies()).toContain('Link: Ada & the Speedrun (pages.test)');
    await sayAndWait(`and ${page('/og')}`);
    expect(replies()).toContain('Link: The Open Graph title (pages.test)');
    await sayAndWait(`xss ${page('/script')}`);
    expect(replies()).toContain('Link: <script>alert(1)</script> <b>bold</b> (pages.test)');
    expect(replies().every((t) => t.length <= 480)).toBe(true);
  });

  it('never connects to loopback, private or metadata addresses, by name or on a redirect', async () => {
    const posted = replies().length;
    await sayAndWait(`http://loop.test:${port}/secret`);
    await sayAndWait(`http://private.test:${port}/secret`);
    await sayAndWait('http://metadata.test/latest/meta-data');
    await sayAndWait(`redirected ${page('/to-loopback')}`);
    await sayAndWait(`redirected ${page('/to-loop-name')}`);
    expect(hits.get('/to-loopback')).toBe(1);
    expect(hits.get('/to-loop-name')).toBe(1);
    expect(hits.get('/secret')).toBeUndefined();
    expect(replies().length).toBe(posted);
    // An address literal (which chat does not even show as a link) is refused by the same rule.
    const policy = new EgressPolicy(new Set([`pages.test:${port}`]), dnsServersResolver([dns.server]));
    for (const url of [
      `http://127.0.0.1:${port}/secret`,
      `http://[::1]:${port}/secret`,
      `http://2130706433:${port}/secret`,
      'http://169.254.169.254/',
      'file:///etc/passwd',
    ]) {
      expect(await fetchLinkPreview(url, policy), url).toMatchObject({ ok: false });
    }
    expect(hits.get('/secret')).toBeUndefined();
  });

  it('a name that answers a public address, then loopback (DNS rebinding), is never connected to on loopback', async () => {
    // The policy checks the first answer; the request must go to that checked address and never
    // ask the name again (a second lookup would answer 127.0.0.1, this test's page server).
    dns.set('rebind.test', ['93.184.216.34'], ['127.0.0.1']);
    const policy = new EgressPolicy(new Set(), dnsServersResolver([dns.server]));
    const outcome = await fetchLinkPreview(`http://rebind.test:${port}/secret`, policy, { timeoutMs: 1500 });
    // Connecting to the public address fails or times out on this offline machine; never refused by the policy.
    expect(outcome).toMatchObject({ ok: false });
    expect((outcome as { reason: string }).reason).not.toMatch(/^refused/);
    expect(dns.queries.get('rebind.test')).toBeGreaterThanOrEqual(1);
    expect(hits.get('/secret')).toBeUndefined();
  });

  it('a page that is not HTML, too large or too slow posts nothing, and the bot goes on', async () => {
    const posted = replies().length;
    await sayAndWait(page('/json'));
    await sayAndWait(page('/huge'));
    await sayAndWait(page('/slow'));
    expect(hits.get('/json')).toBe(1);
    expect(hits.get('/huge')).toBe(1);
    expect(hits.get('/slow')).toBe(1);
    expect(replies().length).toBe(posted);
    clock += 61_000;
    await sayAndWait(`still here ${page('/page?again')}`);
    expect(replies().length).toBe(posted + 1);
  }, 30_000);

  it('a flood of the same link fetches it once; many links fetch at most the per-minute setting', async () => {
    clock += 61_000;
    for (let i = 0; i < 200; i++) irc.say(login, { login: `flooder${i % 7}`, text: `go ${page('/flood')}` });
    await settled();
    await waitFor('its preview', async () => (replies().includes('Link: Flood page (pages.test)') ? true : undefined), 10_000, 20);
    expect(hits.get('/flood')).toBe(1);
    expect(replies().filter((t) => t === 'Link: Flood page (pages.test)')).toHaveLength(1);

    await put('link-preview', { enabled: true, maxPerMinute: 3 });
    clock += 61_000;
    for (let i = 0; i < 40; i++) irc.say(login, { login: 'spammer', text: `${page(`/many/${i}`)}` });
    await settled();
    const many = [...hits.keys()].filter((k) => k.startsWith('/many/'));
    expect(many.length).toBeGreaterThanOrEqual(1);
    expect(many.length).toBeLessThanOrEqual(3);
  }, 60_000);

  it('nothing is fetched when Link Preview is off', async () => {
    await put('link-preview', { enabled: false, maxPerMinute: 3 });
    clock += 61_000;
    const before = { ...previews().stats };
    const pageHits = hits.get('/page') ?? 0;
    irc.say(login, { login: 'late', text: page('/page?off') });
    await settled();
    expect(previews().stats).toEqual(before);
    expect(hits.get('/page') ?? 0).toBe(pageHits);
  });
});
