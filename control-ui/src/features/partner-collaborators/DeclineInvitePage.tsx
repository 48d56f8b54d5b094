import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { declineInviteByLink } from '../../actions/partner.ts';
import { Button } from '../../components/Button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from '../partner-home/Partner.module.css';

/** Partner spec §2 auth page 'Decline Collaboration Invite': the invitation e-mail's link. */
export function DeclineInvitePage() {
  useDocumentTitle('Decline Collaboration Invite');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<{ kind: 'asking' | 'pending' } | { kind: 'done'; channelName: string } | { kind: 'failed'; message: string }>({
    kind: 'asking',
  });
  useEffect(() => {
    if (!token) setState({ kind: 'failed', message: 'This link is not complete. Open it again from the invitation e-mail.' });
  }, [token]);
  const decline = async () => {
    setState({ kind: 'pending' });
    const result = await declineInviteByLink(token);
    setState(result.ok ? { kind: 'done', channelName: result.value } : { kind: 'failed', message: result.message });
  };
  return (
    <div className={styles.onboarding}>
      <h1 className={styles.title}>Decline Collaboration Invite</h1>
      <section className={styles.card}>
        {(state.kind === 'asking' || state.kind === 'pending') && (
          <>
            <p>Do you want to decline this invitation to collaborate on a channel? The creator will see that you declined.</p>
            <div className={styles.actions}>
              <Button variant="primary" disabled={state.kind === 'pending'} onClick={() => void decline()}>
                Decline invitation
              </Button>
            </div>
          </>
        )}
        {state.kind === 'done' && <p role="status">You declined the invitation from {state.channelName}.</p>}
        {state.kind === 'failed' && (
          <p role="alert" className={styles.formError}>
            {state.message}
          </p>
        )}
        <Link to="/partner">Go to the partner network</Link>
      </section>
    </div>
  );
}
