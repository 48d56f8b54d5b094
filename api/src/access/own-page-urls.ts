import { createHmac } from 'node:crypto';
import { signOwnPageUrl, verifyOwnPageUrl } from '@onair/runtime';
import type { ApiConfig } from '../config.ts';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The api's side of OnAir's own overlay pages as studio sources (runtime's own-pages.ts): it signs
 * their addresses, and the scene rules accept a private address only when it is of the api's own
 * origin (PUBLIC_URL; on one machine also its other loopback name) and carries a valid signature.
 */
export interface OwnPageUrls {
  sign(url: string): string;
  trusted(url: string): boolean;
}

export function ownPageSecret(config: Pick<ApiConfig, 'RENDER_PAGE_SECRET' | 'AUTH_SECRET'>): string {
  return config.RENDER_PAGE_SECRET ?? createHmac('sha256', config.AUTH_SECRET).update('onair-render-page-secret').digest('base64url');
}

export function ownPageUrls(config: Pick<ApiConfig, 'RENDER_PAGE_SECRET' | 'AUTH_SECRET' | 'PUBLIC_URL'>): OwnPageUrls {
  const secret = ownPageSecret(config);
  const own = new URL(config.PUBLIC_URL);
  const sameOrigin = (url: URL) =>
    url.origin === own.origin ||
    (url.protocol === own.protocol && url.port === own.port && LOOPBACK_NAMES.has(url.hostname) && LOOPBACK_NAMES.has(own.hostname));
  return {
    sign: (url) => signOwnPageUrl(secret, url),
    trusted: (url) => {
      try {
        return sameOrigin(new URL(url)) && verifyOwnPageUrl(secret, url);
      } catch {
        return false;
      }
    },
  };
}
