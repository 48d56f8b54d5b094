import { Router, type Response } from 'express';
import type { Redis } from 'ioredis';
import { ALERTS_OVERLAY_PATH, ALERTS_OVERLAY_SOUND_PATH, alertChannels, alertEventColors, alertNoticeSchema, isUuid, type AlertNotice } from '@onair/protocol';
import type { Logger } from '@onair/runtime';
import type { UploadService } from '../uploads/upload-service.ts';
import { sendStoredFile } from '../http/send-file.ts';
import { PageEventStreams, parseJson, sendSignedPage, signedPageNotFound } from '../http/signed-page.ts';
import type { AlertsService } from './alerts-service.ts';

const LOG_ID = /^\d{1,20}-\d{1,20}$/;

/** Stream ids in order: time, then sequence. */
function logIdAfter(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(BigInt) as [bigint, bigint];
  const [bm, bs] = b.split('-').map(BigInt) as [bigint, bigint];
  return am > bm || (am === bm && as > bs);
}
/**
 * An open stream, with the log id of the last alert it was sent (no alert goes out twice) and,
 * while the alerts it missed are being read back, the live ones held until they have gone out (a
 * live one sent first would move its cursor past the missed ones, and they would be skipped).
 */
interface OverlayClient {
  res: Response;
  last: string | null;
  held: AlertNotice[] | null;
}

const GLYPHS: Record<string, string> = { follow: '♥', sub: '★', resub: '↻', twitchRaid: '⚔', twitchCheer: '◆', tip: '$', charity: '✚' };

/**
 * The alerts overlay page: transparent, made to be rendered over the whole canvas by the render
 * worker. It plays the alerts it receives over server-sent events one at a time (a queue: an alert
 * never covers another), each as a card in the lower right — the type's colour block with its picture
 * or glyph, the message as text — with its sound (Web Audio), for its duration, then clears.
 */
function page(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OnAir alerts</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">
html,body{margin:0;height:100%;background:transparent;overflow:hidden;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
#card{position:fixed;left:55vw;top:70vh;width:40vw;height:20vh;display:none;align-items:stretch;background:#151821;border-radius:1.2vh;overflow:hidden;box-shadow:0 1vh 4vh rgba(0,0,0,.5)}
#card.on{display:flex}
#card.pop{animation:pop .3s ease-out}
#card.slide{animation:slide .35s ease-out}
#card.out{opacity:0;transition:opacity .3s}
#block{flex:0 0 20vh;display:flex;align-items:center;justify-content:center;color:#fff;font-size:9vh}
#block img{width:100%;height:100%;object-fit:cover}
#text{flex:1;display:flex;align-items:center;padding:0 2.4vh;color:#fff;font-size:3.6vh;font-weight:700;line-height:1.25;overflow-wrap:anywhere}
@keyframes pop{from{transform:scale(.8);opacity:0}to{transform:scale(1);opacity:1}}
@keyframes slide{from{transform:translateY(-4vh);opacity:0}to{transform:none;opacity:1}}
</style></head>
<body><div id="card" data-testid="alert-card"><div id="block"></div><div id="text"></div></div>
<script nonce="${nonce}">
const COLORS=${JSON.stringify(alertEventColors)};const GLYPHS=${JSON.stringify(GLYPHS)};
const card=document.getElementById('card'),block=document.getElementById('block'),text=document.getElementById('text');
const queue=[];let playing=false;let audio=null;let clip=null;
function sound(a){
  if(a.sound!=='upload'||!a.soundUploadId){tone(a.sound,a.durationMs);return;}
  // The creator's sound, read with this page's key; a chime when it cannot be played.
  try{
    clip=new Audio(location.pathname+'/sounds/'+encodeURIComponent(a.soundUploadId)+location.search);
    clip.onerror=()=>tone('chime',a.durationMs);
    clip.play().catch(()=>tone('chime',a.durationMs));
    card.dataset.sound=a.soundUploadId;
  }catch(e){tone('chime',a.durationMs);}
}
function tone(kind,ms){
  if(kind==='none')return;
  try{
    audio=audio||new AudioContext();
    const now=audio.currentTime,len=Math.min(ms-400,6000)/1000;
    const freqs=kind==='bell'?[660,990]:[880,1320];
    for(const f of freqs){
      const o=audio.createOscillator(),g=audio.createGain();
      o.type='sine';o.frequency.value=f;
      g.gain.setValueAtTime(0.0001,now);g.gain.exponentialRampToValueAtTime(0.25,now+0.03);
      g.gain.setValueAtTime(0.25,now+Math.max(0.05,len-0.3));g.gain.exponentialRampToValueAtTime(0.0001,now+len);
      o.connect(g).connect(audio.destination);o.start(now);o.stop(now+len+0.05);
    }
  }catch(e){}
}
function show(a){
  block.replaceChildren();block.style.background=COLORS[a.type]||'#6d7cff';
  if(a.imageUrl){const img=new Image();img.src=a.imageUrl;img.alt='';img.referrerPolicy='no-referrer';block.appendChild(img);}
  else block.textContent=GLYPHS[a.type]||'!';
  text.textContent=a.text;
  card.className='on '+(a.animation==='none'?'':a.animation);
  card.dataset.alert=a.id;card.dataset.type=a.type;
  sound(a);
}
function next(){
  if(playing||queue.length===0)return;
  playing=true;const a=queue.shift();show(a);
  setTimeout(()=>{card.classList.add('out');if(clip){clip.pause();clip=null;}setTimeout(()=>{card.className='';delete card.dataset.alert;delete card.dataset.sound;setTimeout(()=>{playing=false;next();},500);},300);},a.durationMs);
}
const source=new EventSource(location.pathname+'/stream'+location.search);
source.onmessage=(m)=>{try{queue.push(JSON.parse(m.data));next();}catch(e){}};
</script></body></html>`;
}

/**
 * Serves the alerts overlay (page and its event stream) to whoever holds the project's overlay key:
 * the render worker, or a creator's own streaming tool.
 */
export function alertsOverlayRoutes(deps: { redis: Redis; alerts: AlertsService; uploads: UploadService; logger: Logger }): Router & {
  close(): void;
} {
  const router = Router() as Router & { close(): void };
  const send = (client: OverlayClient, notice: AlertNotice) => {
    if (client.held) {
      client.held.push(notice);
      return;
    }
    if (client.last !== null && !logIdAfter(notice.logId, client.last)) return;
    client.last = notice.logId;
    client.res.write(`id: ${notice.logId}\ndata: ${JSON.stringify(notice.alert)}\n\n`);
  };
  const streams = new PageEventStreams<AlertNotice, OverlayClient>({
    redis: deps.redis,
    logger: deps.logger,
    what: 'alerts',
    channel: alertChannels.project,
    topicOf: alertChannels.projectOf,
    parse: (raw) => {
      const parsed = alertNoticeSchema.safeParse(parseJson(raw));
      return parsed.success ? parsed.data : undefined;
    },
    deliver: send,
  });

  const allowed = (projectId: string, key: unknown) => isUuid(projectId) && deps.alerts.checkKey(projectId, key);

  router.get(ALERTS_OVERLAY_PATH, (req, res) => {
    if (!allowed(req.params.projectId, req.query.key)) return signedPageNotFound(res);
    sendSignedPage(res, page, { img: 'http: https: data:', media: "'self'" });
  });

  // An uploaded alert sound: only the project's alert sounds, only with its overlay key.
  router.get(ALERTS_OVERLAY_SOUND_PATH, async (req, res) => {
    const { projectId, uploadId } = req.params;
    const found = allowed(projectId, req.query.key) && isUuid(uploadId) ? await deps.uploads.open(projectId, uploadId).catch(() => null) : null;
    if (!found || found.upload.purpose !== 'alert-sound') {
      found?.stream.destroy();
      signedPageNotFound(res);
      return;
    }
    await sendStoredFile(res, found, { 'content-type': found.upload.mimeType, 'cache-control': 'private, max-age=3600', 'referrer-policy': 'no-referrer' });
  });

  router.get(`${ALERTS_OVERLAY_PATH}/stream`, (req, res) => {
    const { projectId } = req.params;
    if (!allowed(projectId, req.query.key)) return signedPageNotFound(res);
    // Resumed after the last alert it played (the browser sends its id when it reconnects).
    const lastEventId = req.headers['last-event-id'];
    const last = typeof lastEventId === 'string' && LOG_ID.test(lastEventId) ? lastEventId : null;
    const client: OverlayClient = { res, last, held: last === null ? null : [] };
    streams.open(req, projectId, client, 'alerts');
    if (last !== null) {
      void deps.alerts
        .since(projectId, last)
        .catch((err: unknown) => {
          deps.logger.warn({ err: (err as Error).message, projectId }, 'missed alerts not replayed');
          return [] as AlertNotice[];
        })
        .then((missed) => {
          const held = client.held ?? [];
          client.held = null;
          // Oldest first: the missed ones, then the live ones that came meanwhile (one in both goes out once).
          for (const notice of [...missed, ...held]) send(client, notice);
        });
    }
  });

  router.close = () => streams.close();
  return router;
}
