import { UserPlus, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { PermissionGroup, SentInvite } from '@onair/protocol';
import { answerInvite, loadCollaborators, removeInvite, updateInvitePermissions } from '../../actions/partner.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { usePartnerStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';
import { PermissionBadges } from '../partner-home/PermissionBadges.tsx';
import { InviteDialog } from './InviteDialog.tsx';
import { PermissionPicker } from './PermissionPicker.tsx';

const stateWords = { pending: 'Pending', accepted: 'Accepted', declined: 'Declined' } as const;

function EditPermissions({ invite, onClose }: { invite: SentInvite; onClose: () => void }) {
  const [groups, setGroups] = useState<PermissionGroup[]>(invite.permissions);
  const [error, setError] = useState<string | undefined>();
  const save = async () => {
    const result = await updateInvitePermissions(invite.id, groups);
    if (result.ok) onClose();
    else setError(result.fieldErrors.permissions ?? `Failed to update the permissions. ${result.message}`);
  };
  return (
    <Modal open onClose={onClose} title="Edit permissions" description="Choose what this collaborator may do on your channel.">
      <div className={styles.form}>
        <PermissionPicker value={groups} onChange={setGroups} error={error} />
        <div className={`${styles.actions} ${styles.full}`}>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" onClick={() => void save()}>
            Save
          </Button>
        </div>
      </div>
    </Modal>
  );
}

function SentTab() {
  const sent = usePartnerStore((s) => s.sent);
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<SentInvite | null>(null);
  return (
    <div className={styles.field}>
      <div className={styles.actions}>
        <Button variant="primary" onClick={() => setInviting(true)}>
          <UserPlus size={16} aria-hidden />
          Invite collaborator
        </Button>
      </div>
      {sent.length === 0 ? (
        <EmptyState icon={<Users size={32} />} title="No collaborators yet">
          Invite someone by e-mail or Twitch username to help with your overlays, chatbot, stats or creator site.
        </EmptyState>
      ) : (
        <ul className={styles.list} aria-label="Sent invitations">
          {sent.map((invite) => (
            <li key={invite.id} className={styles.item} aria-label={invite.invitee.value}>
              <div className={styles.itemMain}>
                <span className={styles.itemTitle}>
                  {invite.invitee.kind === 'twitch' ? `Twitch: ${invite.invitee.value}` : invite.invitee.value}
                  {invite.collaboratorName ? ` (${invite.collaboratorName})` : ''}
                </span>
                <span className={styles.state}>{stateWords[invite.state]}</span>
                <PermissionBadges groups={invite.permissions} />
              </div>
              <div className={styles.actions}>
                {invite.state !== 'declined' && <Button onClick={() => setEditing(invite)}>Edit permissions</Button>}
                {invite.state === 'declined' ? (
                  <Button onClick={() => void removeInvite(invite.id, { done: 'Invitation cleared', failed: 'Failed to clear the invitation' })}>Clear</Button>
                ) : (
                  <Button onClick={() => void removeInvite(invite.id, { done: 'Access revoked', failed: 'Failed to revoke access' })}>Revoke</Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
      {editing && <EditPermissions invite={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}

function ReceivedTab() {
  const received = usePartnerStore((s) => s.received);
  if (received.length === 0) {
    return (
      <EmptyState icon={<Users size={32} />} title="No invitations">
        When a creator invites you to help with their channel, the invitation appears here.
      </EmptyState>
    );
  }
  return (
    <ul className={styles.list} aria-label="Received invitations">
      {received.map((invite) => (
        <li key={invite.id} className={styles.item} aria-label={invite.channel.name}>
          <div className={styles.itemMain}>
            <span className={styles.itemTitle}>{invite.channel.name}</span>
            <span className={styles.state}>{stateWords[invite.state]}</span>
            {invite.message && <span className={styles.quote}>{invite.message}</span>}
            <PermissionBadges groups={invite.permissions} />
            {invite.state === 'pending' && <span className={styles.hint}>Accepting needs a connected Twitch account (Integrations).</span>}
          </div>
          <div className={styles.actions}>
            {invite.state === 'pending' ? (
              <>
                <Button onClick={() => void answerInvite(invite.id, 'decline')}>Decline</Button>
                <Button variant="primary" onClick={() => void answerInvite(invite.id, 'accept')}>
                  Accept
                </Button>
              </>
            ) : (
              <Button onClick={() => void answerInvite(invite.id, 'leave')}>Leave channel</Button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Settings › Collaborators (partner spec §2): sent and received invitations. */
export function CollaboratorsSection({ initialTab }: { initialTab: 'sent' | 'received' }) {
  const status = usePartnerStore((s) => s.collaboratorsStatus);
  useEffect(() => {
    void loadCollaborators();
  }, []);
  if (status === 'failed') return <EmptyState title="Failed to load your collaborators">Reload the page to try again.</EmptyState>;
  if (status !== 'ready') return null;
  return (
    <Tabs
      label="Collaborators"
      initialTab={initialTab}
      tabs={[
        { id: 'sent', label: 'Sent', panel: <SentTab /> },
        { id: 'received', label: 'Received', panel: <ReceivedTab /> },
      ]}
    />
  );
}
