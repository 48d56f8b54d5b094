import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedInvite, SentInvite } from '@onair/protocol';
import { errorOf, inbox, latestMessage, signInByEmailCode, uniqueEmail } from './helpers/browser.ts';
import { collaboratorWith, emailOf, linkTwitch, personalInfo } from './helpers/partner.ts';
import { call, createTestUser, startStudioApi, type StudioApi, type TestUser } from './helpers/studio-api.ts';

let api: StudioApi;
let owner: TestUser;

beforeAll(async () => {
  api = await startStudioApi();
  owner = await createTestUser(api);
  await call(api, owner, 'POST', '/api/v1/partner/account/onboarding', personalInfo('OwnerChannel'));
});
afterAll(async () => {
  await api?.close();
});

const SENT = '/api/v1/partner/collaborators/sent';
const RECEIVED = '/api/v1/partner/collaborators/received';
const errorMessages = (body: unknown) => ((body as { error: { details: { issues: { message: string }[] } } }).error.details.issues ?? []).map((i) => i.message);

describe('collaborator invitations', () => {
  it('refuses bad invitees with the words of spec §5', async () => {
    const badEmail = await call(api, owner, 'POST', SENT, { invitee: { kind: 'email', email: 'not-an-address' }, permissions: ['analytics'] });
    expect(badEmail.status).toBe(400);
    expect(errorMessages(badEmail.body)).toContain('Enter a valid email address');
    const long = await call(api, owner, 'POST', SENT, { invitee: { kind: 'twitch', username: 'a'.repeat(42) }, permissions: ['analytics'] });
    expect(errorMessages(long.body)).toContain('Keep the text under 42 characters and use only Latin letters');
    const nonLatin = await call(api, owner, 'POST', SENT, { invitee: { kind: 'twitch', username: 'straße' }, permissions: ['analytics'] });
    expect(errorMessages(nonLatin.body)).toContain('Keep the text under 42 characters and use only Latin letters');
    const invalid = await call(api, owner, 'POST', SENT, { invitee: { kind: 'twitch', username: '_ab' }, permissions: ['analytics'] });
    expect(errorMessages(invalid.body)).toContain('Enter a valid Twitch username');
    const none = await call(api, owner, 'POST', SENT, { invitee: { kind: 'email', email: 'x@example.com' }, permissions: [] });
    expect(errorMessages(none.body)).toContain('Choose at least one permission');
    expect(await call(api, owner, 'POST', SENT, { invitee: { kind: 'email', email: emailOf(owner) }, permissions: ['analytics'] })).toMatchObject({
      status: 422,
      body: { error: { code: 'INVITE_TO_SELF' } },
    });
  });

  it('invite by e-mail → accept with Twitch → act with only the granted group → edit → revoke ends access at once', async () => {
    const friend = await createTestUser(api);
    const invited = await call(api, owner, 'POST', SENT, {
      invitee: { kind: 'email', email: emailOf(friend).toUpperCase() },
      message: 'Help me <b>please</b>',
      permissions: ['overlay.view'],
    });
    expect(invited).toMatchObject({
      status: 201,
      body: { invitee: { kind: 'email', value: emailOf(friend) }, state: 'pending', permissions: ['overlay.view'] },
    });
    const inviteId = (invited.body as SentInvite).id;
    const mail = await latestMessage(api.url, emailOf(friend));
    expect(mail.subject).toBe('OwnerChannel invited you to collaborate on their channel on OnAir');
    expect(mail.text).toContain('Help me <b>please</b>');
    expect(mail.html).toContain('Help me &#60;b&#62;please&#60;/b&#62;');
    expect(mail.text).toMatch(/Decline Collaboration Invite: http:\/\/127\.0\.0\.1:\d+\/partner\/decline-invite\?token=/);

    // Already invited (any case of the address): refused with words.
    expect(await call(api, owner, 'POST', SENT, { invitee: { kind: 'email', email: emailOf(friend) }, permissions: ['analytics'] })).toMatchObject({
      status: 409,
      body: {
        error: { code: 'INVITE_ALREADY_COLLABORATES', message: `${emailOf(friend)} already collaborates on your channel or has an invitation waiting.` },
      },
    });

    const received = (await call(api, friend, 'GET', RECEIVED)).body as { invites: ReceivedInvite[] };
    expect(received.invites).toEqual([expect.objectContaining({ id: inviteId, channel: { id: owner.id, name: 'OwnerChannel' }, state: 'pending' })]);
    // Spec §6: accepting needs a connected Twitch account.
    expect(await call(api, friend, 'POST', `${RECEIVED}/${inviteId}/accept`)).toMatchObject({
      status: 409,
      body: { error: { code: 'TWITCH_ACCOUNT_REQUIRED' } },
    });
    await linkTwitch(api, friend, 'friend_tw');
    expect(await call(api, friend, 'POST', `${RECEIVED}/${inviteId}/accept`)).toMatchObject({ status: 200, body: { state: 'accepted' } });
    expect(await call(api, friend, 'POST', `${RECEIVED}/${inviteId}/accept`)).toMatchObject({ status: 409, body: { error: { code: 'INVITE_NOT_PENDING' } } });

    // Now already a collaborator: a second invitation is refused.
    expect((await call(api, owner, 'POST', SENT, { invitee: { kind: 'email', email: emailOf(friend) }, permissions: ['analytics'] })).status).toBe(409);

    const channels = (await call(api, friend, 'GET', '/api/v1/partner/channels')).body as { channels: { id: string; owner: boolean; permissions: string[] }[] };
    expect(channels.channels.map((c) => [c.id, c.owner, c.permissions])).toEqual([
      [friend.id, true, []],
      [owner.id, false, ['overlay.view']],
    ]);
    expect((await call(api, friend, 'GET', `/api/v1/partner/channels/${owner.id}`)).status).toBe(200);
    expect(await call(api, friend, 'GET', `/api/v1/partner/channels/${owner.id}/streams`)).toMatchObject({
      status: 403,
      body: {
        error: { code: 'FORBIDDEN', message: 'Your access to this channel does not include Analytics (Stream stats). Ask the channel owner to grant it.' },
      },
    });
    expect((await call(api, friend, 'GET', `/api/v1/partner/channels/${owner.id}/collaborators`)).status).toBe(403);

    // The owner grants Analytics: the next request may.
    expect(await call(api, owner, 'PATCH', `${SENT}/${inviteId}`, { permissions: ['overlay.view', 'analytics'] })).toMatchObject({
      status: 200,
      body: { permissions: ['overlay.view', 'analytics'], collaboratorName: expect.any(String) },
    });
    expect(await call(api, friend, 'GET', `/api/v1/partner/channels/${owner.id}/streams`)).toMatchObject({ status: 200, body: { streams: [] } });
    // Someone else's invitation cannot be edited.
    expect((await call(api, friend, 'PATCH', `${SENT}/${inviteId}`, { permissions: ['analytics'] })).status).toBe(404);

    // Revoked: access ends with the next request.
    expect((await call(api, owner, 'DELETE', `${SENT}/${inviteId}`)).status).toBe(204);
    expect((await call(api, friend, 'GET', `/api/v1/partner/channels/${owner.id}/streams`)).status).toBe(403);
    expect((await call(api, friend, 'GET', `/api/v1/partner/channels/${owner.id}`)).status).toBe(403);
  });

  it("declines by the e-mail's link once, and the owner clears the declined invitation", async () => {
    const email = uniqueEmail('decliner');
    const invited = await call(api, owner, 'POST', SENT, { invitee: { kind: 'email', email }, permissions: ['chatbot.chat'] });
    const inviteId = (invited.body as SentInvite).id;
    const token = /token=([\w-]+)/.exec((await latestMessage(api.url, email)).text)![1]!;
    expect(await call(api, null, 'POST', '/api/v1/partner/collaborators/decline', { token })).toMatchObject({
      status: 200,
      body: { channelName: 'OwnerChannel' },
    });
    expect(await call(api, null, 'POST', '/api/v1/partner/collaborators/decline', { token })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVITE_LINK_INVALID' } },
    });
    expect(await call(api, null, 'POST', '/api/v1/partner/collaborators/decline', { token: 'x'.repeat(32) })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVITE_LINK_INVALID' } },
    });
    const sent = (await call(api, owner, 'GET', SENT)).body as { invites: SentInvite[] };
    expect(sent.invites.find((i) => i.id === inviteId)?.state).toBe('declined');
    // A declined invitation does not block a new one; clearing removes it.
    expect((await call(api, owner, 'DELETE', `${SENT}/${inviteId}`)).status).toBe(204);
    expect(((await call(api, owner, 'GET', SENT)).body as { invites: SentInvite[] }).invites.map((i) => i.id)).not.toContain(inviteId);
    expect((await call(api, owner, 'DELETE', `${SENT}/${inviteId}`)).status).toBe(404);
  });

  it('invites by Twitch username: the account with that Twitch login sees it, declines while signed in or accepts and later leaves', async () => {
    const streamer = await createTestUser(api);
    await linkTwitch(api, streamer, 'Night_Owl');
    const first = await call(api, owner, 'POST', SENT, { invitee: { kind: 'twitch', username: 'NIGHT_owl' }, permissions: ['chatbot.moderation'] });
    expect(first).toMatchObject({ status: 201, body: { invitee: { kind: 'twitch', value: 'night_owl' } } });
    // Mailed to the account behind that login.
    expect((await latestMessage(api.url, emailOf(streamer))).subject).toContain('OwnerChannel invited you');
    const firstId = (first.body as SentInvite).id;
    expect(await call(api, streamer, 'POST', `${RECEIVED}/${firstId}/decline`)).toMatchObject({ status: 200, body: { state: 'declined' } });
    const again = await call(api, owner, 'POST', SENT, { invitee: { kind: 'twitch', username: 'night_owl' }, permissions: ['chatbot.moderation'] });
    const againId = (again.body as SentInvite).id;
    // Someone else cannot answer it.
    const other = await createTestUser(api);
    await linkTwitch(api, other, 'other_owl');
    expect((await call(api, other, 'POST', `${RECEIVED}/${againId}/accept`)).status).toBe(404);
    expect((await call(api, streamer, 'POST', `${RECEIVED}/${againId}/accept`)).status).toBe(200);
    expect((await call(api, streamer, 'GET', `/api/v1/partner/channels/${owner.id}`)).status).toBe(200);
    expect((await call(api, streamer, 'DELETE', `${RECEIVED}/${againId}`)).status).toBe(204);
    expect((await call(api, streamer, 'GET', `/api/v1/partner/channels/${owner.id}`)).status).toBe(403);
    expect(((await call(api, owner, 'GET', SENT)).body as { invites: SentInvite[] }).invites.map((i) => i.id)).not.toContain(againId);
  });

  it('refuses a change to the e-mail address one already has with the address in the words', async () => {
    const email = uniqueEmail('collab');
    const browser = await signInByEmailCode(api.url, email);
    expect(await errorOf(await browser.post('/api/auth/email-otp/request-email-change', { newEmail: email.toUpperCase() }))).toEqual({
      status: 400,
      code: 'EMAIL_UNCHANGED',
      message: `Your email address is already ${email}`,
    });
    expect(await inbox(api.url, email)).toHaveLength(1);
  });
});

describe('collaborators in numbers', () => {
  it('a collaborator holds only the groups of their own invitation', async () => {
    const { user } = await collaboratorWith(api, owner, ['creator-site']);
    const channel = await call(api, user, 'GET', `/api/v1/partner/channels/${owner.id}`);
    expect(channel).toMatchObject({ status: 200, body: { id: owner.id, owner: false, permissions: ['creator-site'] } });
  });
});
