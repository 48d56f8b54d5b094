import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/**
 * Encrypts stream keys and platform tokens at rest with AES-256-GCM. A sealed value is
 * `v1:<iv>:<tag>:<ciphertext>` (base64url), with a fresh 96-bit IV per value; the tag makes any
 * tampering with a row fail to open. `context` (the destination id and field) is bound as
 * additional data, so a ciphertext copied into another row or column does not open there either.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyBase64: string) {
    const key = Buffer.from(keyBase64, 'base64');
    if (key.length !== 32) throw new Error(`SECRETS_KEY must be 32 bytes in base64 (got ${key.length} bytes)`);
    this.key = key;
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(':');
  }

  /** Throws on a value that was not sealed with this key and context (never returns garbage). */
  open(sealed: string, context: string): string {
    const [version, iv, tag, ciphertext] = sealed.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv(ALGORITHM, this.key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** A new random key in the form SECRETS_KEY takes (what the embedded stack writes under .data on first start). */
export function generateSecretsKey(): string {
  return randomBytes(32).toString('base64');
}
