import { beforeEach, describe, expect, it } from 'vitest';
import type { HttpClient } from '../api/http-client.ts';
import { RequestFailedError, UnauthorizedError } from '../api/http-errors.ts';
import { initialPartnerState, usePartnerStore } from '../stores/index.ts';
import { loadChannel, loadPartnerAccount, sendInvite } from './partner.ts';

/** A client whose every call answers with the api error given (status and body as the api sends them). */
function failingClient(status: number, error: { code: string; message: string; details?: unknown }): HttpClient {
  const fail = () => Promise.reject(status === 401 ? new UnauthorizedError({ error }) : new RequestFailedError(status, { error }));
  return { getJson: fail, sendJson: fail };
}

beforeEach(() => usePartnerStore.setState(initialPartnerState()));

describe('partner actions', () => {
  it('puts the api’s words for the invitee under that field', async () => {
    const result = await sendInvite(
      { invitee: { kind: 'email', email: 'x' }, permissions: ['analytics'] },
      failingClient(400, {
        code: 'VALIDATION_FAILED',
        message: 'bad',
        details: { issues: [{ path: ['invitee', 'email'], message: 'Enter a valid email address' }] },
      }),
    );
    expect(result).toEqual({ ok: false, message: 'Check the highlighted fields.', fieldErrors: { invitee: 'Enter a valid email address' } });
  });

  it('keeps a refusal’s own words', async () => {
    const result = await sendInvite(
      { invitee: { kind: 'email', email: 'a@b.co' }, permissions: ['analytics'] },
      failingClient(409, {
        code: 'INVITE_ALREADY_COLLABORATES',
        message: 'a@b.co already collaborates on your channel or has an invitation waiting.',
        details: { field: 'email' },
      }),
    );
    expect(result).toMatchObject({ ok: false, message: 'a@b.co already collaborates on your channel or has an invitation waiting.' });
  });

  it('sends a signed-out partner area to sign-in and shows a channel refusal in words', async () => {
    await loadPartnerAccount(failingClient(401, { code: 'UNAUTHENTICATED', message: 'You need to sign in first.' }));
    expect(usePartnerStore.getState().accountStatus).toBe('unauthenticated');
    await loadChannel(
      'owner-1',
      failingClient(403, { code: 'FORBIDDEN', message: 'You are not a collaborator of this channel. Ask its owner for an invitation.' }),
    );
    expect(usePartnerStore.getState()).toMatchObject({
      channelStatus: 'failed',
      channelError: 'You are not a collaborator of this channel. Ask its owner for an invitation.',
    });
  });
});
