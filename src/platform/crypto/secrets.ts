import { createHash, timingSafeEqual } from 'node:crypto';
import { pooledRandomBase64url } from './random-pool.js';

/** A random secret with `bytes` bytes of entropy, URL-safe. 32 bytes = 256 bits. */
export function randomSecret(bytes = 32): string {
  return pooledRandomBase64url(bytes);
}

/**
 * Secrets we issue carry at least 256 bits of entropy, so a plain SHA-256 is the right hash: a slow password hash
 * buys nothing against a brute force that is already impossible, and would cost every token request.
 */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function secretMatches(secret: string, expectedHash: Buffer): boolean {
  const actual = hashSecret(secret);
  return actual.length === expectedHash.length && timingSafeEqual(actual, expectedHash);
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}
