import { Link2, Unlink } from 'lucide-react';
import { useRef, useState } from 'react';
import { AVATAR_TYPES, type EmailNotifications } from '@onair/protocol';
import { connectPlatform, disconnectLoginMethod, removeAvatar, saveEmailNotifications, savePersonalInfo, uploadAvatar } from '../../actions/partner.ts';
import { Link } from 'react-router';
import { Button } from '../../components/Button.tsx';
import { Switch } from '../../components/Switch.tsx';
import { DeleteAccountSection } from '../partner-account-deletion/DeleteAccountSection.tsx';
import { usePartnerStore, useSessionStore } from '../../stores/index.ts';
import styles from '../partner-home/Partner.module.css';
import { PersonalInfoForm } from './PersonalInfoForm.tsx';

/** Spec §5 media upload: the supported types and the largest size are said up front. */
function AvatarPicker() {
  const avatar = usePartnerStore((s) => s.account?.avatar ?? null);
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className={styles.item}>
      <div className={styles.check}>
        {avatar ? <img className={styles.avatar} src={avatar} alt="Your avatar" /> : <span className={styles.avatarEmpty} aria-hidden />}
        <div className={styles.itemMain}>
          <span className={styles.itemTitle}>Avatar</span>
          <span className={styles.hint}>PNG, JPEG or WebP, up to 0.5 MB.</span>
        </div>
      </div>
      <div className={styles.actions}>
        <input
          ref={input}
          className={styles.hiddenInput}
          type="file"
          aria-label="Avatar"
          accept={AVATAR_TYPES.join(',')}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void uploadAvatar(file);
            e.target.value = '';
          }}
        />
        <Button onClick={() => input.current?.click()}>{avatar ? 'Change avatar' : 'Upload avatar'}</Button>
        {avatar && <Button onClick={() => void removeAvatar()}>Remove</Button>}
      </div>
    </div>
  );
}

export function PersonalInformation() {
  const account = usePartnerStore((s) => s.account);
  if (!account) return null;
  return (
    <>
      <AvatarPicker />
      <PersonalInfoForm
        key={account.usernameChangeAvailableAt ?? 'open'}
        initial={account.profile}
        submitLabel="Save"
        usernameLockedUntil={account.usernameChangeAvailableAt}
        onSubmit={savePersonalInfo}
      />
    </>
  );
}

/** Partner spec §5: at least one login method stays connected; the api refuses otherwise and the button says so. */
export function Integrations() {
  const methods = usePartnerStore((s) => s.account?.loginMethods ?? []);
  return (
    <div className={styles.stack}>
      <ul className={styles.list} aria-label="Login methods">
        {methods.map((method) => (
          <li key={method.id} className={styles.item} aria-label={method.label}>
            <div className={styles.itemMain}>
              <span className={styles.itemTitle}>{method.label}</span>
              <span className={styles.muted}>{method.connected ? `Connected${method.detail ? ` as ${method.detail}` : ''}` : 'Not connected'}</span>
              {method.connected && !method.canDisconnect && method.id !== 'email' && (
                <span className={styles.hint}>This is your only way to sign in, so it stays connected.</span>
              )}
            </div>
            {method.id !== 'email' &&
              (method.connected ? (
                <Button disabled={!method.canDisconnect} onClick={() => void disconnectLoginMethod(method.id)}>
                  <Unlink size={16} aria-hidden />
                  Disconnect
                </Button>
              ) : (
                <Button onClick={() => void connectPlatform(method.id)}>
                  <Link2 size={16} aria-hidden />
                  Connect
                </Button>
              ))}
          </li>
        ))}
      </ul>
      {methods.every((m) => m.id === 'email') && (
        <p className={styles.hint}>This server offers no streaming platform to connect yet; you sign in with your e-mail.</p>
      )}
    </div>
  );
}

export function LoginAndSecurity() {
  const user = useSessionStore((s) => s.user);
  return (
    <div className={styles.stack}>
      <p>
        E-mail: <strong>{user?.email}</strong>
      </p>
      <p className={styles.muted}>Two-step verification is {user?.twoFactorEnabled ? 'on' : 'off'}.</p>
      <div>
        <Link to="/account">Change e-mail, phone or two-step verification</Link>
      </div>
      <DeleteAccountSection />
    </div>
  );
}

const notificationLabels: { key: keyof EmailNotifications; label: string; hint: string }[] = [
  { key: 'digest', label: 'Digest', hint: 'A summary of your channel now and then.' },
  { key: 'productUpdates', label: 'Product updates', hint: 'New features of OnAir.' },
  { key: 'partnerNews', label: 'Partner news', hint: 'Campaigns and offers of the partner network.' },
];

export function EmailNotificationsSection() {
  const saved = usePartnerStore((s) => s.account?.emailNotifications);
  const [draft, setDraft] = useState<EmailNotifications | null>(null);
  if (!saved) return null;
  const value = draft ?? saved;
  return (
    <div className={styles.field}>
      {notificationLabels.map(({ key, label, hint }) => (
        <div key={key} className={styles.item}>
          <div className={styles.itemMain}>
            <span className={styles.itemTitle}>{label}</span>
            <span className={styles.hint}>{hint}</span>
          </div>
          <Switch label={label} checked={value[key]} onCheckedChange={(checked) => setDraft({ ...value, [key]: checked })} />
        </div>
      ))}
      <div className={styles.actions}>
        <Button variant="primary" disabled={!draft} onClick={() => void saveEmailNotifications(value).then(() => setDraft(null))}>
          Save
        </Button>
      </div>
    </div>
  );
}
