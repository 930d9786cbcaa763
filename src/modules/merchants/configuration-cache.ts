import { TtlCache } from '../../platform/cache.js';
import type { Listener } from '../../platform/db/listener.js';
import type { MerchantConfiguration } from './merchants.model.js';

/** Every node hears on this channel that a merchant's configuration changed (payload: the merchant id). */
export const MERCHANT_CHANNEL = 'tessera_merchant';

/**
 * A per-node cache of merchant configurations. Configuration changes only through the operator, and each change
 * NOTIFYs every node in the same transaction, which drops the entry at once; the TTL bounds staleness when a
 * notification is lost (a listener reconnect drops everything anyway). TTL 0 disables it.
 */
export class ConfigurationCache extends TtlCache<MerchantConfiguration> {
  listen(listener: Listener): void {
    listener.on(
      MERCHANT_CHANNEL,
      (merchantId) => this.delete(merchantId),
      () => this.clear(),
    );
  }
}
