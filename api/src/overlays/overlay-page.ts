import { Router } from 'express';
import { alertEventColors, isUuid, OVERLAY_CANVAS, OVERLAY_IMAGE_PATH, OVERLAY_PAGE_PATH } from '@onair/protocol';
import type { OverlayService } from './overlay-service.ts';
import { sendStoredPicture } from '../http/send-file.ts';
import { sendSignedPage, signedPageNotFound } from '../http/signed-page.ts';

/**
 * The overlay page: transparent, the widgets placed on the studio's 1280×720 canvas and scaled to
 * the window (a browser source of any size), drawn from the state its WebSocket sends and redrawn
 * on every change. Every text — an alert with a viewer's name, a chat message, the creator's own
 * words — is set with textContent, never parsed as markup; images are only ever `img` elements. An uploaded picture is loaded from under the page's own path
 * with the page's own query (its key, and in the studio its signature, which covers that path).
 */
function page(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Overlay · OnAir</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">
html,body{margin:0;height:100%;background:transparent;overflow:hidden;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
#canvas{position:absolute;left:0;top:0;width:${OVERLAY_CANVAS.width}px;height:${OVERLAY_CANVAS.height}px;transform-origin:0 0}
.w{position:absolute;box-sizing:border-box;overflow:hidden;line-height:1.25;text-shadow:0 1px 3px rgba(0,0,0,.6)}
.alert{display:none;width:100%;height:100%;align-items:center;border-radius:12px;overflow:hidden;background:#151821}
.alert.on{display:flex;animation:pop .3s ease-out}
.alert .block{flex:0 0 24px;align-self:stretch}
.alert .text{flex:1;padding:0 20px;font-weight:700;overflow-wrap:anywhere}
.list{margin:0;padding:0;list-style:none}
.list li{padding:2px 0;overflow-wrap:anywhere}
.name{font-weight:700;margin-right:.4em}
.title{font-weight:700;margin-bottom:6px}
.goal .bar{height:36%;background:rgba(0,0,0,.45);border-radius:999px;overflow:hidden}
.goal .fill{height:100%;width:0;transition:width .6s ease-out}
.goal .row{display:flex;justify-content:space-between;margin-bottom:6px}
.img{width:100%;height:100%;object-fit:contain}
.sponsor{display:flex;flex-direction:column;justify-content:center;height:100%;padding:8px 16px;box-sizing:border-box;background:rgba(15,17,21,.72);border-radius:12px}
.sponsor .game{font-weight:700}
.sponsor .code{font-weight:800;letter-spacing:.06em}
.sponsor .link{opacity:.8;font-size:.7em;overflow-wrap:anywhere}
.pixel{position:absolute;width:1px;height:1px;opacity:0}
.timer{text-align:center}
.timer .clock{font-variant-numeric:tabular-nums;font-weight:700}
@keyframes pop{from{transform:scale(.85);opacity:0}to{transform:none;opacity:1}}
</style></head>
<body><div id="canvas" data-testid="overlay-canvas"></div>
<script nonce="${nonce}">
const COLORS=${JSON.stringify(alertEventColors)};
const canvas=document.getElementById('canvas');
function fit(){canvas.style.transform='scale('+(innerWidth/${OVERLAY_CANVAS.width})+','+(innerHeight/${OVERLAY_CANVAS.height})+')';}
addEventListener('resize',fit);fit();
let widgets=[],goals={},events=[],chat=[],sponsors={},views=new Map(),timers=[];
function el(tag,cls,text){const e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined)e.textContent=String(text);return e;}
function money(minor,currency){try{const f=new Intl.NumberFormat('en-US',{style:'currency',currency});const d=f.resolvedOptions().maximumFractionDigits;return f.format(minor/Math.pow(10,d));}catch(e){return String(minor);}}
function clock(ms){ms=Math.max(0,ms);const s=Math.floor(ms/1000),h=Math.floor(s/3600),m=Math.floor(s%3600/60),r=s%60;const p=(n)=>String(n).padStart(2,'0');return (h>0?h+':'+p(m):p(m))+':'+p(r);}
function line(list,name,text,max){const li=el('li');li.appendChild(el('span','name',name));li.appendChild(el('span','',text));list.appendChild(li);while(list.children.length>max)list.removeChild(list.firstChild);}
function draw(){
  canvas.replaceChildren();views=new Map();timers=[];
  for(const w of widgets){
    const box=el('div','w');box.dataset.widget=w.kind;box.dataset.id=w.id;
    box.style.left=w.x+'px';box.style.top=w.y+'px';box.style.width=w.width+'px';box.style.height=w.height+'px';
    if(w.color)box.style.color=w.color;if(w.fontSize)box.style.fontSize=w.fontSize+'px';
    const v={w,box,queue:[],playing:false};views.set(w.id,v);
    if(w.kind==='alertBox'){v.card=el('div','alert');v.card.dataset.testid='alert-card';v.block=el('div','block');v.text=el('div','text');v.card.append(v.block,v.text);box.appendChild(v.card);}
    else if(w.kind==='recentEvents'){if(w.title)box.appendChild(el('div','title',w.title));v.list=el('ul','list');box.appendChild(v.list);for(const e of events.filter((e)=>w.types.includes(e.type)).slice(-w.count))line(v.list,e.username,e.text,w.count);}
    else if(w.kind==='chatBox'){v.list=el('ul','list');box.appendChild(v.list);for(const m of chat.slice(-w.count))line(v.list,m.username,m.text,w.count);}
    else if(w.kind==='goalBar'){box.classList.add('goal');const row=el('div','row');v.label=el('span','',w.title);v.count=el('span','');row.append(v.label,v.count);const bar=el('div','bar');v.fill=el('div','fill');v.fill.style.background=w.barColor;bar.appendChild(v.fill);box.append(row,bar);goal(v);}
    else if(w.kind==='text'){box.textContent=w.text;}
    else if(w.kind==='image'){const img=el('img','img');img.alt='';img.referrerPolicy='no-referrer';img.src=w.uploadId?location.pathname+'/images/'+encodeURIComponent(w.uploadId)+location.search:w.url;box.appendChild(img);}
    else if(w.kind==='timer'){box.classList.add('timer');if(w.label)box.appendChild(el('div','',w.label));v.clock=el('div','clock');box.appendChild(v.clock);timers.push(v);}
    else if(w.kind==='sponsor'){const s=sponsors[w.id];if(s){const card=el('div','sponsor');if(w.label)card.appendChild(el('div','',w.label));card.appendChild(el('div','game',s.game));if(s.code)card.appendChild(el('div','code','Code '+s.code+(s.discountPercent?' · '+s.discountPercent+'% off':'')));if(s.link)card.appendChild(el('div','link',s.link));box.appendChild(card);if(s.impressionPath){const px=el('img','pixel');px.alt='';px.referrerPolicy='no-referrer';px.src=s.impressionPath;box.appendChild(px);}}}
    canvas.appendChild(box);
  }
  tick();
}
function goal(v){const w=v.w,cur=goals[w.id]||0;const fmt=(n)=>w.metric==='tips'||w.metric==='charity'?money(n,w.currency):String(n);v.count.textContent=fmt(cur)+' / '+fmt(w.target);v.fill.style.width=Math.min(100,cur/w.target*100)+'%';v.box.dataset.progress=String(cur);}
function tick(){const now=Date.now();for(const v of timers){const at=Date.parse(v.w.at);v.clock.textContent=clock(v.w.mode==='countdown'?at-now:now-at);}}
setInterval(tick,1000);
function play(v){
  if(v.playing||v.queue.length===0)return;v.playing=true;const a=v.queue.shift();
  v.block.style.background=COLORS[a.type]||'#6d7cff';v.card.style.boxShadow='inset 0 0 0 4px '+(COLORS[a.type]||'#6d7cff');
  v.text.textContent=a.text;v.card.classList.add('on');v.card.dataset.alert=a.id;
  setTimeout(()=>{v.card.classList.remove('on');delete v.card.dataset.alert;setTimeout(()=>{v.playing=false;play(v);},400);},a.durationMs);
}
function onMessage(m){
  if(m.type==='overlay.state'){widgets=m.widgets;goals=m.goals;events=m.events;chat=m.chat;sponsors=m.sponsors||{};draw();}
  else if(m.type==='overlay.alert'){const v=views.get(m.widgetId);if(v&&v.card){v.queue.push(m.alert);play(v);}}
  else if(m.type==='overlay.events'){events=events.concat(m.events).slice(-10);for(const v of views.values())if(v.w.kind==='recentEvents')for(const e of m.events)if(v.w.types.includes(e.type))line(v.list,e.username,e.text,v.w.count);}
  else if(m.type==='overlay.chat'){chat=chat.concat(m.messages).slice(-20);for(const v of views.values())if(v.w.kind==='chatBox')for(const c of m.messages)line(v.list,c.username,c.text,v.w.count);}
  else if(m.type==='overlay.goals'){Object.assign(goals,m.goals);for(const v of views.values())if(v.w.kind==='goalBar')goal(v);}
  else if(m.type==='overlay.closed'){widgets=[];draw();}
}
let closed=false;
function connect(){
  const ws=new WebSocket((location.protocol==='https:'?'wss:':'ws:')+'//'+location.host+location.pathname+'/ws'+location.search);
  ws.onmessage=(e)=>{try{onMessage(JSON.parse(e.data));}catch(err){}};
  ws.onclose=(e)=>{if(e.code===4404){closed=true;widgets=[];draw();return;}if(!closed)setTimeout(connect,1000);};
  document.body.dataset.feed='connecting';ws.onopen=()=>{document.body.dataset.feed='open';};
}
connect();
</script></body></html>`;
}

/** Serves overlay pages to whoever holds the address with its key: OBS, the render worker, a creator's browser. */
export function overlayPageRoutes(overlays: OverlayService): Router {
  const router = Router();
  // Uploaded pictures of image widgets: stored as PNG by the uploads store and served as exactly
  // that (never sniffed, never HTML or SVG), to whoever holds the overlay's key.
  router.get(OVERLAY_IMAGE_PATH, async (req, res) => {
    const { overlayId, uploadId } = req.params as { overlayId: string; uploadId: string };
    const image = isUuid(overlayId) && isUuid(uploadId) ? await overlays.publicImage(overlayId, req.query.key, uploadId) : null;
    if (!image) return signedPageNotFound(res);
    await sendStoredPicture(res, image, { 'cache-control': 'private, max-age=300', 'referrer-policy': 'no-referrer' });
  });
  router.get(OVERLAY_PAGE_PATH, async (req, res) => {
    const { overlayId } = req.params as { overlayId: string };
    const overlay = isUuid(overlayId) ? await overlays.findByKey(overlayId, req.query.key) : null;
    if (!overlay) return signedPageNotFound(res);
    sendSignedPage(res, page, { img: "'self' http: https: data:" });
  });
  return router;
}
