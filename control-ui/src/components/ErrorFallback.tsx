import { useMemo } from 'react';
import { Button } from './Button.tsx';
import styles from './ErrorFallback.module.css';

/** A short reference a creator can quote to support; it is logged with the error in the console. */
export function newErrorCode(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

function supportUrl(): string | null {
  const url = import.meta.env.VITE_SUPPORT_URL;
  return url && /^(https?:|mailto:)/.test(url) ? url : null;
}

/**
 * The error page of both areas (partner spec §8; studio spec §8 keeps its own title): what
 * happened, an error code to quote, the build and release, Contact support and Reload.
 */
export function ErrorFallback({ code }: { code?: string }) {
  const errorCode = useMemo(() => code ?? newErrorCode(), [code]);
  const partner = typeof window !== 'undefined' && window.location.pathname.startsWith('/partner');
  const support = supportUrl();
  return (
    <div role="alert" className={styles.fallback}>
      <h1 className={styles.title}>{partner ? 'So sorry, but there was a problem on this page.' : 'An error has occurred'}</h1>
      <p className={styles.detail}>Reloading the page usually helps. If it keeps happening, contact support and quote the error code.</p>
      <dl className={styles.facts}>
        <dt>Error code</dt>
        <dd>{errorCode}</dd>
        <dt>Build</dt>
        <dd>{__ONAIR_BUILD__}</dd>
        <dt>Release</dt>
        <dd>{__ONAIR_RELEASE__}</dd>
      </dl>
      <div className={styles.actions}>
        {support ? (
          <a className={styles.link} href={support}>
            Contact support
          </a>
        ) : (
          <span className={styles.detail}>Contact support: the person who runs this OnAir server.</span>
        )}
        <Button variant="primary" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </div>
    </div>
  );
}
