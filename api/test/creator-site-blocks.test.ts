/**
 * The creator site's tip button and promo codes blocks (issues 23, 24, 25): the tip button opens
 * the creator's tip page and shows only while the creator takes tips; the promo codes block shows
 * the codes of the creator's running campaigns with the game, the discount and the creator's
 * tracked store link. Who may edit (and so read what the blocks would show) is the Creator Site
 * group; a visitor sees only a published site. Real PostgreSQL and Redis, the Stripe double.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatorSite, CreatorSiteContent, TipPage } from '@onair/protocol';
import { collaboratorWith, personalInfo } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;

beforeAll(async () => {
  api = await startStudioApi();
});
afterAll(async () => {
  await api?.close();
});

const tipSettings = { enabled: true, paymentEmail: 'pay@example.test', currency: 'usd', minTip: 200, maxTip: 200_000 };

/** A creator with a username (the site's address). */
async function creator(): Promise<{ user: TestUser; username: string; sitePath: string }> {
  const user = await createTestUser(api);
  const username = `blk_${user.id.slice(0, 8)}`;
  expect((await call(api, user, 'POST', '/api/v1/partner/account/onboarding', personalInfo(username))).status).toBe(200);
  return { user, username, sitePath: `/api/v1/partner/channels/${user.id}/site` };
}

const site = (blocks: CreatorSiteContent['blocks'], published = true): CreatorSiteContent => ({ published, headline: '', blocks });
const tipButton = (label = 'Send a tip') => ({ kind: 'tipButton' as const, id: randomUUID(), title: 'Support the stream', label });
const promoBlock = () => ({ kind: 'promoCodes' as const, id: randomUUID(), title: 'Deals' });
const publicHtml = async (username: string) => {
  const res = await fetch(`${api.url}/c/${username}`);
  return { status: res.status, html: await res.text() };
};

describe('the tip button block', () => {
  it('is hidden from visitors and explained to the editor while tips are off; shown, as text, once the creator takes tips', async () => {
    const { user, username, sitePath } = await creator();
    const saved = await call(api, user, 'PUT', sitePath, site([tipButton('Tip <b>me</b>')]));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const off = saved.body as CreatorSite;
    expect(off.tips).toEqual({ available: false, unavailableReason: 'This creator does not take tips right now.', url: `${api.url}/tip/${user.id}` });
    let page = await publicHtml(username);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('data-block="tipButton"');
    expect(page.html).not.toContain('/tip/');

    expect((await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tip-settings`, tipSettings)).status).toBe(200);
    expect(((await call(api, user, 'GET', sitePath)).body as CreatorSite).tips).toEqual({
      available: true,
      unavailableReason: null,
      url: `${api.url}/tip/${user.id}`,
    });
    page = await publicHtml(username);
    expect(page.html).toContain(
      `<section class="card" data-block="tipButton"><h2>Support the stream</h2><a class="button" href="/tip/${user.id}">Tip &lt;b&gt;me&lt;/b&gt;</a></section>`,
    );
    // The button's address is the creator's tip page, which takes tips.
    const href = /data-block="tipButton".*?href="([^"]+)"/.exec(page.html)![1]!;
    expect(new URL(href, api.url).pathname).toBe(`/tip/${user.id}`);
    const tipPage = (await call(api, null, 'GET', `/api/v1/tips/${user.id}`)).body as TipPage;
    expect(tipPage).toMatchObject({ channelId: user.id, creatorName: username, available: true });
  });

  it('hides the button while an operator has switched tipping off, and says why in the editor', async () => {
    const { user, username, sitePath } = await creator();
    expect((await call(api, user, 'PUT', `/api/v1/partner/channels/${user.id}/tip-settings`, tipSettings)).status).toBe(200);
    expect((await call(api, user, 'PUT', sitePath, site([tipButton()]))).status).toBe(200);
    expect((await publicHtml(username)).html).toContain('data-block="tipButton"');
    const admin = await createTestUser(api);
    await api.db.user.update({ where: { id: admin.id }, data: { userType: 'ADMIN' } });
    expect((await call(api, admin, 'PUT', '/api/v1/admin/tips-availability', { available: false, reason: 'Tipping is paused for maintenance.' })).status).toBe(
      200,
    );
    try {
      expect(((await call(api, user, 'GET', sitePath)).body as CreatorSite).tips).toMatchObject({
        available: false,
        unavailableReason: 'Tipping is paused for maintenance.',
      });
      expect((await publicHtml(username)).html).not.toContain('data-block="tipButton"');
    } finally {
      expect((await call(api, admin, 'PUT', '/api/v1/admin/tips-availability', { available: true })).status).toBe(200);
    }
    expect((await publicHtml(username)).html).toContain('data-block="tipButton"');
  });

  it('refuses an empty or too long button text with words', async () => {
    const { user, sitePath } = await creator();
    const refused = async (label: string, words: string) => {
      const res = await call(api, user, 'PUT', sitePath, site([tipButton(label)]));
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(words);
      expect(JSON.stringify(res.body)).toContain('"label"');
    };
    await refused('   ', 'This field is required');
    await refused('x'.repeat(65), 'Keep the text under 65 characters');
  });

  it('is edited by the owner or a Creator Site collaborator only; others are refused with words', async () => {
    const { user, sitePath } = await creator();
    const body = site([tipButton()]);
    const outsider = await collaboratorWith(api, user, ['overlay.view', 'overlay.edit', 'analytics', 'chatbot.moderation', 'chatbot.chat', 'chatbot.loyalty']);
    for (const method of ['GET', 'PUT'] as const) {
      const res = await call(api, outsider.user, method, sitePath, method === 'PUT' ? body : undefined);
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).toMatch(/Creator Site/);
    }
    const stranger = await createTestUser(api);
    expect((await call(api, stranger, 'PUT', sitePath, body)).status).toBe(403);
    expect((await call(api, null, 'PUT', sitePath, body)).status).toBe(401);
    const editor = await collaboratorWith(api, user, ['creator-site']);
    const saved = await call(api, editor.user, 'PUT', sitePath, body);
    expect(saved.status).toBe(200);
    expect((saved.body as CreatorSite).blocks).toEqual(body.blocks);
  });
});

describe('the promo codes block', () => {
  /** A campaign and this creator's part in it, with promo codes (and a tracked link when `link`). */
  async function participation(
    creatorId: string,
    campaign: { name: string; game: string; status?: string; storeUrl?: string | null; expiresAt?: Date | null },
    application: { status: string; link?: boolean },
    codes: { code: string; discountPercent: number }[],
  ): Promise<{ slug: string | null }> {
    const c = await api.db.campaign.create({
      data: {
        name: campaign.name,
        kind: 'game-key',
        game: campaign.game,
        status: campaign.status ?? 'active',
        storeUrl: campaign.storeUrl ?? null,
        expiresAt: campaign.expiresAt ?? null,
        promoDiscountKind: 'range',
        promoMinPercent: 5,
        promoMaxPercent: 30,
      },
    });
    const a = await api.db.campaignApplication.create({ data: { campaignId: c.id, creatorId, status: application.status } });
    for (const code of codes) await api.db.promoCode.create({ data: { applicationId: a.id, ...code } });
    if (!application.link) return { slug: null };
    const slug = `s${randomUUID().replaceAll('-', '').slice(0, 15)}`;
    await api.db.campaignLink.create({ data: { applicationId: a.id, slug } });
    return { slug };
  }

  it('shows an empty state while the creator has no running campaign codes', async () => {
    const { user, username, sitePath } = await creator();
    const saved = (await call(api, user, 'PUT', sitePath, site([promoBlock()]))).body as CreatorSite;
    expect(saved.promoCodes).toEqual([]);
    const page = await publicHtml(username);
    expect(page.html).toContain('<section class="card" data-block="promoCodes"><h2>Deals</h2><p class="muted">No promo codes right now.</p></section>');
  });

  it("lists the codes of the creator's running campaigns with game, discount and tracked store link, and nothing else", async () => {
    const { user, username, sitePath } = await creator();
    const other = await createTestUser(api);
    const tag = randomUUID().slice(0, 6).toUpperCase();
    const sky = await participation(
      user.id,
      { name: 'Skyward launch', game: 'Skyward <i>Deluxe</i>', storeUrl: 'https://store.example.test/skyward' },
      { status: 'accepted', link: true },
      [{ code: `SKY${tag}`, discountPercent: 15 }],
    );
    await participation(user.id, { name: 'Moss keys', game: 'Moss', storeUrl: null }, { status: 'claimed' }, [{ code: `MOSS${tag}`, discountPercent: 10 }]);
    // Not shown: a paused or an expired campaign, an application no longer running, another creator's code.
    await participation(user.id, { name: 'Paused', game: 'Paused game', status: 'paused' }, { status: 'accepted' }, [
      { code: `PAUSED${tag}`, discountPercent: 10 },
    ]);
    await participation(user.id, { name: 'Expired', game: 'Old game', expiresAt: new Date(Date.now() - 60_000) }, { status: 'accepted' }, [
      { code: `OLD${tag}`, discountPercent: 10 },
    ]);
    await participation(user.id, { name: 'Rescinded', game: 'Gone game' }, { status: 'rescinded' }, [{ code: `GONE${tag}`, discountPercent: 10 }]);
    await participation(user.id, { name: 'Applied', game: 'Waiting game' }, { status: 'applied' }, [{ code: `WAIT${tag}`, discountPercent: 10 }]);
    await participation(other.id, { name: 'Someone else', game: 'Their game' }, { status: 'accepted', link: true }, [
      { code: `THEIRS${tag}`, discountPercent: 20 },
    ]);

    expect((await call(api, user, 'PUT', sitePath, site([promoBlock()], false))).status).toBe(200);
    // Unpublished: the codes stay with the editor.
    expect((await publicHtml(username)).status).toBe(404);
    const editorView = (await call(api, user, 'GET', sitePath)).body as CreatorSite;
    const trackedLink = `${api.url}/api/v1/public/campaign-links/${sky.slug}`;
    expect(editorView.promoCodes).toEqual([
      { code: `SKY${tag}`, discountPercent: 15, game: 'Skyward <i>Deluxe</i>', campaignName: 'Skyward launch', storeUrl: trackedLink },
      { code: `MOSS${tag}`, discountPercent: 10, game: 'Moss', campaignName: 'Moss keys', storeUrl: null },
    ]);

    expect((await call(api, user, 'PUT', sitePath, site([promoBlock()]))).status).toBe(200);
    const { html } = await publicHtml(username);
    expect(html).toContain(
      `<li><code>SKY${tag}</code><span><strong>Skyward &lt;i&gt;Deluxe&lt;/i&gt;</strong> · 15% off</span><a href="${trackedLink}" rel="noopener noreferrer nofollow sponsored" target="_blank">Get it in the store</a><img class="pixel" src="/api/v1/public/campaign-links/${sky.slug}/impression?source=site" alt="" width="1" height="1" referrerpolicy="no-referrer"></li>`,
    );
    expect(html).toContain(`<li><code>MOSS${tag}</code><span><strong>Moss</strong> · 10% off</span></li>`);
    for (const hidden of ['PAUSED', 'OLD', 'GONE', 'WAIT', 'THEIRS']) expect(html).not.toContain(`${hidden}${tag}`);
    expect(html).not.toContain('<i>Deluxe</i>');

    // The visitor's browser loads the impression pixel (same origin, allowed by the page's CSP): one view for Sponsorships.
    expect((await fetch(`${api.url}/c/${username}`)).headers.get('content-security-policy')).toContain("img-src 'self'");
    const pixel = /<img class="pixel" src="([^"]+)"/.exec(html)![1]!;
    expect((await fetch(new URL(pixel, api.url))).status).toBe(204);
    expect((await api.db.campaignLink.findUnique({ where: { slug: sky.slug! } }))?.impressions).toBe(1);
    // The editor is not a visitor: its view of the codes carries no pixel and counts nothing.
    expect(JSON.stringify((await call(api, user, 'GET', sitePath)).body)).not.toContain('impression');
    // A visitor's click on the store link counts for the campaign and lands on the store.
    const click = await fetch(trackedLink, { redirect: 'manual' });
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe('https://store.example.test/skyward');
    expect((await api.db.campaignLink.findUnique({ where: { slug: sky.slug! } }))?.clicks).toBe(1);
  });

  it('shows what the block would show to the owner and Creator Site collaborators only', async () => {
    const { user, sitePath } = await creator();
    await participation(user.id, { name: 'Private view', game: 'Game' }, { status: 'accepted' }, [
      { code: `PV${randomUUID().slice(0, 6).toUpperCase()}`, discountPercent: 12 },
    ]);
    expect((await call(api, user, 'PUT', sitePath, site([promoBlock()], false))).status).toBe(200);
    const analytics = await collaboratorWith(api, user, ['analytics']);
    const refused = await call(api, analytics.user, 'GET', sitePath);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain('PV');
    expect((await call(api, null, 'GET', sitePath)).status).toBe(401);
    const editor = await collaboratorWith(api, user, ['creator-site']);
    expect(((await call(api, editor.user, 'GET', sitePath)).body as CreatorSite).promoCodes).toHaveLength(1);
  });
});
