import { Button } from './Button.tsx';
import styles from './ErrorFallback.module.css';

/** Spec §8: what a screen shows in place of content that failed to render. */
export function ErrorFallback() {
  return (
    <div role="alert" className={styles.fallback}>
      <h1 className={styles.title}>An error has occurred</h1>
      <p className={styles.detail}>Reloading the page usually helps. If it keeps happening, tell the person who runs this OnAir server.</p>
      <Button variant="primary" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </div>
  );
}
