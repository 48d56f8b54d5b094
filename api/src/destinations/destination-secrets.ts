import { createHash } from 'node:crypto';
import { OnAirError } from '@onair/protocol';
import type { SecretBox } from '@onair/runtime';

export type SecretField = 'streamKey' | 'accessToken' | 'refreshToken';

/**
 * The destination secrets of one api: sealed with the operator's key, each bound to its row and
 * column. Without SECRETS_KEY nothing secret can be saved or used, and the creator is told so.
 */
export class DestinationSecrets {
  constructor(private readonly box: SecretBox | null) {}

  private need(): SecretBox {
    if (!this.box)
      throw new OnAirError('DEPENDENCY_UNAVAILABLE', 'This server cannot store stream keys or platform logins: its operator has not set SECRETS_KEY.');
    return this.box;
  }

  seal(destinationId: string, field: SecretField, plain: string): string {
    return this.need().seal(plain, `${destinationId}:${field}`);
  }

  sealOrNull(destinationId: string, field: SecretField, plain: string | null | undefined): string | null {
    return plain ? this.seal(destinationId, field, plain) : null;
  }

  /**
   * A stream key as a destination row stores it: sealed, plus its SHA-256 so a console publishing
   * with its Twitch key to OnAir's ingest finds the project (keys are long random strings: a plain
   * digest is enough to look one up and reveals nothing).
   */
  streamKeyColumns(destinationId: string, plain: string | null | undefined): { streamKeyEnc: string | null; streamKeyHash: string | null } {
    return { streamKeyEnc: this.sealOrNull(destinationId, 'streamKey', plain), streamKeyHash: plain ? streamKeyDigest(plain) : null };
  }

  open(destinationId: string, field: SecretField, sealed: string): string {
    try {
      return this.need().open(sealed, `${destinationId}:${field}`);
    } catch (err) {
      if (err instanceof OnAirError) throw err;
      // A row sealed with another key (SECRETS_KEY rotated without re-encryption) or tampered with.
      throw new OnAirError('INTERNAL', 'A saved secret of this destination cannot be read.');
    }
  }
}

export function streamKeyDigest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
