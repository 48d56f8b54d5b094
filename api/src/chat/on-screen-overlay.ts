import { Router, type Response } from 'express';
import type { Redis } from 'ioredis';
import { CHAT_ON_SCREEN_OVERLAY_PATH, CHAT_SENDER_MARKS, chatChannels, chatServerMessageSchema, isUuid, type ChatOnScreen } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import { PageEventStreams, parseJson, sendSignedPage, signedPageNotFound } from '../http/signed-page.ts';
import type { ChatOnScreenService } from './on-screen-service.ts';

/** The colour and name of each sender's platform on the card (protocol's CHAT_SENDER_MARKS). */
const BRANDS = Object.fromEntries(Object.entries(CHAT_SENDER_MARKS).map(([key, { color, label }]) => [key, { color, label }]));

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
  const glyphs = Object.entries(CHAT_SENDER_MARKS)
    .map(([name, { path: d }]) => `<template id="glyph-${name}"><svg viewBox="0 0 24 24" aria-hidden="true"><path fill="#fff" d="${d}"/></svg></template>`)
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
