import type { MerchantConfiguration } from '../merchants/merchants.model.js';
import { DEFAULT_SETTINGS } from '../merchants/merchants.model.js';
import {
  amountView,
  authorizationResponse,
  transactionListItem,
  transactionResponse,
  transactionView,
} from './transactions.mapper.js';
import type { Transaction } from './transactions.model.js';

/** Documentation examples, produced by the real mappers from one sample transaction so they cannot drift. */
const sample: Transaction = {
  id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
  merchantId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c01',
  processorId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c02',
  method: 'card',
  typeId: 2,
  statusId: 2,
  originalTransactionId: null,
  customerId: null,
  paymentMethodId: null,
  createMethodId: 2,
  cardDataSourceId: 1,
  referenceId: 'order-1001',
  customerInitiated: true,
  currencyId: 1,
  baseCents: 2550,
  percentageOffCents: 0,
  percentageOffRateMpct: null,
  cashDiscountCents: 0,
  cashDiscountRateMpct: null,
  surchargeCents: 0,
  surchargeRateMpct: null,
  tipCents: 0,
  tipRateMpct: null,
  taxCents: 0,
  taxRateMpct: null,
  totalCents: 2550,
  authorizedCents: 2550,
  capturedCents: 2550,
  refundedCents: 0,
  panMask: '411111******1111',
  cardTypeId: 1,
  creditDebitTypeId: 1,
  cardTokenTypeId: 1,
  cardFingerprint: null,
  duplicateKey: null,
  expirationMonth: 12,
  expirationYear: 2030,
  billingAddress: null,
  shippingAddress: null,
  contactInfo: null,
  avsResponse: { responseCode: 'Y', description: 'Address and ZIP code match', action: 'Allow' },
  resultCode: 'Approve',
  responseCode: '00',
  responseMessage: 'Approved',
  authCode: 'A1B2C3',
  networkReference: 'SBX9F8E7D',
  pendingOperation: null,
  batchId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c03',
  detailsMessage: null,
  createdAt: new Date('2026-11-21T10:00:00.000Z'),
  modifiedAt: new Date('2026-11-21T10:00:00.000Z'),
  capturedAt: new Date('2026-11-21T10:00:00.000Z'),
  voidedAt: null,
  settledAt: null,
};

const configuration: MerchantConfiguration = {
  merchantId: sample.merchantId,
  companyName: 'Corner Bakery',
  mccCode: '5812',
  mccCodeDescription: 'Eating places',
  statusId: 1,
  settings: DEFAULT_SETTINGS,
  processors: [
    {
      id: sample.processorId,
      merchantId: sample.merchantId,
      method: 'card',
      name: 'Sandbox Card',
      typeId: 1,
      typeName: 'SandboxCard',
      connector: 'sandbox-card',
      isDefault: true,
      statusId: 1,
      settlementTimeSlots: [],
    },
  ],
};

const approved = {
  kind: 'approved' as const,
  responseCode: '00',
  message: 'Approved',
  authCode: 'A1B2C3',
  networkReference: 'SBX9F8E7D',
  approvedCents: 2550,
  avs: null,
};

export const EXAMPLES = {
  authorization: authorizationResponse(
    { transaction: sample, typeId: 2, outcome: approved, processedCents: 2550 },
    configuration.companyName,
  ),
  operation: transactionResponse(
    { transaction: sample, typeId: 3, outcome: approved, processedCents: 2550 },
    configuration.companyName,
  ),
  view: transactionView(sample, configuration, undefined),
  listItem: transactionListItem(
    {
      ...sample,
      customerName: 'Ada Lovelace',
      customerCompany: null,
      customerEmail: 'ada@example.com',
      customerPhone: null,
    },
    configuration,
  ),
  amount: amountView(sample),
};
