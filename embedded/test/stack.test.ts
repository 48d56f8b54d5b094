// The start command's own code path (`startStack`, which `./onair start` runs) on ephemeral ports in
// a temporary data folder: UI served, /readyz ready with one worker of each kind, and a second start
// on the same folder keeps what the first stored.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../src/stack.ts';

const logs: string[] = [];
const log = (source: string, line: string) => logs.push(`[${source}] ${line}`);

describe('the one-machine stack', () => {
  let dataDir: string;
  let firstTestKeys: Record<string, string>;
  let twitchToken: string;
  let stack: RunningStack | undefined;

  afterAll(async () => {
    await stack?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('starts everything, serves the UI and reports ready with one worker of each kind', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'onair-stack-'));
    stack = await startStack({ dataDir, port: 0, log });

    const ready = await fetch(`${stack.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { ready: boolean; checks: { mediaWorkers: { count: number }; renderWorkers: { count: number } } };
    expect(body.ready).toBe(true);
    expect(body.checks.mediaWorkers.count).toBe(1);
    expect(body.checks.renderWorkers.count).toBe(1);

    const page = await fetch(`${stack.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="root">');

    // The local RTMP server (each project's Local stream, each test-mode channel's ingest).
    expect(stack.localRtmp.server.running).toBe(true);
    // It writes HLS for the studio's Watch player, served on loopback (nothing published yet: 404).
    expect(stack.localRtmp.server.hlsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hls$/);
    expect((await fetch(`${stack.localRtmp.server.hlsUrl}/local_nothing_published/index.m3u8`)).status).toBe(404);

    // Without Stripe keys, billing runs in test mode against the Stripe double: the api holds its
    // webhook secret (a forged webhook is refused as unsigned, not as billing being unavailable).
    expect(stack.stripe).toBeDefined();
    const forged = await fetch(`${stack.url}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{}',
    });
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe('BILLING_WEBHOOK_SIGNATURE_INVALID');

    // Without platform OAuth clients, Twitch, YouTube and Facebook run in test mode on local doubles:
    // their consent pages say so, they are not offered for signing in, and each channel gets a
    // stream key of its own from its platform's double.
    expect(stack.platforms?.platforms).toEqual(['twitch', 'youtube', 'facebook']);
    const authorize = new URL(stack.platforms!.env.TWITCH_AUTHORIZATION_URL!);
    authorize.search = new URLSearchParams({
      client_id: stack.platforms!.env.TWITCH_CLIENT_ID!,
      response_type: 'code',
      redirect_uri: `${stack.url}/api/v1/destinations/auth/twitch/callback`,
      state: 's',
    }).toString();
    const consent = await fetch(authorize);
    expect(consent.status).toBe(200);
    expect(await consent.text()).toContain('Test mode — no real Twitch account');
    const methods = (await (await fetch(`${stack.url}/api/v1/auth/methods`)).json()) as { oauth: unknown[] };
    expect(methods.oauth).toEqual([]);
    const keys = stack.platforms!.streamKeys;
    firstTestKeys = { twitch: keys.twitch!.keyOf('42'), youtube: keys.youtube!.keyOf('UC42'), facebook: keys.facebook!.keyOf('100042') };
    expect(keys.twitch!.keyOf('43')).not.toBe(firstTestKeys.twitch);
    expect(stack.platforms!.streamKeyOwner(firstTestKeys.youtube!)).toEqual({ platform: 'youtube', channel: 'UC42' });
    // A Twitch login made now (as the consent page's code exchange makes one).
    twitchToken = stack.platforms!.twitch!.chat.issueToken({
      id: '42',
      login: 'probe',
      displayName: 'Probe',
      email: 'probe@twitch.test-mode.invalid',
    }).accessToken;
    expect(Object.keys(firstTestKeys)).toEqual(['twitch', 'youtube', 'facebook']);

    // Something to find again after the restart.
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    await db.query(`INSERT INTO users (id, email, name, updated_at) VALUES ('restart-probe', 'probe@example.com', 'Probe', now())`);
    await db.end();
  });

  it('stops cleanly and a second start on the same data keeps what the first stored', async () => {
    const { api, mediaWorker, renderWorker } = stack!.processes;
    await stack!.stop();
    stack = undefined;
    // Every process ended on its own with exit code 0: none had to be killed.
    expect([api, mediaWorker, renderWorker].map((p) => p.lastStop)).toEqual([0, 0, 0].map((code) => ({ kind: 'clean', code })));
    stack = await startStack({ dataDir, port: 0, log });

    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const { rows } = await db.query<{ name: string }>(`SELECT name FROM users WHERE id = 'restart-probe'`);
    const { rows: migrations } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM "_prisma_migrations"`);
    await db.end();
    expect(rows).toEqual([{ name: 'Probe' }]);
    // Secrets made on the first start are kept: what was sealed then still opens.
    // Each test-mode channel keeps its stream key.
    const keys = stack.platforms!.streamKeys;
    expect({ twitch: keys.twitch!.keyOf('42'), youtube: keys.youtube!.keyOf('UC42'), facebook: keys.facebook!.keyOf('100042') }).toEqual(firstTestKeys);
    // …and the test-mode platforms still know the logins made before: connected destinations stay connected.
    expect(stack.platforms?.twitch?.events.ownerOf(twitchToken)).toMatchObject({ id: '42', login: 'probe' });
    // The migrations were recorded once and not applied again.
    expect(Number(migrations[0]?.n)).toBeGreaterThan(0);
    expect(logs.some((l) => /migrations: 0 applied/.test(l))).toBe(true);
  });
});
