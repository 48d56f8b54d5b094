// k6 load of the studio api on a real deployment (k6 is not installable on our build machines):
//   k6 run -e BASE_URL=https://staging.onair.example load-tests/k6/studio.js
// Each virtual user is one creator with an open studio:
//   1. signs in by e-mail code, reading the code from the development inbox (the deployment must
//      run with DEV_INBOX=on: use a staging deployment, never production);
//   2. creates a project and opens VIEWERS WebSockets to /ws subscribed to it (the studio, the
//      guests' pages…), with the session cookie;
//   3. sends a scene patch every PATCH_INTERVAL_MS and measures, per socket, the time from sending
//      the patch to its `scene.patched` echo (the fan-out), for DURATION.
// Options (-e): BASE_URL, VUS (20), DURATION (1m), VIEWERS (5), PATCH_INTERVAL_MS (500),
// EMAIL_DOMAIN (example.com: the inbox is keyed by address, each VU uses its own).
/* global __ENV, __VU, console */
import http from 'k6/http';
import { check, fail } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { setInterval, clearInterval, setTimeout } from 'k6/timers';
import { WebSocket } from 'k6/experimental/websockets';

const base = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
const viewers = Number(__ENV.VIEWERS || 5);
const patchIntervalMs = Number(__ENV.PATCH_INTERVAL_MS || 500);
const durationMs = parseDuration(__ENV.DURATION || '1m');
const emailDomain = __ENV.EMAIL_DOMAIN || 'example.com';

const signInMs = new Trend('onair_sign_in_ms', true);
const patchMs = new Trend('onair_scene_patch_ms', true);
const fanoutMs = new Trend('onair_scene_fanout_ms', true);
const patchConflicts = new Counter('onair_scene_patch_conflicts');
const missedEchoes = new Counter('onair_scene_missed_echoes');

export const options = {
  scenarios: {
    studios: { executor: 'per-vu-iterations', vus: Number(__ENV.VUS || 20), iterations: 1, maxDuration: `${Math.ceil(durationMs / 1000) + 60}s` },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    onair_scene_patch_ms: ['p(95)<250'],
    // ARCHITECTURE: a scene change reaches every open studio quickly; the worker target is 100 ms p95 on top.
    onair_scene_fanout_ms: ['p(95)<300'],
    onair_scene_missed_echoes: ['count<1'],
  },
};

function parseDuration(text) {
  const m = /^(\d+)(ms|s|m)$/.exec(text);
  if (!m) throw new Error(`DURATION must look like 500ms, 30s or 2m, not ${text}`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60000 }[m[2]];
}

function json(method, path, body) {
  return http.request(method, `${base}${path}`, body === undefined ? null : JSON.stringify(body), {
    headers: { 'content-type': 'application/json' },
    tags: { name: path.replace(/[0-9a-f-]{36}/g, ':id') },
  });
}

function signIn(email) {
  const started = Date.now();
  const before = inbox(email).length;
  const sent = json('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
  if (!check(sent, { 'code sent': (r) => r.status === 200 })) fail(`sending the code answered ${sent.status}`);
  let code;
  for (let i = 0; i < 50 && !code; i++) {
    const messages = inbox(email);
    if (messages.length > before) code = (/\b(\d{6})\b/.exec(messages[0].text) || [])[1];
    else http.get(`${base}/healthz`, { tags: { name: 'wait' } });
  }
  if (!code) fail(`no sign-in code for ${email} in the development inbox (is DEV_INBOX=on?)`);
  const signedIn = json('POST', '/api/auth/sign-in/email-otp', { email, otp: code });
  if (!check(signedIn, { 'signed in': (r) => r.status === 200 })) fail(`sign-in answered ${signedIn.status}`);
  signInMs.add(Date.now() - started);
  const cookie = http.cookieJar().cookiesForURL(base)['onair.session_token'];
  if (!cookie || cookie.length === 0) fail('no session cookie after sign-in');
  return `onair.session_token=${cookie[0]}`;
}

function inbox(email) {
  const res = http.get(`${base}/api/v1/dev/inbox?to=${encodeURIComponent(email)}`, { tags: { name: '/api/v1/dev/inbox' } });
  if (res.status !== 200) fail(`the development inbox answered ${res.status}`);
  return res.json('messages');
}

export default function () {
  const email = `k6-${__VU}-${Date.now()}@${emailDomain}`;
  const cookie = signIn(email);

  const created = json('POST', '/api/v1/projects', { name: `k6 studio ${__VU}` });
  if (!check(created, { 'project created': (r) => r.status === 201 })) fail(`creating a project answered ${created.status}`);
  const projectId = created.json('id');
  const doc = json('GET', `/api/v1/projects/${projectId}/scene`);
  if (!check(doc, { 'scene read': (r) => r.status === 200 })) fail(`reading the scene answered ${doc.status}`);
  const sceneId = doc.json('activeSceneId');
  let version = doc.json('version');

  // version → when its patch was sent, and how many sockets still owe its echo.
  const pending = new Map();
  const sockets = [];
  let subscribed = 0;
  const wsUrl = `${base.replace(/^http/, 'ws')}/ws`;
  for (let i = 0; i < viewers; i++) {
    const ws = new WebSocket(wsUrl, null, { headers: { Cookie: cookie } });
    ws.onopen = () => ws.send(JSON.stringify({ type: 'subscribe', projectId }));
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === 'subscribed') subscribed += 1;
      if (msg.type !== 'scene.patched' || msg.projectId !== projectId) return;
      const p = pending.get(msg.version);
      if (!p) return;
      fanoutMs.add(Date.now() - p.sentAt);
      p.owed -= 1;
      if (p.owed === 0) pending.delete(msg.version);
    };
    ws.onerror = (e) => console.error(`ws error: ${e.error}`);
    sockets.push(ws);
  }

  let n = 0;
  const timer = setInterval(() => {
    if (subscribed < viewers) return;
    const sentAt = Date.now();
    const res = json('PATCH', `/api/v1/projects/${projectId}/scene`, { baseVersion: version, ops: [{ op: 'renameScene', sceneId, name: `Scene ${++n}` }] });
    patchMs.add(Date.now() - sentAt);
    if (res.status === 409) {
      patchConflicts.add(1);
      version = json('GET', `/api/v1/projects/${projectId}/scene`).json('version');
      return;
    }
    if (!check(res, { 'patch accepted': (r) => r.status === 200 })) return;
    version = res.json('version');
    pending.set(version, { sentAt, owed: viewers });
  }, patchIntervalMs);

  setTimeout(() => {
    clearInterval(timer);
    // Echoes still owed a second after the last patch were lost.
    setTimeout(() => {
      for (const p of pending.values()) missedEchoes.add(p.owed);
      for (const ws of sockets) ws.close();
    }, 1000);
  }, durationMs);
}
