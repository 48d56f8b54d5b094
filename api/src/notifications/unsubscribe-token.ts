import { createHmac, timingSafeEqual } from 'node:crypto';
import { emailPreferenceKinds, type EmailPreferenceKind } from '@onair/protocol';

const PURPOSE = 'onair-unsubscribe';

/**
 * The signed token of an unsubscribe link: which account turns off which kind of mail, signed with
 * a key derived from the server's AUTH_SECRET (HMAC-SHA256), so the link works without signing in
 * and nobody can write one for another account or another kind. It never expires (a digest read a
 * month later must still unsubscribe); changing AUTH_SECRET voids every link already mailed.
 */
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(authSecret: string) {
    this.key = createHmac('sha256', authSecret).update(`${PURPOSE}-key`).digest();
  }

  sign(userId: string, kind: EmailPreferenceKind): string {
    const payload = Buffer.from(`${userId}\n${kind}`, 'utf8').toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The account and kind of a genuine token; null for anything forged, altered or malformed. */
  verify(token: string): { userId: string; kind: EmailPreferenceKind } | null {
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const wanted = Buffer.from(this.mac(payload), 'base64url');
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return null;
    const [userId, kind, ...rest] = Buffer.from(payload, 'base64url').toString('utf8').split('\n');
    if (!userId || rest.length > 0 || !emailPreferenceKinds.includes(kind as EmailPreferenceKind)) return null;
    return { userId, kind: kind as EmailPreferenceKind };
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(`${PURPOSE}\n${payload}`).digest('base64url');
  }
}
