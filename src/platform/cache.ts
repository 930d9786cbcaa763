/**
 * A per-node read-through cache whose entries live at most `ttlMs` and which never holds more than `maxEntries`
 * (the oldest insertion goes first). Misses (`undefined`) are not stored. Callers that can be told about changes
 * (NOTIFY) call `delete`/`clear` as well; the TTL bounds staleness when a notification is lost. TTL 0 disables it.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = await load();
    if (value !== undefined && this.ttlMs > 0) {
      this.entries.delete(key);
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    }
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose value passes `test` (a change that names something the values share, not a key). */
  deleteWhere(test: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (test(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
