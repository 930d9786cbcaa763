import Type, { type Static } from 'typebox';
import { PCI_STATUSES, PORTFOLIO_STATUSES } from './portfolio.model.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Text = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) })));
const Instant = (description: string) =>
  Type.Optional(
    Nullable(
      Type.String({ maxLength: 40, description: `${description} ISO 8601 date or date-time (UTC when no offset).` }),
    ),
  );
const CalendarDate = (description: string) =>
  Type.Optional(Nullable(Type.String({ format: 'date', description: `${description} YYYY-MM-DD.` })));

/**
 * The operator's portfolio fields of a merchant (`PATCH /admin/v1/merchants/{id}` `portfolio`). Each value overrides
 * what the merchant record says; null returns the field to it (docs/partner-api.md lists the derivations).
 */
export const PortfolioInput = Type.Object(
  {
    dbaName: Text(200, 'Doing-business-as name. Default: the company name.'),
    legalName: Text(200, 'Default: the legal name, else the company name.'),
    status: Type.Optional(
      Nullable(
        Type.Union(
          PORTFOLIO_STATUSES.map((s) => Type.Literal(s)),
          { description: 'Default: active for an Active merchant, closed for Closed, other for Suspended.' },
        ),
      ),
    ),
    onboardingDate: Instant('When the merchant was approved. Default: when it was created.'),
    closeDate: Instant('When it was closed or terminated. Default: when a closing status was first seen.'),
    processor: Text(100, "Default: the name of the merchant's default card processor."),
    mccCode: Type.Optional(Nullable(Type.String({ pattern: '^[0-9]{4}$', description: 'Default: the merchant MCC.' }))),
    addressLine1: Text(200, "Default: the merchant's main address."),
    city: Text(100),
    state: Text(50),
    postalCode: Text(20),
    primaryAgentId: Text(100),
    primaryAgentName: Text(200),
    partnerOfficeId: Text(100),
    partnerOfficeName: Text(200),
    fundingProgram: Text(100),
    fundingProgramCode: Text(50),
  },
  { additionalProperties: false },
);
export type PortfolioInput = Static<typeof PortfolioInput>;

const Str = Nullable(Type.String());

export const PortfolioView = Type.Object({
  dbaName: Type.String(),
  legalName: Type.String(),
  status: Type.String(),
  onboardingDate: Type.String({ format: 'date-time' }),
  closeDate: Nullable(Type.String({ format: 'date-time' })),
  processor: Str,
  mccCode: Str,
  addressLine1: Str,
  city: Str,
  state: Str,
  postalCode: Str,
  primaryAgentId: Str,
  primaryAgentName: Str,
  partnerOfficeId: Str,
  partnerOfficeName: Str,
  fundingProgram: Str,
  fundingProgramCode: Str,
  overridden: Type.Array(Type.String(), {
    description: 'The fields the operator set; the others follow the merchant.',
  }),
  pciStatus: Type.String(),
  lastDataRefresh: Type.String({ format: 'date-time' }),
});

export const PORTFOLIO_EXAMPLE = {
  dbaName: 'Demo Coffee',
  legalName: 'Demo Coffee Roasters LLC',
  status: 'active',
  onboardingDate: '2026-11-21T10:00:00.000Z',
  closeDate: null,
  processor: 'Sandbox Card',
  mccCode: '5812',
  addressLine1: '123 Test St',
  city: 'New York',
  state: 'NY',
  postalCode: '10001',
  primaryAgentId: 'AG-104',
  primaryAgentName: 'Dana Agent',
  partnerOfficeId: 'OF-7',
  partnerOfficeName: 'East Office',
  fundingProgram: 'Next Day',
  fundingProgramCode: 'ND1',
  overridden: ['dbaName', 'primaryAgentId', 'primaryAgentName', 'partnerOfficeId', 'partnerOfficeName'],
  pciStatus: 'compliant',
  lastDataRefresh: '2026-11-22T09:00:00.000Z',
};

/** `POST /admin/v1/merchants/{id}/compliance`: one PCI compliance snapshot. */
export const ComplianceInput = Type.Object(
  {
    status: Type.Union(
      PCI_STATUSES.map((s) => Type.Literal(s)),
      { description: 'compliant, non_compliant or unknown.' },
    ),
    saq: Type.Optional(
      Type.Object(
        {
          type: Text(20, 'Self-assessment questionnaire type, e.g. A, A-EP, B, C, D.'),
          version: Text(20, 'e.g. 4.0.1.'),
          statusDate: CalendarDate('When the SAQ reached its status.'),
          dueDate: CalendarDate('When the next SAQ is due.'),
          lastChanged: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
          remediation: Text(500, 'What must be fixed, if anything.'),
        },
        { additionalProperties: false },
      ),
    ),
    scan: Type.Optional(
      Type.Object(
        {
          status: Type.Optional(
            Nullable(
              Type.Union(
                ['passed', 'failed', 'pending', 'not_required'].map((s) => Type.Literal(s)),
                { description: 'Outcome of the last vulnerability scan.' },
              ),
            ),
          ),
          remediationRequired: Type.Optional(Nullable(Type.Boolean())),
          lastScanDate: CalendarDate('Date of the last scan.'),
          nextScanDate: CalendarDate('Date of the next scan.'),
        },
        { additionalProperties: false },
      ),
    ),
    compliantThroughAnotherProvider: Type.Optional(Type.Boolean({ description: 'Default false.' })),
    recordedAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'When the standing was observed; default now. Not in the future.',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        status: 'compliant',
        saq: { type: 'A', version: '4.0.1', statusDate: '2026-10-01', dueDate: '2027-10-01' },
        scan: { status: 'passed', remediationRequired: false, lastScanDate: '2026-10-15', nextScanDate: '2027-01-15' },
        compliantThroughAnotherProvider: false,
      },
    ],
  },
);
export type ComplianceInput = Static<typeof ComplianceInput>;

export const ComplianceRecordedView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    merchantId: Type.String({ format: 'uuid' }),
    status: Type.String(),
    recordedAt: Type.String({ format: 'date-time' }),
    current: Type.Boolean({ description: 'Whether this snapshot is now the merchant’s current compliance.' }),
  },
  {
    examples: [
      {
        id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5e01',
        merchantId: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
        status: 'compliant',
        recordedAt: '2026-11-22T09:00:00.000Z',
        current: true,
      },
    ],
  },
);
