import { useId, useState, type FormEvent } from 'react';
import { INVITE_MESSAGE_MAX, type PermissionGroup } from '@onair/protocol';
import { sendInvite } from '../../actions/partner.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Select } from '../../components/Select.tsx';
import styles from '../partner-home/Partner.module.css';
import { PermissionPicker } from './PermissionPicker.tsx';
import { Input, TextArea } from '../../components/FormField.tsx';

/** Partner spec §3 Collaborator invite: e-mail or Twitch username, a message, permission groups. */
export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const base = useId();
  const [kind, setKind] = useState<'email' | 'twitch'>('email');
  const [who, setWho] = useState('');
  const [message, setMessage] = useState('');
  const [permissions, setPermissions] = useState<PermissionGroup[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const close = () => {
    setWho('');
    setMessage('');
    setPermissions([]);
    setErrors({});
    setFormError(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    const invitee = kind === 'email' ? { kind, email: who } : { kind, username: who };
    const result = await sendInvite({ invitee, message, permissions });
    setPending(false);
    if (result.ok) {
      close();
      return;
    }
    setErrors(result.fieldErrors);
    // A refusal about the invitee (already collaborates, own channel) reads under that field.
    const aboutInvitee = !('invitee' in result.fieldErrors) && /collaborat|your own channel/i.test(result.message);
    if (aboutInvitee) setErrors({ ...result.fieldErrors, invitee: result.message });
    setFormError(aboutInvitee || Object.keys(result.fieldErrors).length > 0 ? null : `Failed to send the invitation. ${result.message}`);
  };

  return (
    <Modal open={open} onClose={close} title="Invite a collaborator" description="Invite someone to help with your channel and choose what they may do.">
      <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${base}-kind`}>
            Invite by
          </label>
          <Select
            id={`${base}-kind`}
            value={kind}
            options={[
              { value: 'email', label: 'E-mail address' },
              { value: 'twitch', label: 'Twitch username' },
            ]}
            onValueChange={(v) => {
              setKind(v === 'twitch' ? 'twitch' : 'email');
              setErrors({});
            }}
          />
        </div>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${base}-who`}>
            {kind === 'email' ? 'E-mail address' : 'Twitch username'}
          </label>
          <Input
            id={`${base}-who`}
            className={styles.input}
            type={kind === 'email' ? 'email' : 'text'}
            value={who}
            placeholder={kind === 'email' ? 'friend@example.com' : 'their_twitch_name'}
            aria-invalid={!!errors.invitee}
            onChange={(e) => setWho(e.target.value)}
          />
          {errors.invitee && (
            <span className={styles.fieldError} role="alert">
              {errors.invitee}
            </span>
          )}
        </div>
        <div className={`${styles.field} ${styles.full}`}>
          <label className={styles.label} htmlFor={`${base}-message`}>
            Message (optional)
          </label>
          <TextArea
            id={`${base}-message`}
            className={`${styles.input} ${styles.textarea}`}
            value={message}
            maxLength={INVITE_MESSAGE_MAX}
            onChange={(e) => setMessage(e.target.value)}
          />
          {errors.message && <span className={styles.fieldError}>{errors.message}</span>}
        </div>
        <PermissionPicker value={permissions} onChange={setPermissions} error={errors.permissions} />
        <div className={`${styles.actions} ${styles.full}`}>
          {formError && (
            <span className={styles.formError} role="alert">
              {formError}
            </span>
          )}
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={pending || who.trim() === ''}>
            Send invitation
          </Button>
        </div>
      </form>
    </Modal>
  );
}
