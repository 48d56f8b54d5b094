import { UserCheck } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { acceptInvitation } from '../actions/project-people.ts';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import { useGuestsStore } from '../stores/index.ts';
import styles from '../styles/CardPage.module.css';

const roleWords: Record<string, string> = { cohost: 'a co-host', contributor: 'a contributor', viewer: 'a viewer' };

/** Where an invitation mail's link lands (`/invitation?token=…`): accepting gives the role. */
export function InvitationPage() {
  useDocumentTitle('Invitation');
  const [params] = useSearchParams();
  const token = params.get('token');
  const step = useGuestsStore((s) => s.invitation);
  useEffect(() => {
    void acceptInvitation(token);
  }, [token]);
  return (
    <main className={styles.screen}>
      <div className={styles.card}>
        <UserCheck size={36} aria-hidden className={styles.icon} />
        {step.kind === 'accepting' && <p className={styles.lead}>Accepting your invitation…</p>}
        {step.kind === 'accepted' && (
          <>
            <h1 className={styles.title}>You joined {step.projectName}</h1>
            <p className={styles.lead}>You are now {roleWords[step.role] ?? step.role} of this project.</p>
            <Link to={`/studio/${step.projectId}`}>Open the studio</Link>
          </>
        )}
        {step.kind === 'failed' && (
          <>
            <h1 className={styles.title}>The invitation could not be accepted</h1>
            <p className={styles.lead}>{step.message}</p>
            {step.needsSignIn && <Link to="/login">Sign in</Link>}
          </>
        )}
      </div>
    </main>
  );
}
