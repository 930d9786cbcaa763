import type { OpaqueCursors } from '../../platform/crypto/opaque-cursors.js';
import { dominates, parseSnapshot, type Snapshot, visibleIn } from '../../platform/db/snapshot.js';

/**
 * Where a stream stands, exactly: `seen` are snapshots whose visible events were all sent (or were there before the
 * stream opened); with `to`, a batch is being sent, in order of `seq`, of the events visible in `to` and in none of
 * `seen`, up to `seq`. What comes next is what no snapshot of `seen` shows: a transaction that started earlier but
 * committed later is still found, and nothing is sent twice. Sealed for the client (OpaqueCursors) as each message's
 * `id`, so `Last-Event-ID` resumes exactly there, on any node.
 */
export interface StreamPosition {
  seen: string[];
  to: string | null;
  seq: number;
}

const MAX_SEEN = 4;

/** Whether an event of this transaction is news to a stream at this position (visible in none of `seen`). */
export function isNew(seen: readonly Snapshot[], txid: bigint): boolean {
  return !seen.some((snapshot) => visibleIn(snapshot, txid));
}

/** `seen` with `latest` added, without the snapshots it makes redundant (at most a few are kept). */
export function withSeen(seen: readonly string[], latest: string): string[] {
  const newest = parseSnapshot(latest)!;
  const kept = seen.filter((text) => text !== latest && !dominates(newest, parseSnapshot(text)!));
  return [latest, ...kept].slice(0, MAX_SEEN);
}

export function sealPosition(cursors: OpaqueCursors, merchantId: string, position: StreamPosition): string {
  return cursors.seal(scope(merchantId), JSON.stringify([position.seen, position.to, position.seq]));
}

/** The position a client sent back, or undefined when it is not one of this merchant's streams. */
export function openPosition(cursors: OpaqueCursors, merchantId: string, cursor: string): StreamPosition | undefined {
  const text = cursors.open(scope(merchantId), cursor);
  if (text === undefined) return undefined;
  try {
    const [seen, to, seq] = JSON.parse(text) as [unknown, unknown, unknown];
    if (!Array.isArray(seen) || seen.length === 0 || seen.length > MAX_SEEN) return undefined;
    if (!seen.every((s) => typeof s === 'string' && parseSnapshot(s))) return undefined;
    if (to !== null && (typeof to !== 'string' || !parseSnapshot(to))) return undefined;
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return undefined;
    return { seen: seen as string[], to, seq };
  } catch {
    return undefined;
  }
}

const scope = (merchantId: string) => `event-stream:${merchantId}`;
