import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';

describe('SecretBox', () => {
  const box = new SecretBox(SecretBox.generateKey());

  it('opens what it sealed, and never shows the plaintext in the sealed form', () => {
    const sealed = box.seal('live_123456_secretkey', 'destination:1');
    expect(sealed).not.toContain('live_123456');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.open(sealed, 'destination:1')).toBe('live_123456_secretkey');
    // A fresh IV every time: the same secret never seals the same way twice.
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a ciphertext moved to another context, tampered with, or sealed with another key', () => {
    const sealed = box.seal('k', 'destination:1');
    expect(() => box.open(sealed, 'destination:2')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('x').toString('base64url');
    expect(() => box.open(parts.join('.'), 'destination:1')).toThrow();
    expect(() => new SecretBox(SecretBox.generateKey()).open(sealed, 'destination:1')).toThrow();
    expect(() => box.open('plain text')).toThrow('not a sealed secret');
    // A tag cut short (forgery by truncation) is refused too.
    const short = sealed.split('.');
    short[2] = Buffer.from(short[2]!, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => box.open(short.join('.'), 'destination:1')).toThrow();
  });

  it('requires a 32-byte key', () => {
    expect(() => new SecretBox(Buffer.alloc(16).toString('base64'))).toThrow('32 bytes');
  });
});
