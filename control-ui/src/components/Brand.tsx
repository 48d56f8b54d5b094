import { Link } from 'react-router';
import styles from './Brand.module.css';

/** The OnAir wordmark; links home, where a creator's projects are. */
export function Brand() {
  return (
    <Link to="/" className={styles.brand} aria-label="OnAir home">
      <span className={styles.dot} aria-hidden />
      OnAir
    </Link>
  );
}
