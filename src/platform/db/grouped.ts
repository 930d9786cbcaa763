import { isUuid } from '../crypto/ids.js';

/**
 * Group commit in the application. Concurrent callers' small writes (and reads by id) are gathered and sent
 * together: one pool checkout, one round trip, one commit, and one execution of each statement-level cost (a
 * trigger, a ledger upsert, executor start-up) for the whole group instead of one per caller. Nobody waits for a
 * timer: a caller alone is written at once, and only while a group is being written do later callers queue, so a
 * group is exactly what arrived meanwhile. Each process groups its own callers; nothing is shared between nodes.
 *
 * Each caller's promise settles when its group committed (or failed). A group that fails is written again item by
 * item, so one bad item (a constraint, a compare-and-set that lost) fails only its own caller. The queue lives only
 * for the milliseconds of a write: a crash loses unwritten items whose callers were never answered, which is the
 * same as a crash before a single write.
 */
export interface GroupOptions {
  /** Most items in one group. */
  maxGroup?: number;
  /** Most groups being written at once (each holds one pool connection). */
  maxInFlight?: number;
  /**
   * Another group starts beside one in flight only once that one has taken this long. One group at a time makes the
   * largest groups (faster than two at a time: docs/performance.md), while a group stuck
   * behind a lock does not hold everyone else up for longer than this.
   */
  overlapAfterMs?: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export class Grouped<I, O> {
  private readonly queue: Array<Waiting<I, O>> = [];
  private inFlight = 0;
  private newestStartedAt = 0;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly maxGroup: number;
  private readonly maxInFlight: number;
  private readonly overlapAfterMs: number;

  /** `write` answers one result per item, in order, or throws for the group as a whole. */
  constructor(
    private readonly write: (items: readonly I[]) => Promise<O[]>,
    options: GroupOptions = {},
  ) {
    this.maxGroup = options.maxGroup ?? 64;
    this.maxInFlight = options.maxInFlight ?? 4;
    this.overlapAfterMs = options.overlapAfterMs ?? 20;
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // Callers in the same tick join the same group.
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      if (this.inFlight > 0) {
        const running = Date.now() - this.newestStartedAt;
        if (running < this.overlapAfterMs) {
          this.timer ??= setTimeout(() => {
            this.timer = undefined;
            this.pump();
          }, this.overlapAfterMs - running);
          return;
        }
      }
      const group = this.queue.splice(0, this.maxGroup);
      this.inFlight++;
      this.newestStartedAt = Date.now();
      void this.flush(group).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async flush(group: Array<Waiting<I, O>>): Promise<void> {
    let results: O[];
    try {
      results = await this.write(group.map((waiting) => waiting.item));
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      await Promise.all(group.map((waiting) => this.alone(waiting)));
      return;
    }
    for (const [i, waiting] of group.entries()) waiting.resolve(results[i]!);
  }

  private async alone(waiting: Waiting<I, O>): Promise<void> {
    try {
      waiting.resolve((await this.write([waiting.item]))[0]!);
    } catch (error) {
      waiting.reject(error);
    }
  }
}

export interface TenantKey {
  merchantId: string;
  id: string;
}

/**
 * Lookups by id from concurrent requests, read in one statement (`find` takes every id of the group). Tenancy is
 * checked here, per caller: a row of another merchant is not found, exactly as a scoped single-row read would say.
 */
export function groupedLookup<T extends { id: string; merchantId: string }>(
  find: (ids: readonly string[]) => Promise<T[]>,
): (key: TenantKey) => Promise<T | undefined> {
  const grouped = new Grouped<TenantKey, T | undefined>(async (keys) => {
    const found = new Map((await find([...new Set(keys.map((key) => key.id))])).map((row) => [row.id, row]));
    return keys.map((key) => {
      const row = found.get(key.id);
      return row?.merchantId === key.merchantId ? row : undefined;
    });
  });
  // Not an id at all: nothing to find, and no reason to fail the group's statement on a bad cast.
  return (key) => (isUuid(key.id) ? grouped.submit(key) : Promise.resolve(undefined));
}
