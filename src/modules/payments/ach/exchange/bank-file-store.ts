import { createHash } from 'node:crypto';
import { type DataKey, type DataKeys, decryptWith, encryptWith } from '../../../vault/data-keys.js';

const SECRET_NAME = 'ach-bank-files';

/**
 * Seals the files exchanged with a bank. They carry many merchants' entries, so no merchant's data key fits: they
 * are sealed under a deployment secret (wrapped by the key-encryption key like every other; a KEK rotation
 * re-wraps it and nothing sealed under it changes), with the file's id as associated data.
 */
export class BankFileStore {
  private key: Promise<DataKey> | undefined;

  constructor(private readonly dataKeys: DataKeys) {}

  async seal(id: string, content: Buffer): Promise<Buffer> {
    return encryptWith(await this.current(), content.toString('base64'), id, 'ach-bank-file');
  }

  async open(id: string, sealed: Buffer): Promise<Buffer> {
    return Buffer.from(decryptWith(await this.current(), sealed, id, 'ach-bank-file'), 'base64');
  }

  private current(): Promise<DataKey> {
    this.key ??= this.dataKeys
      .deploymentSecret(SECRET_NAME)
      .then((key) => ({ merchantId: 'deployment', version: 1, key }));
    // A failed first load is asked again next time.
    this.key.catch(() => {
      this.key = undefined;
    });
    return this.key;
  }
}

export function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
