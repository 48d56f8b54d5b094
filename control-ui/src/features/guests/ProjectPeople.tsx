import { MailPlus, UserX, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { grantableRoles, type GrantableRole, type ProjectInvitation, type ProjectMember } from '@onair/protocol';
import { changeMemberRole, inviteByEmail, removeMember, withdrawInvitation } from '../../actions/project-people.ts';
import { Button } from '../../components/Button.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { Select } from '../../components/Select.tsx';
import styles from './ProjectPeople.module.css';
import { Input } from '../../components/FormField.tsx';

const roleLabels: Record<GrantableRole, string> = { cohost: 'Co-host', contributor: 'Contributor', viewer: 'Viewer' };
const roleOptions = grantableRoles.map((role) => ({ value: role, label: roleLabels[role] }));

/**
 * Co-hosts, contributors and viewers (spec §6): invite by e-mail (they hold the role once they
 * accept), change a role, take it back, withdraw an invitation. For those who manage guests.
 */
export function ProjectPeople({ members, invitations, error }: { members: ProjectMember[]; invitations: ProjectInvitation[]; error: string | null }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<GrantableRole>('cohost');
  const [sending, setSending] = useState(false);
  const emailId = useId();
  const roleId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    if (await inviteByEmail(email.trim(), role)) setEmail('');
    setSending(false);
  };
  return (
    <section className={styles.people} aria-label="Co-hosts">
      <h3 className={styles.title}>Co-hosts and contributors</h3>
      <form className={styles.form} onSubmit={(e) => void submit(e)}>
        <label htmlFor={emailId} className={styles.srOnly}>
          E-mail address to invite
        </label>
        <Input
          id={emailId}
          className={styles.input}
          type="email"
          required
          placeholder="name@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <label htmlFor={roleId} className={styles.srOnly}>
          Role
        </label>
        <Select id={roleId} value={role} options={roleOptions} onValueChange={(value) => setRole(value as GrantableRole)} />
        <Button type="submit" disabled={sending || email.trim() === ''}>
          <MailPlus size={16} aria-hidden /> Invite
        </Button>
      </form>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      <ul className={styles.list}>
        {members.map((member) => (
          <li key={member.userId} className={styles.row}>
            <span className={styles.who}>{member.displayName || member.email}</span>
            {member.owner ? (
              <span className={styles.fixed}>Host</span>
            ) : (
              <>
                <Select
                  aria-label={`Role of ${member.email}`}
                  value={member.role}
                  options={roleOptions}
                  onValueChange={(value) => void changeMemberRole(member.userId, value as GrantableRole)}
                />
                <IconButton label={`Remove ${member.email}`} icon={<UserX size={16} />} onClick={() => void removeMember(member.userId)} />
              </>
            )}
          </li>
        ))}
        {invitations.map((invitation) => (
          <li key={invitation.id} className={styles.row}>
            <span className={styles.who}>{invitation.email}</span>
            <span className={styles.fixed}>{`${roleLabels[invitation.role]} · invited`}</span>
            <IconButton
              label={`Withdraw the invitation of ${invitation.email}`}
              icon={<X size={16} />}
              onClick={() => void withdrawInvitation(invitation.id)}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
