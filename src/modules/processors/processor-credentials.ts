import type { Sql } from '../../platform/db/pool.js';
import { dictionary } from '../../platform/dictionary.js';
import { type DataKeys, decryptWith, encryptWith } from '../vault/data-keys.js';
import type { CredentialHints, CredentialsRow } from './processor-credentials.repo.js';

/** The credentials a processor holds, by name ({apiKey, hmacKey, ...}). Only in memory, only while in use. */
export type CredentialValues = Record<string, string>;

/** The sealed record's id: the processor and the version (its associated data with the merchant and data key). */
function recordId(processorId: string, version: number): string {
  return `${processorId}:v${version}`;
}

export function sealCredentials(
  dataKey: Awaited<ReturnType<DataKeys['current']>>,
  processorId: string,
  version: number,
  values: CredentialValues,
): Buffer {
  return encryptWith(dataKey, JSON.stringify(values), recordId(processorId, version), 'processor-credentials');
}

export async function openCredentials(dataKeys: DataKeys, row: CredentialsRow, sql?: Sql): Promise<CredentialValues> {
  const dataKey = await dataKeys.get(row.merchantId, row.dataKeyVersion, sql);
  return JSON.parse(
    decryptWith(dataKey, row.secretSealed, recordId(row.processorId, row.version), 'processor-credentials'),
  ) as CredentialValues;
}

/** The hints of a new version: a changed credential takes the new version, an unchanged one keeps its own. */
export function hintsOf(
  values: CredentialValues,
  version: number,
  previous: { values: CredentialValues; hints: CredentialHints } | undefined,
): CredentialHints {
  const hints: CredentialHints = dictionary();
  for (const [name, value] of Object.entries(values)) {
    const unchanged = previous && previous.values[name] === value && previous.hints[name];
    hints[name] = unchanged || { version, lastFour: value.slice(-4) };
  }
  return hints;
}
