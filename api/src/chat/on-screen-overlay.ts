import { Router, type Response } from 'express';
import type { Redis } from 'ioredis';
import { CHAT_ON_SCREEN_OVERLAY_PATH, chatChannels, chatServerMessageSchema, isUuid, type ChatOnScreen } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { PageEventStreams, parseJson, sendSignedPage, signedPageNotFound } from '../http/signed-page.ts';
import type { ChatOnScreenService } from './on-screen-service.ts';

/** Each platform's colour and name on the lower third (the studio's platform icons), and the room's own. */
const BRANDS = {
  twitch: { color: '#9146FF', label: 'Twitch' },
  youtube: { color: '#FF0000', label: 'YouTube' },
  facebook: { color: '#1877F2', label: 'Facebook' },
  room: { color: '#6D7CFF', label: 'Studio chat' },
} as const;

/** The platforms' marks (the studio's PlatformIcon paths) and a speech bubble for the room, drawn white on the colour. */
const GLYPHS: Record<keyof typeof BRANDS, string> = {
  twitch: 'M5 3 3.5 6.5V19h4v2h2.5l2-2h3L19.5 14V3H5Zm13 10.3L15.7 16h-3.8l-2 2v-2H6.5V4.5H18v8.8ZM15 7.5h-1.5v4.3H15V7.5Zm-4 0H9.5v4.3H11V7.5Z',
  youtube:
    'M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 0 0 2.4 7.2 26 26 0 0 0 2 12a26 26 0 0 0 .4 4.8 2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8A26 26 0 0 0 22 12a26 26 0 0 0-.4-4.8ZM10 15V9l5.2 3L10 15Z',
  facebook:
    'M22 12a10 10 0 1 0-11.6 9.9v-7H7.9V12h2.5V9.8c0-2.5 1.5-3.9 3.8-3.9 1.1 0 2.2.2 2.2.2v2.5h-1.2c-1.2 0-1.6.8-1.6 1.6V12h2.8l-.5 2.9h-2.3v7A10 10 0 0 0 22 12Z',
  room: 'M7.9 20A9 9 0 1 0 4 16.1L2 22Z',
};

/**
 * The chat on screen overlay page: transparent, the size of the canvas (a web-page layer over the
 * whole scene), drawing the message on screen as a lower third — the platform's colour block with its
 * mark, the sender's name and platform, the message — and nothing when none is. It follows the
 * project's state over server-sent events (the state first, then each change) and counts a message's
 * remaining time down itself should the end not be announced. Every text is set with textContent:
 * a message's markup shows as the characters it is. Sizes are in viewport units, so the page draws the
 * same picture at whatever size the render worker gives it.
 */
function page(nonce: string): string {
  const glyphs = Object.entries(GLYPHS)
    .map(([name, d]) => `<template id="glyph-${name}"><svg viewBox="0 0 24 24" aria-hidden="true"><path fill="#fff" d="${d}"/></svg></template>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OnAir chat on screen</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">
html,body{margin:0;height:100%;background:transparent;overflow:hidden;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
#card{position:fixed;left:4vw;top:71vh;width:70vw;height:22vh;display:none;background:#151821;border-radius:1.4vh;overflow:hidden;box-shadow:0 1vh 4vh rgba(0,0,0,.5)}
#card.on{display:flex;animation:slide .35s ease-out}
#card.out{opacity:0;transition:opacity .3s}
#badge{flex:0 0 22vh;display:flex;align-items:center;justify-content:center}
#badge svg{width:11vh;height:11vh}
#body{flex:1;min-width:0;padding:2vh 3vh;display:flex;flex-direction:column;justify-content:center;gap:.6vh;color:#fff}
#head{display:flex;align-items:baseline;gap:1.6vh;min-width:0}
#name{font-size:3.8vh;font-weight:800;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#platform{flex:none;font-size:2.2vh;font-weight:600;letter-spacing:.08em;text-transform:uppercase;color:rgba(255,255,255,.7)}
#text{font-size:3.5vh;line-height:1.25;display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden;overflow-wrap:anywhere}
@keyframes slide{from{transform:translateX(-8vw);opacity:0}to{transform:none;opacity:1}}
</style></head>
<body>${glyphs}<div id="card" data-testid="chat-on-screen"><div id="badge"></div><div id="body"><div id="head"><span id="name"></span><span id="platform"></span></div><div id="text"></div></div></div>
<script nonce="${nonce}">
const BRANDS=${JSON.stringify(BRANDS)};
const card=document.getElementById('card'),badge=document.getElementById('badge'),nameEl=document.getElementById('name'),platformEl=document.getElementById('platform'),textEl=document.getElementById('text');
let timer=null;
function off(){
  if(!card.classList.contains('on'))return;
  card.classList.add('out');delete card.dataset.message;
  timer=setTimeout(()=>{card.className='';},300);
}
function show(m){
  clearTimeout(timer);
  if(!m){off();return;}
  const key=m.platform||'room',brand=BRANDS[key];
  badge.style.background=brand.color;
  badge.replaceChildren(document.getElementById('glyph-'+key).content.cloneNode(true));
  nameEl.textContent=m.displayName;platformEl.textContent=brand.label;textEl.textContent=m.text;
  card.className='on';card.dataset.message=m.messageId;card.dataset.platform=key;
  if(m.remainingMs!==null)timer=setTimeout(off,m.remainingMs+1000);
}
const source=new EventSource(location.pathname+'/stream'+location.search);
source.onmessage=(e)=>{try{show(JSON.parse(e.data).onScreen);}catch(err){}};
</script></body></html>`;
}

/**
 * Serves the chat on screen overlay (page and its event stream) to whoever holds the project's
 * overlay key: the render worker, or a creator's own streaming tool.
 */
export function chatOnScreenOverlayRoutes(deps: { redis: Redis; onScreen: ChatOnScreenService; logger: Logger }): Router & { close(): void } {
  const router = Router() as Router & { close(): void };
  const send = (res: Response, onScreen: ChatOnScreen | null) => res.write(`data: ${JSON.stringify({ onScreen })}\n\n`);
  const streams = new PageEventStreams<ChatOnScreen | null, { res: Response }>({
    redis: deps.redis,
    logger: deps.logger,
    what: 'chat on screen',
    channel: chatChannels.project,
    topicOf: chatChannels.projectOf,
    parse: (raw) => {
      // Most of the chat channel's traffic is messages: only a change of what is on screen is parsed.
      if (!raw.includes('"chat.onScreen"')) return undefined;
      const parsed = chatServerMessageSchema.safeParse(parseJson(raw));
      return parsed.success && parsed.data.type === 'chat.onScreen' ? parsed.data.onScreen : undefined;
    },
    deliver: (client, onScreen) => send(client.res, onScreen),
  });

  const allowed = (projectId: string, key: unknown) => isUuid(projectId) && deps.onScreen.checkKey(projectId, key);

  router.get(CHAT_ON_SCREEN_OVERLAY_PATH, (req, res) => {
    if (!allowed(req.params.projectId, req.query.key)) return signedPageNotFound(res);
    sendSignedPage(res, page);
  });

  router.get(`${CHAT_ON_SCREEN_OVERLAY_PATH}/stream`, (req, res) => {
    const { projectId } = req.params;
    if (!allowed(projectId, req.query.key)) return signedPageNotFound(res);
    streams.open(req, projectId, { res }, 'chat on screen', async () => {
      send(res, await deps.onScreen.current(projectId));
    });
  });

  router.close = () => streams.close();
  return router;
}
