import { TtlCache } from '../../platform/cache.js';
import type { Listener } from '../../platform/db/listener.js';
import { MERCHANT_CHANNEL } from '../merchants/configuration-cache.js';
import type { ProcessorWithSettings } from '../merchants/merchant-processors.js';
import type { CredentialValues } from './processor-credentials.js';
import type { CredentialsRow } from './processor-credentials.repo.js';

/** A processor as a connector's call and a notification's check use it: its record and every usable version, opened. */
export interface OpenedProcessor {
  processor: ProcessorWithSettings;
  /** Newest first; a superseded one stays usable (for notifications) until its overlap ends. */
  versions: Array<{ row: CredentialsRow; values: CredentialValues }>;
}

/**
 * A per-node cache of opened processors, so that a payment through a real connector and the notification that
 * follows it do not each read and unseal the processor's credentials. Every change to a processor (its settings, its
 * status, new credentials) NOTIFYs the merchant's channel in its transaction, which drops the merchant's processors
 * here at once; the TTL (CONFIG_CACHE_TTL_MS, as for configurations) bounds staleness when a notification is lost, and
 * a listener reconnect drops everything. An overlap that ends is applied at each use, not at load.
 */
export class ProcessorAccessCache extends TtlCache<OpenedProcessor> {
  listen(listener: Listener): void {
    listener.on(
      MERCHANT_CHANNEL,
      (merchantId) => this.dropMerchant(merchantId),
      () => this.clear(),
    );
  }

  dropMerchant(merchantId: string): void {
    this.deleteWhere((opened) => opened.processor.merchantId === merchantId);
  }
}
