import type { Listener } from '../../platform/db/listener.js';
import type { PosTransaction } from './pos.model.js';
import { announcement, POS_CHANNEL } from './pos.repo.js';

/** Announcements handled per turn of the event loop: a burst of moves (2,000 at once) leaves room for others. */
const RELEASE_SLICE = 32;

/**
 * Requests waiting for a POS transaction to change (long-polls, a create that waits for the terminal). A waiter holds
 * no database connection and does not poll: every status move is announced on POS_CHANNEL by whichever node made
 * it, and only the waiters of that id look again. A reconnect of the listener wakes everyone (a move may have been
 * missed). Announcements are queued as they arrive and handled RELEASE_SLICE per turn: reading one and answering its
 * waiters (serializing and writing a response) is work, and 2,000 at once would hold every other request back.
 */

export class PosWaiters {
  private readonly waiting = new Map<string, Set<(row: PosTransaction | null) => void>>();
  /** Wake-ups not yet delivered, released RELEASE_SLICE per turn (setImmediate), in the order they came. */
  private readonly releases: Array<() => void> = [];
  private releasing = false;

  constructor(listener: Listener) {
    listener.on(
      POS_CHANNEL,
      (payload) =>
        this.enqueue(() => {
          const { id, row } = announcement(payload);
          this.wake(id, row);
        }),
      () =>
        this.enqueue(() => {
          for (const id of this.waiting.keys()) this.wake(id, null);
        }),
    );
  }

  /** How many requests are waiting right now. */
  get size(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }

  /**
   * Answers the transaction once `done(row)` holds: for the row as it is now, then for each move of `id` (the move's
   * own row, announced on POS_CHANNEL, so no read is needed), or as it stands after `timeoutMs`.
   */
  async until(
    id: string,
    load: () => Promise<PosTransaction>,
    done: (row: PosTransaction) => boolean,
    timeoutMs: number,
  ): Promise<PosTransaction> {
    const deadline = Date.now() + timeoutMs;
    let announced: PosTransaction | null = null;
    let signalled = false;
    let woken: (() => void) | undefined;
    const wake = (row: PosTransaction | null) => {
      if (row) announced = row;
      signalled = true;
      woken?.();
    };
    // Registered before the first look, so a move between the look and the wait is not missed.
    this.add(id, wake);
    try {
      let row = await load();
      for (;;) {
        if (done(row)) return row;
        if (!signalled) {
          const left = deadline - Date.now();
          if (left <= 0) return row;
          let timer: NodeJS.Timeout | undefined;
          const timedOut = await new Promise<boolean>((resolve) => {
            woken = () => resolve(false);
            timer = setTimeout(() => resolve(true), left);
          });
          clearTimeout(timer);
          woken = undefined;
          if (timedOut) return load();
        }
        signalled = false;
        const latest: PosTransaction | null = announced;
        announced = null;
        // Only an id (a reconnect, a new row): read it.
        row = latest ?? (await load());
      }
    } finally {
      this.remove(id, wake);
    }
  }

  private add(id: string, wake: (row: PosTransaction | null) => void): void {
    let set = this.waiting.get(id);
    if (!set) {
      set = new Set();
      this.waiting.set(id, set);
    }
    set.add(wake);
  }

  private remove(id: string, wake: (row: PosTransaction | null) => void): void {
    const set = this.waiting.get(id);
    if (!set) return;
    set.delete(wake);
    if (set.size === 0) this.waiting.delete(id);
  }

  private wake(id: string, row: PosTransaction | null): void {
    for (const wake of this.waiting.get(id) ?? []) wake(row);
  }

  private enqueue(work: () => void): void {
    this.releases.push(work);
    if (!this.releasing) {
      this.releasing = true;
      setImmediate(this.releaseSlice);
    }
  }

  /**
   * A woken waiter answers its request (serializes and writes it) in the microtasks after this slice, before the next
   * macrotask: released all at once, 2,000 of them held the event loop and every other tenant's request waited
   * behind them. A slice per turn lets the other requests' I/O in between.
   */
  private readonly releaseSlice = (): void => {
    for (const release of this.releases.splice(0, RELEASE_SLICE)) release();
    if (this.releases.length > 0) setImmediate(this.releaseSlice);
    else this.releasing = false;
  };
}
