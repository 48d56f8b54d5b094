import { Layers } from 'lucide-react';
import { useEffect, useState } from 'react';
import { addOverlayToScene, loadOverlayChoices, type OverlayChoice } from '../../actions/studio-overlays.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import styles from './OverlayPickerDialog.module.css';

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; choices: OverlayChoice[] };

/**
 * The partner network's overlays (issue 23) as studio sources: the overlays of the channels the
 * user may view overlays of, each added to the active scene by its signed studio address, so
 * nobody copies addresses by hand.
 */
export function OverlayPickerDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [adding, setAdding] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setLoaded({ state: 'loading' });
    void loadOverlayChoices().then((r) => setLoaded(r.ok ? { state: 'ready', choices: r.value } : { state: 'failed', message: r.message }));
  }, [open]);

  const add = async (choice: OverlayChoice) => {
    setAdding(choice.overlayId);
    const ok = await addOverlayToScene(choice);
    setAdding(null);
    if (ok) onClose();
  };

  return (
    <Modal open={open} onClose={onClose} title="Overlays" description="Add one of your partner network overlays to the active scene.">
      <div className={styles.body}>
        {loaded.state === 'loading' && <p className={styles.muted}>Loading your overlays…</p>}
        {loaded.state === 'failed' && (
          <p role="alert" className={styles.error}>
            {loaded.message}
          </p>
        )}
        {loaded.state === 'ready' && loaded.choices.length === 0 && (
          <div className={styles.empty}>
            <Layers size={28} aria-hidden />
            <p>No overlays yet.</p>
            <p className={styles.muted}>
              Build one from alerts, goals, chat and more in{' '}
              <a href="/partner/overlays" target="_blank" rel="noreferrer">
                Partner network › Overlays
              </a>
              , then add it here.
            </p>
          </div>
        )}
        {loaded.state === 'ready' && loaded.choices.length > 0 && (
          <ul className={styles.list} aria-label="Your overlays">
            {loaded.choices.map((choice) => (
              <li key={choice.overlayId} className={styles.row}>
                <div className={styles.details}>
                  <span className={styles.name}>{choice.name}</span>
                  <span className={styles.muted}>
                    {choice.widgetCount} {choice.widgetCount === 1 ? 'widget' : 'widgets'}
                    {choice.owner ? '' : ` · ${choice.channelName}'s channel`}
                  </span>
                </div>
                <Button variant="secondary" disabled={adding !== null} onClick={() => void add(choice)} aria-label={`Add ${choice.name} to the scene`}>
                  {adding === choice.overlayId ? 'Adding…' : 'Add to scene'}
                </Button>
              </li>
            ))}
          </ul>
        )}
        <p className={styles.muted}>An overlay covers the whole canvas on a transparent background, and changes live as you edit it.</p>
      </div>
    </Modal>
  );
}
