// The plan's on/off switches (studio spec §3, §6): `can-go-live` and `can-use-product` are read
// where they matter, so an operator suspends going live or the whole studio through a plan's
// entitlements. The owner's plan decides, whoever acts in the project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { errorCatalogue } from '@onair/protocol';
import { SecretBox } from '@onair/runtime';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;

beforeAll(async () => {
  api = await startStudioApi({ env: { SECRETS_KEY: SecretBox.generateKey(), LOCAL_RTMP_URL: 'rtmp://127.0.0.1:19350/live' } });
});
afterAll(async () => {
  await api?.close();
});

async function switchOff(user: TestUser, featureId: 'can-go-live' | 'can-use-product', value = 'false'): Promise<void> {
  const changed = await api.db.entitlement.updateMany({ where: { featureId, subscription: { userId: user.id } }, data: { value } });
  expect(changed.count).toBe(1);
}

async function newProject(user: TestUser): Promise<string> {
  const res = await call(api, user, 'POST', '/api/v1/projects', { name: 'Plan switches' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: string }).id;
}

describe('can-go-live', () => {
  it('refuses Go Live with GO_LIVE_NOT_IN_PLAN when the value is not "true", for the owner and a cohost alike', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const projectId = await newProject(host);
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' })).status).toBe(201);
    await switchOff(host, 'can-go-live', 'TRUE');

    const refused = await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast`);
    expect(refused).toMatchObject({
      status: 403,
      body: { error: { code: 'GO_LIVE_NOT_IN_PLAN', message: errorCatalogue.GO_LIVE_NOT_IN_PLAN.message, details: { entitlement: 'can-go-live' } } },
    });
    expect(await api.db.broadcast.count({ where: { projectId } })).toBe(0);

    // A cohost on a plan that may go live still goes live on the owner's plan.
    const cohost = await createTestUser(api, { plan: 'VIP' });
    await api.db.projectMember.create({ data: { projectId, userId: cohost.id, role: 'cohost' } });
    expect(await call(api, cohost, 'POST', `/api/v1/projects/${projectId}/broadcast`)).toMatchObject({
      status: 403,
      body: { error: { code: 'GO_LIVE_NOT_IN_PLAN' } },
    });
    // Opening the studio is still allowed: only going live is suspended.
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/session`)).status).toBe(202);
  });
});

describe('can-use-product', () => {
  it('refuses making a project and opening a studio session with PRODUCT_NOT_IN_PLAN', async () => {
    const host = await createTestUser(api, { plan: 'Premium' });
    const projectId = await newProject(host);
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/session`)).status).toBe(202);
    await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/session`);
    await switchOff(host, 'can-use-product');

    expect(await call(api, host, 'POST', '/api/v1/projects', { name: 'Another' })).toMatchObject({
      status: 403,
      body: { error: { code: 'PRODUCT_NOT_IN_PLAN', message: errorCatalogue.PRODUCT_NOT_IN_PLAN.message, details: { entitlement: 'can-use-product' } } },
    });
    expect(await call(api, host, 'POST', `/api/v1/projects/${projectId}/session`)).toMatchObject({
      status: 403,
      body: { error: { code: 'PRODUCT_NOT_IN_PLAN' } },
    });
    // Joining the studio's room (which opens the session) is refused with the same words over /ws.
    const ws = new WebSocket(api.wsUrl, { headers: { cookie: host.cookie } });
    const messages: { type: string; code?: string; message?: string }[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as { type: string }));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'room.join', projectId }));
    await expect
      .poll(() => messages.find((m) => m.type === 'error'), { timeout: 5000 })
      .toMatchObject({
        code: 'PRODUCT_NOT_IN_PLAN',
        message: errorCatalogue.PRODUCT_NOT_IN_PLAN.message,
      });
    ws.terminate();
    // Going live needs the studio too: refused before anything starts.
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/destinations`, { type: 'Local' })).status).toBe(201);
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/broadcast`)).body).toMatchObject({ error: { code: 'PRODUCT_NOT_IN_PLAN' } });
    expect(await api.db.broadcast.count({ where: { projectId } })).toBe(0);
  });

  it('lets a Free user (no subscription row: the Free plan grants both) make and open projects', async () => {
    const free = await createTestUser(api);
    const projectId = await newProject(free);
    expect((await call(api, free, 'POST', `/api/v1/projects/${projectId}/session`)).status).toBe(202);
  });
});
