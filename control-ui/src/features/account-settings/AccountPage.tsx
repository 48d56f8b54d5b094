import { CircleUserRound, UserRound } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { DISPLAY_NAME_MAX, type CurrentUser, type MailingSettings, type MfaSetup } from '@onair/protocol';
import {
  confirmEmailChange,
  confirmMfaSetup,
  confirmPhoneNumber,
  deleteAccount,
  disableMfa,
  requestEmailChange,
  requestPhoneVerification,
  saveMailing,
  startMfaSetup,
  updateDisplayName,
} from '../../actions/account.ts';
import { loadDeletionStatus } from '../../actions/partner-deletion.ts';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Modal } from '../../components/Modal.tsx';
import { canConfirmDelete, canSaveDisplayName } from '../../model/account.ts';
import { usePartnerSettingsStore, useSessionStore } from '../../stores/index.ts';
import dialog from './AccountSettingsPage.module.css';
import styles from './AccountPage.module.css';
import { Input } from '../../components/FormField.tsx';

function Avatar({ user }: { user: CurrentUser }) {
  if (user.avatar) return <img className={styles.avatar} src={user.avatar} alt="" />;
  return (
    <span className={styles.defaultAvatar} aria-hidden>
      <CircleUserRound size={40} />
    </span>
  );
}

/** Spec §2/§5: inline 'Change name'; Save is disabled while pending, empty or unchanged. */
function DisplayName({ user }: { user: CurrentUser }) {
  const inputId = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(user.displayName);
  const [pending, setPending] = useState(false);
  const trimmed = draft.trim();
  const canSave = canSaveDisplayName(draft, user.displayName, pending);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSave) return;
    setPending(true);
    const saved = await updateDisplayName(trimmed);
    setPending(false);
    if (saved) setEditing(false);
  };
  if (!editing) {
    return (
      <div className={styles.field}>
        <span className={styles.fieldLabel}>Name</span>
        <div className={styles.row}>
          {user.displayName ? <span className={styles.value}>{user.displayName}</span> : <span className={styles.placeholder}>No name set</span>}
          <Button
            variant="ghost"
            onClick={() => {
              setDraft(user.displayName);
              setEditing(true);
            }}
          >
            Change name
          </Button>
        </div>
      </div>
    );
  }
  return (
    <form className={styles.field} onSubmit={(e) => void save(e)}>
      <label className={styles.fieldLabel} htmlFor={inputId}>
        Name
      </label>
      <div className={styles.row}>
        <Input id={inputId} className={styles.input} value={draft} maxLength={DISPLAY_NAME_MAX} onChange={(e) => setDraft(e.target.value)} autoFocus />
        <Button type="submit" variant="primary" disabled={!canSave}>
          Save
        </Button>
        <Button onClick={() => setEditing(false)} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

interface CodeDialogText {
  title: string;
  description: string;
  addressLabel: string;
  sendLabel: string;
  confirmLabel: string;
}

/**
 * An address verified by a code, as a small dialog: the address (e-mail or phone number), then the
 * code sent to it. `request` sends the code, `confirm` checks it; each answers an error or null.
 */
function VerifyWithCodeDialog(props: {
  open: boolean;
  onClose: () => void;
  text: CodeDialogText;
  input: { type: 'email' | 'tel'; placeholder?: string };
  request: (address: string) => Promise<string | null>;
  confirm: (address: string, code: string) => Promise<string | null>;
}) {
  const { open, onClose, text, input } = props;
  const addressId = useId();
  const codeId = useId();
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setAddress('');
    setCode('');
    setSent(false);
    setError(null);
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    const problem = sent ? await props.confirm(address, code) : await props.request(address);
    setPending(false);
    setError(problem);
    if (problem) return;
    if (sent) close();
    else setSent(true);
  };
  return (
    <Modal open={open} onClose={close} title={text.title} description={text.description}>
      <form className={styles.dialogBody} onSubmit={(e) => void submit(e)}>
        <div className={styles.field}>
          <label className={styles.fieldLabel} htmlFor={addressId}>
            {text.addressLabel}
          </label>
          <Input
            id={addressId}
            type={input.type}
            placeholder={input.placeholder}
            className={styles.input}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            disabled={sent}
            required
            autoFocus
          />
        </div>
        {sent && (
          <div className={styles.field}>
            <label className={styles.fieldLabel} htmlFor={codeId}>
              Code sent to {address}
            </label>
            <Input
              id={codeId}
              inputMode="numeric"
              autoComplete="one-time-code"
              className={styles.input}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
              maxLength={6}
              required
              autoFocus
            />
          </div>
        )}
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        <div className={styles.footerButtons}>
          <Button type="submit" variant="primary" disabled={pending || address.trim() === '' || (sent && code.length !== 6)}>
            {sent ? text.confirmLabel : text.sendLabel}
          </Button>
          <Button onClick={close}>Cancel</Button>
        </div>
      </form>
    </Modal>
  );
}

/** The login provider's e-mail update: the new address, then the code sent to it. */
function ChangeEmailDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <VerifyWithCodeDialog
      open={open}
      onClose={onClose}
      text={{
        title: 'Change email',
        description: 'Change the e-mail address you sign in with.',
        addressLabel: 'New e-mail address',
        sendLabel: 'Send code',
        confirmLabel: 'Confirm new e-mail',
      }}
      input={{ type: 'email' }}
      request={requestEmailChange}
      confirm={confirmEmailChange}
    />
  );
}

/** A phone number for SMS sign-in: the number, then the code texted to it. */
function PhoneDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <VerifyWithCodeDialog
      open={open}
      onClose={onClose}
      text={{
        title: 'Phone number',
        description: 'A verified phone number lets you sign in with a text message.',
        addressLabel: 'Phone number, international format',
        sendLabel: 'Text me a code',
        confirmLabel: 'Verify number',
      }}
      input={{ type: 'tel', placeholder: '+15551234567' }}
      request={requestPhoneVerification}
      confirm={confirmPhoneNumber}
    />
  );
}

function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const inputId = useId();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [pending, setPending] = useState(false);
  // The same deletion as the partner area's: the retention window comes from the server.
  const retentionDays = usePartnerSettingsStore((s) => s.deletion?.retentionDays ?? null);
  useEffect(() => {
    if (open) void loadDeletionStatus();
  }, [open]);
  const erasedWhen = retentionDays === null ? 'after the retention window' : `${retentionDays} days later`;
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!canConfirmDelete(typed)) return;
    setPending(true);
    const deleted = await deleteAccount(retentionDays);
    setPending(false);
    if (deleted) void navigate('/login');
  };
  return (
    <Modal
      open={open}
      onClose={() => {
        setTyped('');
        onClose();
      }}
      title="Delete account"
      description={`Your account is deactivated at once and erased for good ${erasedWhen}.`}
    >
      <form className={styles.dialogBody} onSubmit={(e) => void confirm(e)}>
        <p>
          You are signed out everywhere and your live broadcasts stop. Your projects, scenes and destinations are erased {erasedWhen}; signing in before then
          lets you reactivate your account.
        </p>
        <div className={styles.field}>
          <label className={styles.fieldLabel} htmlFor={inputId}>
            Type delete to confirm
          </label>
          <Input id={inputId} className={styles.input} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" autoFocus />
        </div>
        <div className={styles.footerButtons}>
          <Button type="submit" variant="primary" disabled={pending || !canConfirmDelete(typed)}>
            Delete account
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Modal>
  );
}

/** TOTP multi-factor: set up with an authenticator app (setup key and recovery codes), or turn off. */
function TwoStepVerification({ user }: { user: CurrentUser }) {
  const codeId = useId();
  const [setup, setSetup] = useState<MfaSetup | null>(null);
  const [code, setCode] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const begin = async () => {
    setPending(true);
    const answer = await startMfaSetup();
    setPending(false);
    if (typeof answer === 'string') setError(answer);
    else {
      setError(null);
      setSetup(answer);
    }
  };
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    const problem = await confirmMfaSetup(code);
    setPending(false);
    setError(problem);
    if (!problem) {
      setSetup(null);
      setCode('');
    }
  };
  const setupKey = setup ? (new URL(setup.totpURI).searchParams.get('secret') ?? '') : '';
  return (
    <div className={styles.section}>
      <h3 className={styles.subheading}>Two-step verification</h3>
      {user.twoFactorEnabled ? (
        <div className={styles.row}>
          <span className={styles.muted}>On: signing in asks for a code from your authenticator app.</span>
          <Button onClick={() => void disableMfa()}>Turn off</Button>
        </div>
      ) : setup ? (
        <form className={styles.field} onSubmit={(e) => void confirm(e)}>
          <p className={styles.muted}>
            Add OnAir to your authenticator app with this setup key, or <a href={setup.totpURI}>open it in the app</a>:
          </p>
          <code className={styles.secret}>{setupKey}</code>
          <p className={styles.muted}>Keep these recovery codes somewhere safe. Each signs you in once if you lose your phone:</p>
          <ul className={styles.codes} aria-label="Recovery codes">
            {setup.backupCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <label className={styles.fieldLabel} htmlFor={codeId}>
            Code from the app
          </label>
          <div className={styles.row}>
            <Input
              id={codeId}
              inputMode="numeric"
              className={styles.input}
              value={code}
              maxLength={6}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            />
            <Button type="submit" variant="primary" disabled={pending || code.length !== 6}>
              Turn on
            </Button>
            <Button onClick={() => setSetup(null)}>Cancel</Button>
          </div>
        </form>
      ) : (
        <div className={styles.row}>
          <span className={styles.muted}>Off: add a code from an authenticator app to every sign-in.</span>
          <Button onClick={() => void begin()} disabled={pending}>
            Set up
          </Button>
        </div>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Spec §2 Email Preferences, edited as a draft that the page's Save sends (preferences and subscribed flag). */
function EmailPreferences({ mailing, draft, onChange }: { mailing: MailingSettings; draft: MailingDraft; onChange: (next: MailingDraft) => void }) {
  return (
    <div className={styles.section}>
      <h3 className={styles.subheading}>Email Preferences</h3>
      {draft.subscribed ? (
        <>
          <div className={styles.checkboxes}>
            {mailing.availableGroups.map((group) => (
              <label key={group.id} className={styles.checkbox}>
                <input
                  type="checkbox"
                  checked={draft.preferences[group.id] ?? false}
                  onChange={(e) => onChange({ ...draft, preferences: { ...draft.preferences, [group.id]: e.target.checked } })}
                />
                {group.displayName}
              </label>
            ))}
          </div>
          <button type="button" className={styles.linkButton} onClick={() => onChange({ ...draft, subscribed: false })}>
            Unsubscribe
          </button>
        </>
      ) : (
        <>
          <p className={styles.muted}>Get news and important product updates about the studio.</p>
          <button type="button" className={styles.linkButton} onClick={() => onChange({ ...draft, subscribed: true })}>
            Subscribe
          </button>
        </>
      )}
    </div>
  );
}

interface MailingDraft {
  subscribed: boolean;
  preferences: Record<string, boolean>;
}

function draftOf(mailing: MailingSettings): MailingDraft {
  return { subscribed: mailing.subscribed, preferences: { ...mailing.preferences } };
}

function sameDraft(a: MailingDraft, b: MailingDraft): boolean {
  return a.subscribed === b.subscribed && Object.keys({ ...a.preferences, ...b.preferences }).every((k) => a.preferences[k] === b.preferences[k]);
}

function SignedInAccount({ user, mailing }: { user: CurrentUser; mailing: MailingSettings | null }) {
  const [changingEmail, setChangingEmail] = useState(false);
  const [changingPhone, setChangingPhone] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [draft, setDraft] = useState<MailingDraft | null>(mailing ? draftOf(mailing) : null);
  const [saving, setSaving] = useState(false);
  const saved = mailing ? draftOf(mailing) : null;
  const dirty = draft !== null && saved !== null && !sameDraft(draft, saved);
  const save = async () => {
    if (!draft) return;
    setSaving(true);
    await saveMailing(draft.preferences, draft.subscribed);
    setSaving(false);
  };
  return (
    <>
      <div className={styles.section}>
        <div className={styles.profile}>
          <Avatar user={user} />
          <DisplayName user={user} />
        </div>
        <div className={styles.field}>
          <span className={styles.fieldLabel}>E-mail</span>
          <div className={styles.row}>
            <span className={styles.value}>{user.email}</span>
            <Button variant="ghost" onClick={() => setChangingEmail(true)}>
              Change email
            </Button>
          </div>
        </div>
        <div className={styles.field}>
          <span className={styles.fieldLabel}>Phone (for sign-in by text message)</span>
          <div className={styles.row}>
            {user.phoneNumber ? <span className={styles.value}>{user.phoneNumber}</span> : <span className={styles.placeholder}>No phone number</span>}
            <Button variant="ghost" onClick={() => setChangingPhone(true)}>
              {user.phoneNumber ? 'Change phone' : 'Add phone'}
            </Button>
          </div>
        </div>
      </div>
      {mailing?.enabled && draft && <EmailPreferences mailing={mailing} draft={draft} onChange={setDraft} />}
      <TwoStepVerification user={user} />
      <footer className={styles.footer}>
        <button type="button" className={styles.danger} onClick={() => setDeleting(true)}>
          Delete account
        </button>
        <div className={styles.footerButtons}>
          <Button onClick={() => saved && setDraft(saved)} disabled={!dirty || saving}>
            Cancel
          </Button>
          <Button variant="primary" onClick={() => void save()} disabled={!dirty || saving}>
            Save
          </Button>
        </div>
      </footer>
      <ChangeEmailDialog open={changingEmail} onClose={() => setChangingEmail(false)} />
      <PhoneDialog open={changingPhone} onClose={() => setChangingPhone(false)} />
      <DeleteAccountDialog open={deleting} onClose={() => setDeleting(false)} />
    </>
  );
}

/** Spec §2 Account page: avatar, display name, e-mail, Email Preferences, Save/Cancel and 'Delete account'. */
export function AccountPage() {
  const user = useSessionStore((s) => s.user);
  const mailing = useSessionStore((s) => s.settings?.mailing ?? null);
  return (
    <section aria-labelledby="account-page-heading">
      <h2 id="account-page-heading" className={dialog.heading}>
        Account
      </h2>
      {user ? (
        // Keyed by the saved settings so a refresh after Save resets the draft to what the server holds.
        <SignedInAccount key={JSON.stringify(mailing)} user={user} mailing={mailing} />
      ) : (
        <EmptyState icon={<UserRound size={32} />} title="You are not signed in">
          <p>
            Your name, e-mail and e-mail preferences appear here once you <Link to="/login">sign in</Link>.
          </p>
        </EmptyState>
      )}
    </section>
  );
}
