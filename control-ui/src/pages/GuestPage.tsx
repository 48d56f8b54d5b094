import { Users } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation, useParams } from 'react-router';
import { readGuestLink } from '../actions/app.ts';
import { loadDevices, stopCameraPreviews } from '../actions/devices.ts';
import { closeGuestPage, openGuestPage, rejoinAsGuest } from '../actions/guest-page.ts';
import { Brand } from '../components/Brand.tsx';
import { Button } from '../components/Button.tsx';
import { GuestCameraSettings } from '../features/guests/GuestCameraSettings.tsx';
import { GuestStudio } from '../features/guests/GuestStudio.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import { useGuestsStore, type GuestPageStep } from '../stores/index.ts';
import styles from '../styles/CardPage.module.css';
import guestStyles from '../features/guests/GuestPage.module.css';

const leftWords = {
  left: { title: 'You left the studio', lead: 'Thanks for joining. You can come back while the guest link works.' },
  removed: { title: 'You were removed from the studio', lead: 'The host removed you from the studio.' },
  ended: { title: 'You are no longer in the studio', lead: 'Your guest session ended. Open the guest link again to rejoin.' },
} as const;

/**
 * Where a guest link lands (spec §2): `/guest/<project>?guestToken=…` (or `at=` in a local
 * environment). The link is checked first; a refused one gets a page that says why. Otherwise the
 * Camera Settings panel, then the studio as a guest.
 */
export function GuestPage() {
  const projectId = useParams().projectId ?? '';
  const { search } = useLocation();
  const stored = useGuestsStore((s) => s.page);
  // A path without a project is an incomplete link whatever the store holds (known on first paint).
  const page: GuestPageStep = projectId
    ? stored
    : { kind: 'refused', title: 'This guest link is incomplete', message: 'Ask the host to send you their guest link again.' };
  useDocumentTitle(page.kind === 'joined' ? `${page.projectName} · Guest` : 'Join as a guest');
  useEffect(() => {
    const { guestToken } = readGuestLink(search);
    if (projectId) void openGuestPage(projectId, guestToken);
    return () => {
      closeGuestPage();
      stopCameraPreviews();
    };
  }, [projectId, search]);
  useEffect(() => {
    if (page.kind === 'settings') void loadDevices();
  }, [page.kind]);

  if (page.kind === 'joined') return <GuestStudio projectName={page.projectName} displayName={page.displayName} />;
  if (page.kind === 'settings' || page.kind === 'joining') {
    return (
      <main className={guestStyles.screen}>
        <div className={guestStyles.panel}>
          <Brand />
          <GuestCameraSettings projectName={page.projectName} joining={page.kind === 'joining'} />
        </div>
      </main>
    );
  }
  return (
    <main className={styles.screen}>
      <div className={styles.card} data-testid="guest-page-card">
        <Brand />
        <Users size={36} aria-hidden className={styles.icon} />
        {page.kind === 'checking' && <p className={styles.lead}>Checking your guest link…</p>}
        {page.kind === 'refused' && (
          <>
            <h1 className={styles.title}>{page.title}</h1>
            <p className={styles.lead}>{page.message}</p>
          </>
        )}
        {page.kind === 'left' && (
          <>
            <h1 className={styles.title}>{leftWords[page.reason].title}</h1>
            <p className={styles.lead}>{leftWords[page.reason].lead}</p>
            {page.reason !== 'removed' && (
              <Button variant="primary" onClick={() => void rejoinAsGuest()}>
                Join again
              </Button>
            )}
          </>
        )}
      </div>
    </main>
  );
}
