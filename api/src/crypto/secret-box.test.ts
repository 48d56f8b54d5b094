import { describe, expect, it } from 'vitest';
import { generateSecretsKey, SecretBox } from './secret-box.ts';

describe('SecretBox', () => {
  const box = new SecretBox(generateSecretsKey());

  it('round-trips, with a fresh IV every time and no plaintext in the sealed text', () => {
    const a = box.seal('live_123_secret', 'd1:streamKey');
    const b = box.seal('live_123_secret', 'd1:streamKey');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(a).not.toContain('secret');
    expect(box.open(a, 'd1:streamKey')).toBe('live_123_secret');
  });

  it('refuses another key, another context and a tampered ciphertext', () => {
    const sealed = box.seal('token', 'd1:accessToken');
    expect(() => new SecretBox(generateSecretsKey()).open(sealed, 'd1:accessToken')).toThrow();
    expect(() => box.open(sealed, 'd2:accessToken')).toThrow();
    const parts = sealed.split(':');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([parts[0], parts[1], parts[2], flipped.toString('base64url')].join(':'), 'd1:accessToken')).toThrow();
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
