import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The secrets of guests. A link's token is `<link id>.<MAC of the id>` under the server's secret:
 * the database keeps only its SHA-256 (for the lookup), and Copy Guest Link re-derives the token
 * from the id, so no usable token is ever stored. A guest session is a random cookie whose SHA-256
 * is kept. Neither is ever logged.
 */
export class GuestTokens {
  constructor(private readonly secret: string) {}

  linkToken(linkId: string): string {
    return `${linkId}.${this.mac(linkId)}`;
  }

  /** The link id a token names, when its MAC is right; null for anything forged or malformed. */
  linkIdOf(token: string): string | null {
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const linkId = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.mac(linkId));
    return given.length === expected.length && timingSafeEqual(given, expected) ? linkId : null;
  }

  newSessionToken(): string {
    return randomBytes(32).toString('base64url');
  }

  private mac(linkId: string): string {
    return createHmac('sha256', this.secret).update(`onair-guest-link:${linkId}`).digest('base64url');
  }
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** One cookie's value from a Cookie header (the api has no cookie parser of its own; better-auth reads its own). */
export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}
