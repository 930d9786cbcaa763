import { isSandboxTestCard } from '../../connectors/card/sandbox-card-network.js';
import { defineModule } from '../manifest.js';
import { DataKeys, dataKeyAad, vaultSecretAad } from './data-keys.js';
import { VaultService } from './vault.service.js';

declare module '../services.js' {
  interface Services {
    vault: VaultService;
    /** Data keys sealed under the key-encryption key, and the deployment's derived secrets. */
    dataKeys: DataKeys;
  }
}

export const vaultModule = defineModule({
  folder: 'modules/vault',
  summary: 'The vault: payment methods with card numbers encrypted under data keys, and key rotation.',
  tables: ['data_keys', 'vault_secrets', 'payment_methods'],
  publishes: ['customer_payment_methods'],
  needs: [],
  provides: ['vault', 'dataKeys'],
  sealed: [
    {
      name: 'data keys',
      table: 'data_keys',
      column: 'key_sealed',
      key: ['merchant_id', 'version'],
      aad: (row) => dataKeyAad(String(row.merchant_id), Number(row.version)),
    },
    {
      name: 'vault secrets',
      table: 'vault_secrets',
      column: 'secret_sealed',
      key: ['name'],
      aad: (row) => vaultSecretAad(String(row.name)),
    },
  ],
  async build({ pool, clock, kek, sandbox }) {
    const dataKeys = new DataKeys(pool, kek);
    await dataKeys.start();
    // The sandbox takes the vendor's test card numbers even where they fail the checksum (docs/sandbox.md).
    return { dataKeys, vault: new VaultService(pool, clock, dataKeys, sandbox ? isSandboxTestCard : undefined) };
  },
});
