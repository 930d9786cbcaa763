/**
 * A PostgreSQL snapshot (`pg_current_snapshot()`, text form `xmin:xmax:xip,...`): which transactions had committed
 * when it was taken. Following a table in the order its rows became visible needs it: a row written by a transaction
 * that started earlier (a lower id, a lower sequence number) can commit later, so "everything after id N" skips it,
 * while "everything not visible in the snapshot of my last read" cannot.
 */
export interface Snapshot {
  xmin: bigint;
  xmax: bigint;
  inProgress: ReadonlySet<bigint>;
}

const SNAPSHOT = /^(\d{1,20}):(\d{1,20}):((?:\d{1,20}(?:,\d{1,20})*)?)$/;

export function parseSnapshot(text: string): Snapshot | undefined {
  const match = SNAPSHOT.exec(text);
  if (!match) return undefined;
  const xmin = BigInt(match[1]!);
  const xmax = BigInt(match[2]!);
  if (xmax < xmin) return undefined;
  const inProgress = new Set(match[3] ? match[3].split(',').map((id) => BigInt(id)) : []);
  for (const id of inProgress) if (id < xmin || id >= xmax) return undefined;
  return { xmin, xmax, inProgress };
}

/**
 * Whether a committed transaction's work was visible in the snapshot (pg_visible_in_snapshot, for rows already known
 * to be committed): it ended before the snapshot was taken.
 */
export function visibleIn(snapshot: Snapshot, txid: bigint): boolean {
  if (txid < snapshot.xmin) return true;
  if (txid >= snapshot.xmax) return false;
  return !snapshot.inProgress.has(txid);
}

/** Whether everything visible in `older` is visible in `newer` too (so `older` says nothing `newer` does not). */
export function dominates(newer: Snapshot, older: Snapshot): boolean {
  if (older.xmax > newer.xmax) return false;
  // A transaction newer sees as running must be one older did not see committed either.
  for (const id of newer.inProgress) {
    if (id < older.xmax && (id < older.xmin || !older.inProgress.has(id))) return false;
  }
  return true;
}
