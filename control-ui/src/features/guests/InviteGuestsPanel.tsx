import { Copy, HelpCircle, Link2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { copyGuestLink, generateNewGuestLink } from '../../actions/guest-panel.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { useOpenAccountSettings } from '../account-settings/use-open-account-settings.ts';
import styles from './InviteGuestsPanel.module.css';

/**
 * Spec §2 Invite Guests panel: Copy Guest Link, Generate New Link, Learn More. Says how many guests
 * the plan admits (spec §6 maximum-guests), and offers the upgrade when it admits none.
 */
export interface InviteGuestsPanelProps {
  /** Guests the plan admits at once: null for no limit, undefined until known. */
  maximum: number | null | undefined;
  busy: 'copy' | 'generate' | null;
  /** Only the owner can upgrade the plan the project follows. */
  isOwner: boolean;
}

export function InviteGuestsPanel({ maximum, busy, isOwner, guests }: InviteGuestsPanelProps & { guests: number }) {
  const [learning, setLearning] = useState(false);
  const openAccountSettings = useOpenAccountSettings();
  // Issue 52: a plan without guests is known before any click: the link would only turn guests away.
  const noGuests = maximum === 0;
  return (
    <section className={styles.invite} aria-label="Invite Guests">
      <div className={styles.heading}>
        <Link2 size={18} aria-hidden />
        <h3 className={styles.title}>Invite Guests</h3>
      </div>
      <p className={styles.lead}>Send your guest link to anyone you want on the show. They join from their browser, with no account.</p>
      {maximum === 0 ? (
        <p className={styles.limit} role="note" id="guest-limit-reason">
          Your plan does not include guests, so the guest link is off. Premium lets up to 10 guests join.
          {isOwner && (
            <Button variant="ghost" className={styles.upgrade} onClick={() => openAccountSettings('plan')}>
              Upgrade
            </Button>
          )}
        </p>
      ) : (
        maximum !== undefined && (
          <p className={styles.count}>
            {maximum === null ? `${guests} ${guests === 1 ? 'guest' : 'guests'} in the studio` : `${guests} of ${maximum} guests in the studio`}
          </p>
        )
      )}
      <div className={styles.actions}>
        <Button
          variant="primary"
          onClick={() => void copyGuestLink()}
          disabled={busy !== null || noGuests}
          aria-describedby={noGuests ? 'guest-limit-reason' : undefined}
        >
          <Copy size={16} aria-hidden /> Copy Guest Link
        </Button>
        <Button onClick={() => void generateNewGuestLink()} disabled={busy !== null || noGuests} aria-describedby={noGuests ? 'guest-limit-reason' : undefined}>
          <RefreshCw size={16} aria-hidden /> {busy === 'generate' ? 'Generating…' : 'Generate New Link'}
        </Button>
        <Button variant="ghost" onClick={() => setLearning(true)}>
          <HelpCircle size={16} aria-hidden /> Learn More
        </Button>
      </div>
      <Modal open={learning} onClose={() => setLearning(false)} title="Guests by link" description="How guest links work">
        <div className={styles.learn}>
          <p>
            Anyone with your guest link can open it in their browser, pick their camera and microphone, give a name and join your studio. No account is needed.
          </p>
          <p>
            Guests appear in the Guests tab. Hover a guest and choose Add to scene to put their camera on the stream; set their volume or mute them from their
            tile.
          </p>
          <p>
            Your project has one guest link at a time. Generate New Link makes a new one and the old link stops working at once; guests who already joined stay
            until you remove them.
          </p>
          <p>Guests can see the program and talk with you in Guest Chat. They cannot change your scenes, destinations or broadcast.</p>
        </div>
      </Modal>
    </section>
  );
}
