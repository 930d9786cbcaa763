import type { MerchantConfiguration } from '../merchants/merchants.model.js';
import { DEFAULT_SETTINGS } from '../merchants/merchants.model.js';
import { newTransaction, plainAmount } from './new-transaction.js';
import {
  amountView,
  authorizationResponse,
  transactionListItem,
  transactionResponse,
  transactionView,
} from './transactions.mapper.js';
import {
  CardDataSource,
  CreateMethod,
  type Transaction,
  TransactionStatus,
  TransactionType,
} from './transactions.model.js';

/** Documentation examples, produced by the real mappers from one sample transaction so they cannot drift. */
const sample: Transaction = newTransaction({
  id: '01936f6e-3f5b-7a21-9c3e-6f1d2a4b5c50',
  merchantId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c01',
  processorId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c02',
  method: 'card',
  typeId: TransactionType.Sale,
  statusId: TransactionStatus.Captured,
  createMethodId: CreateMethod.ApiToken,
  cardDataSourceId: CardDataSource.Internet,
  referenceId: 'order-1001',
  customerInitiated: true,
  amounts: plainAmount(2550),
  authorizedCents: 2550,
  capturedCents: 2550,
  panMask: '411111******1111',
  cardTypeId: 1,
  creditDebitTypeId: 1,
  cardTokenTypeId: 1,
  expirationMonth: 12,
  expirationYear: 2030,
  avsResponse: { responseCode: 'Y', description: 'Address and ZIP code match', action: 'Allow' },
  resultCode: 'Approve',
  responseCode: '00',
  responseMessage: 'Approved',
  authCode: 'A1B2C3',
  networkReference: 'SBX9F8E7D',
  batchId: '01936f6e-0000-7a21-9c3e-6f1d2a4b5c03',
  createdAt: new Date('2026-11-21T10:00:00.000Z'),
  capturedAt: new Date('2026-11-21T10:00:00.000Z'),
});

const configuration: MerchantConfiguration = {
  merchantId: sample.merchantId,
  companyName: 'Corner Bakery',
  email: null,
  phone: null,
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
  transactionAutofill: null,
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
