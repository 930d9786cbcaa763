import type { Listener } from '../../platform/db/listener.js';
import type { MerchantConfiguration } from './merchants.model.js';

/** Every node hears on this channel that a merchant's configuration changed (payload: the merchant id). */
export const MERCHANT_CHANNEL = 'tessera_merchant';

const MAX_ENTRIES = 10_000;

/**
 * A per-node cache of merchant configurations. Configuration changes only through the operator, and each change
 * NOTIFYs every node in the same transaction, which drops the entry at once; the TTL bounds staleness when a
 * notification is lost (e.g. across a listener reconnect, after which everything is dropped anyway). TTL 0 disables.
 */
export class ConfigurationCache {
  private readonly entries = new Map<string, { value: MerchantConfiguration; expiresAt: number }>();

  constructor(private readonly ttlMs: number) {}

  listen(listener: Listener): void {
    listener.on(
      MERCHANT_CHANNEL,
      (merchantId) => this.entries.delete(merchantId),
      () => this.entries.clear(),
    );
  }

  async get(merchantId: string, load: () => Promise<MerchantConfiguration | undefined>) {
    const now = Date.now();
    const hit = this.entries.get(merchantId);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = await load();
    if (value && this.ttlMs > 0) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(merchantId, { value, expiresAt: now + this.ttlMs });
    }
    return value;
  }
}
