import { newId } from '../../../platform/crypto/ids.js';
import { dictionary } from '../../../platform/dictionary.js';
import { type FieldErrors, ValidationError } from '../../../platform/http/errors.js';
import { dateRange } from '../../../platform/http/paging.js';
import type { ComplianceSnapshot, PortfolioChanges, PortfolioField } from './portfolio.model.js';
import type { ComplianceInput, PortfolioInput } from './portfolio.schemas.js';

/** A clock may run a little ahead of the operator's: a snapshot up to this far in the future is accepted. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** Trims text; blank text is an error naming the field (the schema allows it, the meaning does not). */
function textOf(errors: FieldErrors, field: string, value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const text = value.trim();
  if (text === '') errors[field] = ['Must not be blank: send null to clear it.'];
  return text;
}

/** The operator's portfolio change, checked and in stored form (instants as ISO 8601 UTC). */
export function portfolioChanges(input: PortfolioInput, prefix = 'portfolio'): PortfolioChanges {
  const errors: FieldErrors = dictionary();
  const changes: PortfolioChanges = {};
  for (const [field, value] of Object.entries(input) as Array<[PortfolioField, string | null | undefined]>) {
    const name = `${prefix}.${field}`;
    if (field === 'onboardingDate' || field === 'closeDate') {
      changes[field] = value == null ? value : dateRange(name, value, name, undefined).from!.toISOString();
    } else {
      changes[field] = textOf(errors, name, value);
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return changes;
}

export function complianceSnapshot(merchantId: string, input: ComplianceInput, now: Date): ComplianceSnapshot {
  const errors: FieldErrors = dictionary();
  const recordedAt = input.recordedAt ? new Date(input.recordedAt) : now;
  if (recordedAt.getTime() > now.getTime() + FUTURE_TOLERANCE_MS) {
    errors.recordedAt = ['Must not be in the future.'];
  }
  const saq = input.saq ?? {};
  const scan = input.scan ?? {};
  const snapshot: ComplianceSnapshot = {
    id: newId(),
    merchantId,
    recordedAt,
    status: input.status,
    saq: {
      type: textOf(errors, 'saq.type', saq.type) ?? null,
      version: textOf(errors, 'saq.version', saq.version) ?? null,
      statusDate: saq.statusDate ?? null,
      dueDate: saq.dueDate ?? null,
      lastChanged: saq.lastChanged ? new Date(saq.lastChanged) : null,
      remediation: textOf(errors, 'saq.remediation', saq.remediation) ?? null,
    },
    scan: {
      status: scan.status ?? null,
      remediationRequired: scan.remediationRequired ?? null,
      lastScanDate: scan.lastScanDate ?? null,
      nextScanDate: scan.nextScanDate ?? null,
    },
    compliantThroughAnotherProvider: input.compliantThroughAnotherProvider ?? false,
  };
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return snapshot;
}
