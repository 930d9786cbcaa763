import { createHash } from 'node:crypto';
import { drawRandom } from './random-pool.js';

/**
 * UUID version 7 (RFC 9562): a millisecond timestamp followed by randomness. Time-ordered ids keep B-tree inserts
 * at the right edge of the index instead of scattering them, and still look like any other UUID to clients.
 * Ids use wall time, not the sandbox clock: they identify, they do not schedule. The randomness comes from the pooled
 * CSPRNG buffer (ids are made several times per payment).
 */
export function newId(): string {
  const hex = drawRandom(16, (bytes, at) => {
    const ms = Date.now();
    // 48-bit timestamp, big-endian: the high 16 bits and the low 32 bits (bit operations in JS are 32-bit).
    bytes.writeUInt16BE(Math.floor(ms / 2 ** 32), at);
    bytes.writeUInt32BE(ms % 2 ** 32, at + 2);
    bytes[at + 6] = (bytes[at + 6]! & 0x0f) | 0x70;
    bytes[at + 8] = (bytes[at + 8]! & 0x3f) | 0x80;
    return bytes.toString('hex', at, at + 16);
  });
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * A uuid derived from `name` (version 5 layout over SHA-256): the same name always gives the same id, on any node.
 * For ids that must be found again rather than stored (an installment attempt's payment, a unit type).
 */
export function nameBasedId(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  const variant = ((Number.parseInt(h[16]!, 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
