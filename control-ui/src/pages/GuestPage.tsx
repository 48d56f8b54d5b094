import { Users } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { readGuestLink } from '../actions/app.ts';
import { Brand } from '../components/Brand.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import { useAppStore } from '../stores/index.ts';
import styles from './CardPage.module.css';

/** Where a guest link lands (spec §2). It keeps the link's tokens for the join flow that follows. */
export function GuestPage() {
  useDocumentTitle('Join as a guest');
  const { search } = useLocation();
  useEffect(() => {
    readGuestLink(search);
  }, [search]);
  const guestToken = useAppStore((state) => state.guestToken);

  return (
    <main className={styles.screen}>
      <div className={styles.card}>
        <Brand />
        <Users size={36} aria-hidden className={styles.icon} />
        {guestToken ? (
          <>
            <h1 className={styles.title}>You are invited to a studio</h1>
            <p className={styles.lead}>Your guest link is recognised.</p>
            <p className={styles.notice} role="note">
              Joining a studio as a guest is not available on this server yet.
            </p>
          </>
        ) : (
          <>
            <h1 className={styles.title}>This guest link is incomplete</h1>
            <p className={styles.lead}>Ask the host to send you their guest link again.</p>
          </>
        )}
      </div>
    </main>
  );
}
