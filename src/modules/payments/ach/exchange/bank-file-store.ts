import { createHash } from 'node:crypto';
import type { DataKeys } from '../../../vault/data-keys.js';
import { DeploymentSealer } from '../../../vault/deployment-sealer.js';

/**
 * Seals the files exchanged with a bank. They carry many merchants' entries, so no merchant's data key fits: they
 * are sealed under the deployment secret `ach-bank-files`, with the file's id as associated data.
 */
export class BankFileStore extends DeploymentSealer {
  constructor(dataKeys: DataKeys) {
    super(dataKeys, 'ach-bank-files', 'ach-bank-file');
  }
}

export function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
