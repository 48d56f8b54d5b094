// Steps the partner-network tests share.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { PermissionGroup, PersonalInfo } from '@onair/protocol';
import { call, createTestUser, type StudioApi, type TestUser } from './studio-api.ts';

export const emailOf = (u: TestUser) => `${u.id}@example.test`;

/** A complete Get Started form; `username` must be unique per database. */
export function personalInfo(username: string, overrides: Partial<PersonalInfo> = {}): PersonalInfo {
  return {
    username,
    firstName: 'Ada',
    lastName: 'Lovelace',
    identity: 'She',
    pronouns: 'she/her',
    birthdate: '1995-04-23',
    country: 'DE',
    contentLanguage: 'de',
    streamingDevices: ['PC', 'PlayStation'],
    mainPlatform: 'Twitch',
    discoverySource: 'Referral',
    ...overrides,
  };
}

/**
 * Stands in for linking a Twitch account through OAuth (covered by auth-oauth.test.ts): the
 * account row better-auth writes and the login the Twitch sign-in records.
 */
export async function linkTwitch(api: StudioApi, user: TestUser, login: string): Promise<void> {
  const accountId = `twitch-${randomUUID()}`;
  await api.db.account.create({ data: { id: randomUUID(), accountId, providerId: 'twitch', userId: user.id } });
  await api.db.platformLogin.create({ data: { providerId: 'twitch', accountId, login: login.toLowerCase() } });
}

/** A collaborator of `owner`'s channel holding exactly `groups`, through invite and accept. */
export async function collaboratorWith(api: StudioApi, owner: TestUser, groups: PermissionGroup[]): Promise<{ user: TestUser; inviteId: string }> {
  const user = await createTestUser(api);
  await linkTwitch(api, user, `tw_${user.id.slice(0, 8)}`);
  const invited = await call(api, owner, 'POST', '/api/v1/partner/collaborators/sent', {
    invitee: { kind: 'email', email: emailOf(user) },
    permissions: groups,
  });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const inviteId = (invited.body as { id: string }).id;
  expect((await call(api, user, 'POST', `/api/v1/partner/collaborators/received/${inviteId}/accept`)).status).toBe(200);
  return { user, inviteId };
}
