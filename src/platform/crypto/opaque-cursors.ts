import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Positions handed to clients (where an event stream or a request log left off) sealed so that they say nothing: a
 * position is a global counter or a database snapshot, and in the clear it would tell one tenant how busy the others
 * are. AES-256-GCM under a deployment secret, bound to a scope (`event-stream:<merchant id>`): a position opens only
 * in its own scope, so another tenant's is refused like a forged one.
 */
export class OpaqueCursors {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('OpaqueCursors needs a 32-byte key');
  }

  seal(scope: string, value: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(scope, 'utf8'));
    const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** The value, or undefined for a cursor that is not one of this scope's (forged, mangled, another tenant's). */
  open(scope: string, cursor: string): string | undefined {
    if (!/^[A-Za-z0-9_-]{38,2000}$/.test(cursor)) return undefined;
    const bytes = Buffer.from(cursor, 'base64url');
    if (bytes.length < 29) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
      decipher.setAAD(Buffer.from(scope, 'utf8'));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
