// The people of a project with a role (spec §6): co-hosts, contributors and viewers invited by
// e-mail, their roles changed and taken back by those who manage guests; and the invitee's side,
// accepting from the mailed link.
import {
  acceptProjectInvitationEndpoint,
  inviteProjectMemberEndpoint,
  listProjectInvitationsEndpoint,
  listProjectMembersEndpoint,
  removeProjectMemberEndpoint,
  updateProjectMemberEndpoint,
  withdrawProjectInvitationEndpoint,
  type GrantableRole,
} from '@onair/protocol';
import { call } from '../api/call.ts';
import { UnauthorizedError } from '../api/http-errors.ts';
import { useGuestsStore } from '../stores/index.ts';
import { messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

// ─── Invitations to a project role (spec §6): accepting from the mailed link gives the role ───

export async function acceptInvitation(token: string | null): Promise<void> {
  if (!token) {
    useGuestsStore.setState({
      invitation: { kind: 'failed', message: 'This invitation link is incomplete. Open the link from the e-mail again.', needsSignIn: false },
    });
    return;
  }
  useGuestsStore.setState({ invitation: { kind: 'accepting' } });
  try {
    const accepted = await call(acceptProjectInvitationEndpoint, { body: { token } });
    useGuestsStore.setState({ invitation: { kind: 'accepted', ...accepted } });
  } catch (err) {
    const signIn = err instanceof UnauthorizedError;
    useGuestsStore.setState({
      invitation: {
        kind: 'failed',
        message: signIn ? 'Sign in with the address the invitation was sent to, then open the link from the e-mail again.' : messageOf(err),
        needsSignIn: signIn,
      },
    });
  }
}

// ─── Co-hosts, contributors and viewers (spec §6): invited by e-mail, roles changed and taken back ───

export async function loadPeople(projectId: string): Promise<void> {
  try {
    const [{ members }, { invitations }] = await Promise.all([
      call(listProjectMembersEndpoint, { params: { projectId } }),
      call(listProjectInvitationsEndpoint, { params: { projectId } }),
    ]);
    if (useGuestsStore.getState().projectId === projectId) useGuestsStore.setState({ members, invitations, peopleError: null });
  } catch (err) {
    useGuestsStore.setState({ peopleError: messageOf(err) });
  }
}

/** Mails an invitation; true when it went out (the form then clears). */
export async function inviteByEmail(email: string, role: GrantableRole): Promise<boolean> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return false;
  try {
    await call(inviteProjectMemberEndpoint, { params: { projectId }, body: { email, role } });
    showToast({ kind: 'success', title: 'Invitation sent', description: `${email} gets the role when they accept the e-mail.` });
    await loadPeople(projectId);
    return true;
  } catch (err) {
    useGuestsStore.setState({ peopleError: messageOf(err) });
    return false;
  }
}

export async function changeMemberRole(userId: string, role: GrantableRole): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return;
  try {
    await call(updateProjectMemberEndpoint, { params: { projectId, userId }, body: { role } });
    await loadPeople(projectId);
  } catch (err) {
    useGuestsStore.setState({ peopleError: messageOf(err) });
  }
}

export async function removeMember(userId: string): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return;
  try {
    await call(removeProjectMemberEndpoint, { params: { projectId, userId } });
    await loadPeople(projectId);
  } catch (err) {
    useGuestsStore.setState({ peopleError: messageOf(err) });
  }
}

export async function withdrawInvitation(invitationId: string): Promise<void> {
  const { projectId } = useGuestsStore.getState();
  if (!projectId) return;
  try {
    await call(withdrawProjectInvitationEndpoint, { params: { projectId, invitationId } });
    await loadPeople(projectId);
  } catch (err) {
    useGuestsStore.setState({ peopleError: messageOf(err) });
  }
}
