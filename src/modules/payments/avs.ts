import type { AvsResult } from '../../connectors/card/card-connector.js';
import { withFields } from '../../platform/objects.js';
import type { StoredAvs } from './transactions.model.js';

/**
 * What the merchant's AVS profile makes of the network's answer:
 * - Lenient (1): never refuses; the result is recorded.
 * - Standard (2, the default): refuses N (neither address nor ZIP matches).
 * - Strict (3): refuses anything but Y (a full match), including an unavailable result.
 */
export function avsAction(result: AvsResult, profileId: number): StoredAvs {
  const deny = profileId === 3 ? result.responseCode !== 'Y' : profileId === 2 ? result.responseCode === 'N' : false;
  return withFields(result, { action: deny ? 'Deny' : 'Allow' });
}

const GROUPS: Record<string, [number, string]> = {
  Y: [5, 'ValidGroup'],
  A: [2, 'PartialMatch'],
  Z: [2, 'PartialMatch'],
  N: [1, 'NoMatch'],
  U: [4, 'Unavailable'],
};

/** The transaction's `avsResponse` as the API shows it: the code, its group and what the profile decided. */
export function avsView(avs: StoredAvs | null) {
  if (!avs) return null;
  const [groupId, group] = GROUPS[avs.responseCode] ?? [3, 'Incompatible'];
  const passed = avs.responseCode === 'Y';
  return {
    actionId: avs.action === 'Allow' ? 1 : 2,
    action: avs.action,
    responseCode: avs.responseCode,
    groupId,
    group,
    resultId: passed ? 1 : 2,
    result: passed ? 'Passed' : 'Failed',
    codeDescription: avs.description,
  };
}
