import { randomBytes } from 'node:crypto';
import escapeHtml from 'escape-html';
import { Router } from 'express';
import helmet from 'helmet';
import { CREATOR_SITE_IMAGE_PATH, CREATOR_SITE_PATH, isUuid, weekdayLabels, type SiteBlock } from '@onair/protocol';
import type { CreatorSiteService, PublicSite } from './creator-site-service.ts';
import { sendStoredPicture } from '../http/send-file.ts';

const USERNAME = /^[A-Za-z0-9_]{1,25}$/;
/** Everything a creator typed goes through here: HTML-escaped text, never markup. */
const t = (text: string) => escapeHtml(text);

function block(b: SiteBlock, site: PublicSite, parentHost: string): string {
  const heading = b.title ? `<h2>${t(b.title)}</h2>` : '';
  switch (b.kind) {
    case 'about':
      return `<section class="card" data-block="about">${heading}${b.text
        .split(/\n{2,}/)
        .map((p) => `<p>${t(p)}</p>`)
        .join('')}</section>`;
    case 'schedule':
      return `<section class="card" data-block="schedule">${heading}${
        b.entries.length === 0
          ? '<p class="muted">No streams scheduled yet.</p>'
          : `<table><tbody>${b.entries.map((e) => `<tr><th>${t(weekdayLabels[e.day])}</th><td>${t(e.time)}</td><td>${t(e.what)}</td></tr>`).join('')}</tbody></table>`
      }<p class="muted">Times in ${t(b.timeZone)}</p></section>`;
    case 'socialLinks':
      return `<section class="card" data-block="socialLinks">${heading}<ul class="links">${b.links.map((l) => `<li><a href="${t(l.url)}" rel="noopener noreferrer nofollow" target="_blank">${t(l.platform)}</a></li>`).join('')}</ul></section>`;
    case 'liveStatus': {
      const status = site.live
        ? '<p class="live" data-live="true"><span class="dot"></span>Live now</p>'
        : '<p class="muted" data-live="false">Offline right now.</p>';
      const player =
        site.live && b.twitchChannel
          ? `<div class="player"><iframe title="Live stream" src="https://player.twitch.tv/?channel=${encodeURIComponent(b.twitchChannel)}&amp;parent=${encodeURIComponent(parentHost)}&amp;muted=true" allowfullscreen></iframe></div>`
          : '';
      return `<section class="card" data-block="liveStatus">${heading}${status}${player}</section>`;
    }
    case 'image': {
      const src = b.uploadId ? site.images.get(b.uploadId) : undefined;
      if (!src) return '';
      const img = `<img src="${t(src)}" alt="${t(b.alt)}">`;
      return b.style === 'banner'
        ? `<figure class="banner" data-block="image">${img}${b.title ? `<figcaption>${t(b.title)}</figcaption>` : ''}</figure>`
        : `<section class="card" data-block="image">${heading}<p class="picture">${img}</p></section>`;
    }
    case 'tipButton':
      // Only while the creator takes tips: a button to a page that says "not available" helps nobody.
      return site.tipPath
        ? `<section class="card" data-block="tipButton">${heading}<a class="button" href="${t(site.tipPath)}">${t(b.label)}</a></section>`
        : '';
    case 'promoCodes':
      return `<section class="card" data-block="promoCodes">${heading}${
        site.promoCodes.length === 0
          ? '<p class="muted">No promo codes right now.</p>'
          : `<ul class="codes">${site.promoCodes
              .map(
                (p) =>
                  `<li><code>${t(p.code)}</code><span><strong>${t(p.game)}</strong> · ${p.discountPercent}% off</span>${
                    p.storeUrl ? `<a href="${t(p.storeUrl)}" rel="noopener noreferrer nofollow sponsored" target="_blank">Get it in the store</a>` : ''
                  }${
                    // The tracked link's impression pixel: a visitor who saw the code counts in the campaign's Sponsorships statistics.
                    p.impressionPath ? `<img class="pixel" src="${t(p.impressionPath)}" alt="" width="1" height="1" referrerpolicy="no-referrer">` : ''
                  }</li>`,
              )
              .join('')}</ul>`
      }</section>`;
  }
}

function page(site: PublicSite, nonce: string, parentHost: string): string {
  const name = site.name || site.username;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t(name)} · OnAir</title>
<style nonce="${nonce}">
body{margin:0;background:#0e1016;color:#e9ebf2;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:760px;margin:0 auto;padding:48px 20px}
header{margin-bottom:24px}header h1{margin:0;font-size:36px}header p{margin:4px 0 0;color:#a6abbd}
.card{background:#171a23;border:1px solid #262a36;border-radius:12px;padding:20px 24px;margin-bottom:20px;overflow-wrap:anywhere}
h2{margin:0 0 10px;font-size:20px}
.muted{color:#8d93a7}
table{border-collapse:collapse}th,td{text-align:left;padding:4px 16px 4px 0}
.links{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:10px}
.links a{display:inline-block;padding:8px 14px;border-radius:8px;background:#262a36;color:#e9ebf2;text-decoration:none}
.links a:hover{background:#323748}
.live{color:#ff5a6e;font-weight:700}.dot{display:inline-block;width:10px;height:10px;border-radius:50%;background:#ff5a6e;margin-right:8px}
.banner{margin:0 0 20px}.banner img{display:block;width:100%;max-height:320px;object-fit:cover;border-radius:12px}.banner figcaption{color:#a6abbd;font-size:14px;margin-top:6px}
.picture{margin:0}.picture img{display:block;max-width:100%;height:auto;border-radius:8px}
.button{display:inline-block;padding:10px 20px;border-radius:8px;background:#6d7cff;color:#fff;font-weight:700;text-decoration:none}.button:hover{background:#5a69f0}
.codes{list-style:none;margin:0;padding:0}.codes li{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;padding:10px 0;border-top:1px solid #262a36}.codes li:first-child{border-top:0}
.pixel{position:absolute;width:1px;height:1px;opacity:0}
.codes code{font:700 15px/1 ui-monospace,monospace;letter-spacing:.06em;background:#262a36;padding:6px 10px;border-radius:6px}.codes span{flex:1}.codes a{color:#9aa5ff}
.player{position:relative;padding-top:56.25%}.player iframe{position:absolute;inset:0;width:100%;height:100%;border:0;border-radius:8px}
footer{color:#5d6275;font-size:13px;text-align:center;margin-top:36px}
</style></head>
<body><main data-testid="creator-site">
<header><h1>${t(name)}</h1>${site.headline ? `<p>${t(site.headline)}</p>` : ''}</header>
${site.blocks.map((b) => block(b, site, parentHost)).join('\n')}
<footer>A creator on OnAir</footer>
</main></body></html>`;
}

/**
 * The public creator site, `/c/{username}`: a page for signed-out visitors, with a strict
 * Content-Security-Policy (helmet): no script at all, styles by nonce, images only from https,
 * frames only from Twitch's player.
 */
export function creatorSitePageRoutes(sites: CreatorSiteService): Router {
  const router = Router();
  // The site's pictures: stored as PNG by the uploads store, served as exactly that (never sniffed,
  // never HTML or SVG), to anyone while the published site shows them.
  router.get(CREATOR_SITE_IMAGE_PATH, async (req, res) => {
    const { username, uploadId } = req.params as { username: string; uploadId: string };
    const image = USERNAME.test(username) && isUuid(uploadId) ? await sites.publicImage(username, uploadId) : null;
    if (!image) {
      res.status(404).set('x-content-type-options', 'nosniff').type('text/plain').send('This picture is not here.');
      return;
    }
    await sendStoredPicture(res, image, { 'cache-control': 'public, max-age=300' });
  });
  router.get(
    CREATOR_SITE_PATH,
    (_req, res, next) => {
      res.locals.cspNonce = randomBytes(16).toString('base64');
      next();
    },
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'none'"],
          styleSrc: [(_req, res) => `'nonce-${(res as unknown as { locals: { cspNonce: string } }).locals.cspNonce}'`],
          imgSrc: ["'self'", 'https:', 'data:'],
          frameSrc: ['https://player.twitch.tv'],
          baseUri: ["'none'"],
          formAction: ["'none'"],
          frameAncestors: ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    }),
    async (req, res) => {
      const { username } = req.params as { username: string };
      const site = USERNAME.test(username) ? await sites.publicSite(username) : null;
      if (!site) {
        res.status(404).type('text/plain').send('This creator has no site here.');
        return;
      }
      res
        .status(200)
        .set({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' })
        .send(page(site, res.locals.cspNonce as string, req.hostname));
    },
  );
  return router;
}
