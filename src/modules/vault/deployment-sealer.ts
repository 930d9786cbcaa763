import { type DataKey, type DataKeys, decryptWith, encryptWith, type SealedRecordKind } from './data-keys.js';

/**
 * Seals records that belong to no merchant (a bank connection's files, a dashboard user's second factor) under a
 * deployment secret: wrapped by the key-encryption key like every other (a KEK rotation re-wraps it and nothing
 * sealed under it changes), with the record's id and kind as associated data. Version 1 of the secret is the only
 * one so far (the tables keep `data_key_version` for the day there is another).
 */
export class DeploymentSealer {
  private key: Promise<DataKey> | undefined;

  constructor(
    private readonly dataKeys: DataKeys,
    private readonly secretName: string,
    private readonly kind: SealedRecordKind,
  ) {}

  async seal(id: string, content: Buffer): Promise<Buffer> {
    return encryptWith(await this.current(), content.toString('base64'), id, this.kind);
  }

  async open(id: string, sealed: Buffer): Promise<Buffer> {
    return Buffer.from(decryptWith(await this.current(), sealed, id, this.kind), 'base64');
  }

  private current(): Promise<DataKey> {
    this.key ??= this.dataKeys
      .deploymentSecret(this.secretName)
      .then((key) => ({ merchantId: 'deployment', version: 1, key }));
    // A failed first load is asked again next time.
    this.key.catch(() => {
      this.key = undefined;
    });
    return this.key;
  }
}
