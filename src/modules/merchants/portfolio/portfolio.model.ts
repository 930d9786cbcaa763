import { stateById } from '../../reference/states.js';
import { MerchantStatus } from '../merchants.model.js';
import type { MerchantDetails } from '../merchants.service.js';

export const PORTFOLIO_STATUSES = ['active', 'closed', 'terminated', 'other'] as const;
export type PortfolioStatus = (typeof PORTFOLIO_STATUSES)[number];

export const PCI_STATUSES = ['compliant', 'non_compliant', 'unknown'] as const;
export type PciStatus = (typeof PCI_STATUSES)[number];

/** What the partner portfolio API reports about a merchant (its effective values). */
export interface PortfolioFields {
  dbaName: string;
  legalName: string;
  status: PortfolioStatus;
  onboardingDate: Date;
  closeDate: Date | null;
  processor: string | null;
  mccCode: string | null;
  addressLine1: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  primaryAgentId: string | null;
  primaryAgentName: string | null;
  partnerOfficeId: string | null;
  partnerOfficeName: string | null;
  fundingProgram: string | null;
  fundingProgramCode: string | null;
}

export type PortfolioField = keyof PortfolioFields;

/** What the operator set, as stored: field → value (dates as ISO 8601 text). Anything absent follows the merchant. */
export type PortfolioOverrides = Partial<Record<PortfolioField, string>>;

/** A change from the operator: a value overrides, null returns the field to what the merchant record says. */
export type PortfolioChanges = Partial<Record<PortfolioField, string | null>>;

export interface CurrentCompliance {
  status: PciStatus;
  saqDueDate: string | null;
  lastUpdated: Date | null;
}

export interface Portfolio extends PortfolioFields {
  merchantId: string;
  partnerId: string | null;
  overrides: PortfolioOverrides;
  compliance: CurrentCompliance;
  lastDataRefresh: Date;
}

export interface ComplianceSnapshot {
  id: string;
  merchantId: string;
  recordedAt: Date;
  status: PciStatus;
  saq: {
    type: string | null;
    version: string | null;
    statusDate: string | null;
    dueDate: string | null;
    lastChanged: Date | null;
    remediation: string | null;
  };
  scan: {
    status: string | null;
    remediationRequired: boolean | null;
    lastScanDate: string | null;
    nextScanDate: string | null;
  };
  compliantThroughAnotherProvider: boolean;
}

const STATUS_OF: Record<number, PortfolioStatus> = {
  [MerchantStatus.Active]: 'active',
  [MerchantStatus.Closed]: 'closed',
};

/** The portfolio as the merchant record alone describes it (no close date: that depends on the history). */
export function derivedPortfolio({ merchant, processors, contacts }: MerchantDetails): PortfolioFields {
  const main = contacts.find((c) => c.isMain);
  const processor = processors.find((p) => p.method === 'card' && p.isDefault) ?? processors[0];
  return {
    dbaName: merchant.companyName,
    legalName: merchant.legalName ?? merchant.companyName,
    status: STATUS_OF[merchant.statusId] ?? 'other',
    onboardingDate: merchant.createdAt,
    closeDate: null,
    processor: processor?.name ?? null,
    mccCode: merchant.mccCode,
    addressLine1: main?.address.line1 ?? null,
    city: main?.address.city ?? null,
    state: main?.address.stateId ? (stateById(main.address.stateId)?.code ?? null) : null,
    postalCode: main?.address.postalCode ?? null,
    primaryAgentId: null,
    primaryAgentName: null,
    partnerOfficeId: null,
    partnerOfficeName: null,
    fundingProgram: null,
    fundingProgramCode: null,
  };
}

const DATE_FIELDS: ReadonlySet<PortfolioField> = new Set(['onboardingDate', 'closeDate']);

/**
 * The effective portfolio: the operator's overrides over the derived values. A merchant that is closed or terminated
 * without a close date set keeps the one it had (or gets `now`: the moment the change was seen); any other status
 * has none unless the operator set one.
 */
export function effectivePortfolio(
  derived: PortfolioFields,
  overrides: PortfolioOverrides,
  previousCloseDate: Date | null,
  now: Date,
): PortfolioFields {
  const merged: Record<string, unknown> = { ...derived };
  for (const [field, value] of Object.entries(overrides)) {
    merged[field] = DATE_FIELDS.has(field as PortfolioField) ? new Date(value) : value;
  }
  const fields = merged as unknown as PortfolioFields;
  if (overrides.closeDate === undefined) {
    fields.closeDate = fields.status === 'closed' || fields.status === 'terminated' ? (previousCloseDate ?? now) : null;
  }
  return fields;
}

/** Applies a change to the stored overrides: values replace, nulls remove. */
export function mergeOverrides(current: PortfolioOverrides, changes: PortfolioChanges): PortfolioOverrides {
  const next: PortfolioOverrides = { ...current };
  for (const [field, value] of Object.entries(changes) as Array<[PortfolioField, string | null | undefined]>) {
    if (value === undefined) continue;
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return next;
}
