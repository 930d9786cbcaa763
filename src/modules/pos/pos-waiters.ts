import type { Listener } from '../../platform/db/listener.js';
import { POS_CHANNEL } from './pos.repo.js';

/**
 * Requests waiting for a POS transaction to change (long-polls, a create that waits for the terminal). A waiter holds
 * no database connection and does not poll: every status move is announced on POS_CHANNEL by whichever node made
 * it, and only the waiters of that id look again. A reconnect of the listener wakes everyone (a move may have been
 * missed).
 */
export class PosWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(listener: Listener) {
    listener.on(
      POS_CHANNEL,
      (id) => this.wake(id),
      () => {
        for (const id of this.waiting.keys()) this.wake(id);
      },
    );
  }

  /** How many requests are waiting right now. */
  get size(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }

  /**
   * Resolves once `done()` answers true (checked now and after each move of `id`), or after `timeoutMs`; answers
   * whether it was done.
   */
  async until(id: string, done: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Registered before looking, so a move between the look and the wait is not missed.
      let wake!: () => void;
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
      });
      this.add(id, wake);
      try {
        if (await done()) return true;
        const left = deadline - Date.now();
        if (left <= 0) return false;
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([
          woken.then(() => false),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(true), left);
          }),
        ]);
        clearTimeout(timer);
        if (timedOut) return done();
      } finally {
        this.remove(id, wake);
      }
    }
  }

  private add(id: string, wake: () => void): void {
    let set = this.waiting.get(id);
    if (!set) {
      set = new Set();
      this.waiting.set(id, set);
    }
    set.add(wake);
  }

  private remove(id: string, wake: () => void): void {
    const set = this.waiting.get(id);
    if (!set) return;
    set.delete(wake);
    if (set.size === 0) this.waiting.delete(id);
  }

  private wake(id: string): void {
    for (const wake of this.waiting.get(id) ?? []) wake();
  }
}
