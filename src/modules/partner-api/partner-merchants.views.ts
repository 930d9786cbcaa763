import Type from 'typebox';
import type { ComplianceSnapshot, Portfolio } from '../merchants/portfolio/portfolio.model.js';

const Str = Type.Union([Type.String(), Type.Null()]);
const Instant = Type.String({ format: 'date-time' });
const NullableInstant = Type.Union([Instant, Type.Null()]);
const CalendarDate = Type.Union([Type.String({ format: 'date' }), Type.Null()]);

const PciSummary = Type.Union([
  Type.Object({ status: Type.String(), saq_due_date: CalendarDate, last_updated: Instant }),
  Type.Null(),
]);

const LIST_FIELDS = {
  merchant_id: Type.String({ format: 'uuid' }),
  dba_name: Type.String(),
  legal_name: Type.String(),
  status: Type.String({ description: 'active, closed, terminated or other.' }),
  processor: Str,
  mcc_code: Str,
  state: Str,
  city: Str,
  onboarding_date: Instant,
  last_data_refresh: Instant,
  primary_agent_id: Str,
  primary_agent_name: Str,
  partner_office_id: Str,
  partner_office_name: Str,
  pci_compliance: PciSummary,
};

export const MerchantListItem = Type.Object(LIST_FIELDS);
export const MerchantDetail = Type.Object({
  ...LIST_FIELDS,
  address_line1: Str,
  postal_code: Str,
  funding_program: Str,
  funding_program_code: Str,
});
export const MerchantStatusView = Type.Object({
  merchant_id: Type.String({ format: 'uuid' }),
  status: Type.String(),
  onboarding_date: Instant,
  close_date: NullableInstant,
  processor: Str,
});
export const ComplianceView = Type.Object({
  merchant_id: Type.String({ format: 'uuid' }),
  status: Type.String({ description: 'compliant, non_compliant, or unknown when nothing was recorded.' }),
  saq: Type.Union([
    Type.Object({
      type: Str,
      version: Str,
      status_date: CalendarDate,
      due_date: CalendarDate,
      last_changed: NullableInstant,
      remediation: Str,
    }),
    Type.Null(),
  ]),
  scan: Type.Union([
    Type.Object({
      status: Str,
      remediation_required: Type.Union([Type.Boolean(), Type.Null()]),
      last_scan_date: CalendarDate,
      next_scan_date: CalendarDate,
    }),
    Type.Null(),
  ]),
  compliant_through_another_provider: Type.Boolean(),
  last_updated: NullableInstant,
});
export const ComplianceHistoryItem = Type.Object({
  recorded_at: Instant,
  status: Type.String(),
  saq_type: Str,
  saq_status_date: CalendarDate,
  next_scan_date: CalendarDate,
});

export function merchantListItem(p: Portfolio) {
  return {
    merchant_id: p.merchantId,
    dba_name: p.dbaName,
    legal_name: p.legalName,
    status: p.status,
    processor: p.processor,
    mcc_code: p.mccCode,
    state: p.state,
    city: p.city,
    onboarding_date: p.onboardingDate.toISOString(),
    last_data_refresh: p.lastDataRefresh.toISOString(),
    primary_agent_id: p.primaryAgentId,
    primary_agent_name: p.primaryAgentName,
    partner_office_id: p.partnerOfficeId,
    partner_office_name: p.partnerOfficeName,
    pci_compliance: p.compliance.lastUpdated
      ? {
          status: p.compliance.status,
          saq_due_date: p.compliance.saqDueDate,
          last_updated: p.compliance.lastUpdated.toISOString(),
        }
      : null,
  };
}

export function merchantDetail(p: Portfolio) {
  return {
    ...merchantListItem(p),
    address_line1: p.addressLine1,
    postal_code: p.postalCode,
    funding_program: p.fundingProgram,
    funding_program_code: p.fundingProgramCode,
  };
}

export function merchantStatus(p: Portfolio) {
  return {
    merchant_id: p.merchantId,
    status: p.status,
    onboarding_date: p.onboardingDate.toISOString(),
    close_date: p.closeDate?.toISOString() ?? null,
    processor: p.processor,
  };
}

/** The current compliance; a merchant without any snapshot is `unknown`, with nothing else known. */
export function complianceView(merchantId: string, s: ComplianceSnapshot | undefined) {
  if (!s) {
    return {
      merchant_id: merchantId,
      status: 'unknown',
      saq: null,
      scan: null,
      compliant_through_another_provider: false,
      last_updated: null,
    };
  }
  return {
    merchant_id: merchantId,
    status: s.status,
    saq: {
      type: s.saq.type,
      version: s.saq.version,
      status_date: s.saq.statusDate,
      due_date: s.saq.dueDate,
      last_changed: s.saq.lastChanged?.toISOString() ?? null,
      remediation: s.saq.remediation,
    },
    scan: {
      status: s.scan.status,
      remediation_required: s.scan.remediationRequired,
      last_scan_date: s.scan.lastScanDate,
      next_scan_date: s.scan.nextScanDate,
    },
    compliant_through_another_provider: s.compliantThroughAnotherProvider,
    last_updated: s.recordedAt.toISOString(),
  };
}

export function complianceHistoryItem(s: ComplianceSnapshot) {
  return {
    recorded_at: s.recordedAt.toISOString(),
    status: s.status,
    saq_type: s.saq.type,
    saq_status_date: s.saq.statusDate,
    next_scan_date: s.scan.nextScanDate,
  };
}

const MERCHANT_ID = '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50';

export const LIST_ITEM_EXAMPLE = {
  merchant_id: MERCHANT_ID,
  dba_name: 'Demo Coffee',
  legal_name: 'Demo Coffee Roasters LLC',
  status: 'active',
  processor: 'Sandbox Card',
  mcc_code: '5812',
  state: 'NY',
  city: 'New York',
  onboarding_date: '2026-11-21T10:00:00.000Z',
  last_data_refresh: '2026-11-22T09:00:00.000Z',
  primary_agent_id: 'AG-104',
  primary_agent_name: 'Dana Agent',
  partner_office_id: 'OF-7',
  partner_office_name: 'East Office',
  pci_compliance: { status: 'compliant', saq_due_date: '2027-10-01', last_updated: '2026-11-22T09:00:00.000Z' },
};

export const DETAIL_EXAMPLE = {
  ...LIST_ITEM_EXAMPLE,
  address_line1: '123 Test St',
  postal_code: '10001',
  funding_program: 'Next Day',
  funding_program_code: 'ND1',
};

export const STATUS_EXAMPLE = {
  merchant_id: MERCHANT_ID,
  status: 'closed',
  onboarding_date: '2026-11-21T10:00:00.000Z',
  close_date: '2026-11-23T18:00:00.000Z',
  processor: 'Sandbox Card',
};

export const COMPLIANCE_EXAMPLE = {
  merchant_id: MERCHANT_ID,
  status: 'compliant',
  saq: {
    type: 'A',
    version: '4.0.1',
    status_date: '2026-10-01',
    due_date: '2027-10-01',
    last_changed: '2026-10-01T12:00:00.000Z',
    remediation: null,
  },
  scan: { status: 'passed', remediation_required: false, last_scan_date: '2026-10-15', next_scan_date: '2027-01-15' },
  compliant_through_another_provider: false,
  last_updated: '2026-11-22T09:00:00.000Z',
};

export const HISTORY_EXAMPLE = {
  recorded_at: '2026-11-22T09:00:00.000Z',
  status: 'compliant',
  saq_type: 'A',
  saq_status_date: '2026-10-01',
  next_scan_date: '2027-01-15',
};
