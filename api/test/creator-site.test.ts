/**
 * The creator site (issue 23): edited by the owner or a collaborator with the Creator Site group
 * only, served at /c/{username} to signed-out visitors with a strict Content-Security-Policy, every
 * text the creator typed shown as text. Real PostgreSQL and Redis.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatorSite, CreatorSiteContent } from '@onair/protocol';
import { collaboratorWith, personalInfo } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let owner: TestUser;
let username: string;
const sitePath = () => `/api/v1/partner/channels/${owner.id}/site`;

const content = (overrides: Partial<CreatorSiteContent> = {}): CreatorSiteContent => ({
  published: true,
  headline: 'Speedruns <b>every</b> night',
  blocks: [
    { kind: 'about', id: randomUUID(), title: 'About me', text: 'I stream <script>alert(1)</script> retro games.\n\nSay hi!' },
    { kind: 'schedule', id: randomUUID(), title: 'Schedule', timeZone: 'Europe/Berlin', entries: [{ day: 'fri', time: '19:30', what: 'Any% attempts' }] },
    { kind: 'socialLinks', id: randomUUID(), title: 'Elsewhere', links: [{ platform: 'YouTube', url: 'https://youtube.com/@ada' }] },
    { kind: 'liveStatus', id: randomUUID(), title: 'Live', twitchChannel: 'adastreams' },
  ],
  ...overrides,
});

beforeAll(async () => {
  api = await startStudioApi();
  owner = await createTestUser(api);
  username = `site_${owner.id.slice(0, 8)}`;
  expect((await call(api, owner, 'POST', '/api/v1/partner/account/onboarding', personalInfo(username))).status).toBe(200);
});
afterAll(async () => {
  await api?.close();
});

describe('the creator site', () => {
  it('starts empty and unpublished, with its public address; a visitor finds nothing until it is published', async () => {
    const site = (await call(api, owner, 'GET', sitePath())).body as CreatorSite;
    expect(site).toMatchObject({ published: false, blocks: [], url: `${api.url}/c/${username}`, updatedAt: null });
    expect((await fetch(`${api.url}/c/${username}`)).status).toBe(404);
  });

  it('renders for a signed-out visitor with a strict CSP, everything typed shown as text', async () => {
    const saved = await call(api, owner, 'PUT', sitePath(), content());
    expect(saved.status).toBe(200);
    const res = await fetch(`${api.url}/c/${username.toUpperCase()}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).toMatch(/style-src 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain('frame-src https://player.twitch.tv');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html).toContain('I stream &lt;script&gt;alert(1)&lt;/script&gt; retro games.');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('Speedruns &lt;b&gt;every&lt;/b&gt; night');
    expect(html).toContain('<th>Friday</th><td>19:30</td><td>Any% attempts</td>');
    expect(html).toContain('href="https://youtube.com/@ada"');
    // Not live: no player.
    expect(html).toContain('data-live="false"');
    expect(html).not.toContain('player.twitch.tv/?channel');
  });

  it('shows the live status and the embedded player while a broadcast of the creator is live', async () => {
    const project = await api.db.project.create({ data: { ownerId: owner.id, name: 'Live show' } });
    const broadcast = await api.db.broadcast.create({ data: { projectId: project.id, state: 'live', startedAt: new Date() } });
    const html = await (await fetch(`${api.url}/c/${username}`)).text();
    expect(html).toContain('data-live="true"');
    expect(html).toContain('https://player.twitch.tv/?channel=adastreams&amp;parent=127.0.0.1');
    await api.db.broadcast.update({ where: { id: broadcast.id }, data: { state: 'ended', endedAt: new Date() } });
  });

  it('refuses bad blocks with words: a javascript: link, an unknown time zone, an empty about', async () => {
    const bad = async (blocks: unknown[]) => JSON.stringify((await call(api, owner, 'PUT', sitePath(), { ...content(), blocks })).body);
    expect(await bad([{ kind: 'socialLinks', id: randomUUID(), title: '', links: [{ platform: 'X', url: 'javascript:alert(1)' }] }])).toContain(
      'Enter an https address',
    );
    expect(await bad([{ kind: 'schedule', id: randomUUID(), title: '', timeZone: 'Mars/Olympus', entries: [] }])).toContain('Choose a time zone');
    expect(await bad([{ kind: 'about', id: randomUUID(), title: '', text: '' }])).toContain('This field is required');
  });

  it('is edited by a collaborator with the Creator Site group, and refused to one without it', async () => {
    const without = await collaboratorWith(api, owner, ['overlay.edit', 'overlay.view', 'analytics', 'chatbot.chat']);
    const refused = await call(api, without.user, 'PUT', sitePath(), content({ headline: 'Hijacked' }));
    expect(refused).toMatchObject({
      status: 403,
      body: {
        error: { code: 'FORBIDDEN', message: 'Your access to this channel does not include Creator Site (Edit website). Ask the channel owner to grant it.' },
      },
    });
    expect((await call(api, without.user, 'GET', sitePath())).status).toBe(403);
    const editor = await collaboratorWith(api, owner, ['creator-site']);
    expect((await call(api, editor.user, 'PUT', sitePath(), content({ headline: 'Edited by the team' }))).status).toBe(200);
    expect(await (await fetch(`${api.url}/c/${username}`)).text()).toContain('Edited by the team');
    expect(await (await fetch(`${api.url}/c/${username}`)).text()).not.toContain('Hijacked');
  });

  it('answers 404 to a username nobody has, and to one whose site is unpublished again', async () => {
    expect((await fetch(`${api.url}/c/nobody_here_${Date.now() % 1000}`)).status).toBe(404);
    expect((await fetch(`${api.url}/c/${encodeURIComponent('<script>')}`)).status).toBe(404);
    await call(api, owner, 'PUT', sitePath(), content({ published: false }));
    expect((await fetch(`${api.url}/c/${username}`)).status).toBe(404);
  });
});
