import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inbox, latestMessage } from './helpers/browser.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let host: TestUser;
let friend: TestUser;
let stranger: TestUser;
let projectId = '';

beforeAll(async () => {
  api = await startStudioApi();
  host = await createTestUser(api, { plan: 'Premium' });
  friend = await createTestUser(api);
  stranger = await createTestUser(api);
  projectId = ((await call(api, host, 'POST', '/api/v1/projects', { name: 'Together' })).body as { id: string }).id;
});
afterAll(async () => {
  await api?.close();
});

const emailOf = (u: TestUser) => `${u.id}@example.test`;

/** Invites by e-mail and accepts from the mailed link, as the invited person would; returns the accept answer. */
async function inviteAndAccept(who: TestUser, role: string, count = 1): Promise<{ status: number; body: unknown }> {
  const invited = await call(api, host, 'POST', `/api/v1/projects/${projectId}/invitations`, { email: emailOf(who).toUpperCase(), role });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const token = tokenIn(await latestMessage(api.url, emailOf(who), count));
  return call(api, who, 'POST', '/api/v1/invitations/accept', { token });
}

function tokenIn(message: { text: string }): string {
  const match = /\/invitation\?token=([\w%-]+)/.exec(message.text);
  if (!match) throw new Error(`no invitation link in: ${message.text}`);
  return decodeURIComponent(match[1]!);
}

describe('the people of a project', () => {
  it('invites by e-mail; accepting gives the role, which is listed, changed and taken back; the owner stays host', async () => {
    const invited = await call(api, host, 'POST', `/api/v1/projects/${projectId}/invitations`, { email: emailOf(friend).toUpperCase(), role: 'contributor' });
    expect(invited).toMatchObject({ status: 201, body: { email: emailOf(friend), role: 'contributor' } });
    const mail = await latestMessage(api.url, emailOf(friend));
    expect(mail.subject).toBe('You are invited to be a contributor of Together on OnAir');
    // Nothing is given before the invitation is accepted.
    expect((await call(api, friend, 'GET', `/api/v1/projects/${projectId}/scene`)).status).toBe(404);
    const listedInvitations = (await call(api, host, 'GET', `/api/v1/projects/${projectId}/invitations`)).body as { invitations: { email: string }[] };
    expect(listedInvitations.invitations.map((i) => i.email)).toEqual([emailOf(friend)]);
    // Only the invited account can accept; the token is stored hashed.
    const token = tokenIn(mail);
    expect(JSON.stringify(await api.db.projectInvitation.findMany({ where: { projectId } }))).not.toContain(token);
    expect(await call(api, stranger, 'POST', '/api/v1/invitations/accept', { token })).toMatchObject({
      status: 403,
      body: { error: { code: 'INVITATION_OTHER_ACCOUNT' } },
    });
    expect(await call(api, friend, 'POST', '/api/v1/invitations/accept', { token })).toMatchObject({
      status: 200,
      body: { projectId, projectName: 'Together', role: 'contributor' },
    });
    expect(await call(api, friend, 'POST', '/api/v1/invitations/accept', { token })).toMatchObject({
      status: 404,
      body: { error: { code: 'INVITATION_INVALID', message: 'This invitation is not valid any more. Ask the host to invite you again.' } },
    });

    // The project is now in the friend's list, and they may edit it (not manage its people).
    expect(((await call(api, friend, 'GET', '/api/v1/projects')).body as { projects: { id: string }[] }).projects.map((p) => p.id)).toContain(projectId);
    expect((await call(api, friend, 'GET', `/api/v1/projects/${projectId}/scene`)).status).toBe(200);
    expect(await call(api, friend, 'POST', `/api/v1/projects/${projectId}/invitations`, { email: emailOf(friend), role: 'cohost' })).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });

    const listed = (await call(api, friend, 'GET', `/api/v1/projects/${projectId}/members`)).body as {
      members: { userId: string; role: string; owner: boolean }[];
    };
    expect(listed.members.map((m) => [m.userId, m.role, m.owner])).toEqual([
      [host.id, 'host', true],
      [friend.id, 'contributor', false],
    ]);

    expect(await call(api, host, 'PATCH', `/api/v1/projects/${projectId}/members/${friend.id}`, { role: 'cohost' })).toMatchObject({
      status: 200,
      body: { role: 'cohost' },
    });
    // A co-host manages the people too, but the owner's role is fixed.
    expect(await call(api, friend, 'PATCH', `/api/v1/projects/${projectId}/members/${host.id}`, { role: 'viewer' })).toMatchObject({
      status: 422,
      body: { error: { code: 'OWNER_ROLE_FIXED' } },
    });
    expect(await call(api, friend, 'DELETE', `/api/v1/projects/${projectId}/members/${host.id}`)).toMatchObject({ status: 422 });
    expect((await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/members/${friend.id}`)).status).toBe(204);
    expect(await call(api, friend, 'GET', `/api/v1/projects/${projectId}/scene`)).toMatchObject({
      status: 404,
      body: { error: { message: 'This project does not exist.' } },
    });
  });

  it('refuses what cannot be given with words; a withdrawn or expired invitation cannot be accepted', async () => {
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/invitations`, { email: emailOf(friend), role: 'impersonate' })).status).toBe(400);
    expect((await call(api, host, 'POST', `/api/v1/projects/${projectId}/invitations`, { email: emailOf(host), role: 'viewer' })).status).toBe(422);

    const before = (await inbox(api.url, emailOf(stranger))).length;
    const invited = await call(api, host, 'POST', `/api/v1/projects/${projectId}/invitations`, { email: emailOf(stranger), role: 'viewer' });
    const token = tokenIn(await latestMessage(api.url, emailOf(stranger), before + 1));
    expect((await call(api, host, 'DELETE', `/api/v1/projects/${projectId}/invitations/${(invited.body as { id: string }).id}`)).status).toBe(204);
    expect(await call(api, stranger, 'POST', '/api/v1/invitations/accept', { token })).toMatchObject({
      status: 404,
      body: { error: { code: 'INVITATION_INVALID' } },
    });

    await call(api, host, 'POST', `/api/v1/projects/${projectId}/invitations`, { email: emailOf(stranger), role: 'viewer' });
    const late = tokenIn(await latestMessage(api.url, emailOf(stranger), before + 2));
    await api.db.projectInvitation.updateMany({ where: { projectId, acceptedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await call(api, stranger, 'POST', '/api/v1/invitations/accept', { token: late })).toMatchObject({
      status: 410,
      body: { error: { code: 'INVITATION_EXPIRED' } },
    });
    expect((await call(api, stranger, 'GET', `/api/v1/projects/${projectId}/scene`)).status).toBe(404);
  });

  it("edits a shared project with its owner's plan, whatever the editor's own", async () => {
    expect((await inviteAndAccept(friend, 'cohost', 2)).status).toBe(200);
    const doc = (await call(api, friend, 'GET', `/api/v1/projects/${projectId}/scene`)).body as { version: number };
    // 1080p is a Premium resolution: the Free co-host may pick it on the Premium owner's project.
    const res = await call(api, friend, 'PATCH', `/api/v1/projects/${projectId}/scene`, {
      baseVersion: doc.version,
      ops: [{ op: 'setResolution', resolution: '1080p' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
