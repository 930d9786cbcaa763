import { TtlCache } from '../../platform/cache.js';
import type { Listener } from '../../platform/db/listener.js';
import type { MerchantConfiguration, MerchantContact } from './merchants.model.js';

/** Every node hears on this channel that a merchant's configuration changed (payload: the merchant id). */
export const MERCHANT_CHANNEL = 'tessera_merchant';

/**
 * A per-node cache of merchant configurations, and beside it of their contacts (a transaction's view shows the
 * merchant's address: every status check and POS answer would read it). Both change only through the operator (or a
 * partner), and each change NOTIFYs every node in the same transaction, which drops the merchant's entries at once;
 * the TTL bounds staleness when a notification is lost (a listener reconnect drops everything anyway). TTL 0
 * disables it.
 */
export class ConfigurationCache extends TtlCache<MerchantConfiguration> {
  readonly contacts: TtlCache<MerchantContact[]>;

  constructor(ttlMs: number) {
    super(ttlMs);
    this.contacts = new TtlCache(ttlMs);
  }

  override delete(merchantId: string): void {
    super.delete(merchantId);
    this.contacts.delete(merchantId);
  }

  override clear(): void {
    super.clear();
    this.contacts.clear();
  }

  listen(listener: Listener): void {
    listener.on(
      MERCHANT_CHANNEL,
      (merchantId) => this.delete(merchantId),
      () => this.clear(),
    );
  }
}
