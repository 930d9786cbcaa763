import { createHash } from 'node:crypto';
import { type AchConnector, returnsAvailableAt } from '../../../connectors/ach/ach-connector.js';
import { type ParsedFile, parseNacha, yymmdd } from '../../../connectors/ach/nacha.js';
import { returnReason } from '../../../connectors/ach/return-codes.js';
import { isoDate } from '../../../platform/clock/business-days.js';
import type { Clock } from '../../../platform/clock/clock.js';
import { localParts } from '../../../platform/clock/zoned.js';
import { newId } from '../../../platform/crypto/ids.js';
import type { Pool, Sql } from '../../../platform/db/pool.js';
import { type Tx, withTransaction } from '../../../platform/db/tx.js';
import { eventsInsert } from '../../../platform/events/outbox.js';
import { NotFoundError, ValidationError } from '../../../platform/http/errors.js';
import type { PageRequest } from '../../../platform/http/paging.js';
import { enqueue } from '../../../platform/jobs/queue.js';
import { fromCents } from '../../../platform/money.js';
import type { Logger } from '../../../platform/observability/logger.js';
import type { Customer } from '../../customers/customers.model.js';
import type { CustomersService } from '../../customers/customers.service.js';
import { type Ledger, lines } from '../../ledger/ledger.js';
import { ZeroCostProcessingOption } from '../../merchants/merchants.model.js';
import type { MerchantsService } from '../../merchants/merchants.service.js';
import { BatchStatus } from '../../settlements/settlements.model.js';
import type { SettlementsService } from '../../settlements/settlements.service.js';
import { decryptWith, encryptWith } from '../../vault/data-keys.js';
import { checkBankAccount, maskAccount, type VaultService } from '../../vault/vault.service.js';
import { aboveMaximum, calculateAmount, taxInput } from '../amounts.js';
import { type NewTransaction, newTransaction, plainAmount } from '../new-transaction.js';
import type { RequestClaim } from '../payment-request.js';
import { activeProcessor } from '../processors.js';
import { type TransactionEventType, transactionEvents } from '../transaction-events.js';
import { STATUS_NAMES, type Transaction, TYPE_NAMES } from '../transactions.model.js';
import {
  batchMemberTotals,
  findByIdempotencyId,
  hasEntriesOutstanding,
  insertTransaction,
  isIdempotencyIdTaken,
  markBatchMembersSettled,
  TX_COLUMNS,
  toTransaction,
} from '../transactions.repo.js';
import {
  type AchCommand,
  type AchEntry,
  type AchResponse,
  AchStatus,
  AchType,
  SEC_CODES,
  SecCode,
} from './ach.model.js';
import { claimWindow, writeCutoffFile } from './ach-cutoff.js';
import { AchFileStore, DEFAULT_RECORDS_PER_PART } from './ach-file-store.js';
import {
  type AchProcessorSettings,
  achSettingsOf,
  nextCutoff,
  settingsProblems,
  settlementOf,
} from './ach-schedule.js';

export const ACH_CUTOFF_QUEUE = 'ach.cutoff';
export const ACH_SUBMIT_QUEUE = 'ach.submit-file';
export const ACH_CLEAR_QUEUE = 'ach.clear-file';
export const ACH_RETURNS_QUEUE = 'ach.collect-returns';

export interface AchDeps {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  merchants: MerchantsService;
  customers: CustomersService;
  vault: VaultService;
  ledger: Ledger;
  settlements: SettlementsService;
  connector(name: string): AchConnector;
  /** Records per stored part of a NACHA file (and entries per read while one is written). */
  filePartRecords?: number;
}

/** AchEntry fields and their ach_entries columns: one list drives the SELECT and the mapping. */
const ENTRY_FIELDS: ReadonlyArray<readonly [keyof AchEntry, string]> = [
  ['transactionId', 'transaction_id'],
  ['merchantId', 'merchant_id'],
  ['processorId', 'processor_id'],
  ['secCode', 'sec_code'],
  ['isDebit', 'is_debit'],
  ['routingNumber', 'routing_number'],
  ['accountMask', 'account_mask'],
  ['accountTypeId', 'account_type_id'],
  ['accountHolderTypeId', 'account_holder_type_id'],
  ['receiverName', 'receiver_name'],
  ['companyName', 'company_name'],
  ['taxId', 'tax_id'],
  ['requesterIp', 'requester_ip'],
  ['isFasterProcessing', 'is_faster_processing'],
  ['windowAt', 'window_at'],
  ['fileId', 'file_id'],
  ['traceNumber', 'trace_number'],
  ['effectiveDate', 'effective_date'],
  ['returnCode', 'return_code'],
  ['returnReason', 'return_reason'],
  ['returnedAt', 'returned_at'],
  ['changeCode', 'change_code'],
  ['correctedData', 'corrected_data'],
  ['failureReason', 'failure_reason'],
];
const ENTRY_COLUMNS = ENTRY_FIELDS.map(([, column]) =>
  column === 'effective_date' ? 'a.effective_date::text' : `a.${column}`,
).join(', ');

function toEntry(row: Record<string, unknown>): AchEntry {
  const entry: Record<string, unknown> = {};
  for (const [field, column] of ENTRY_FIELDS) entry[field] = row[column];
  return entry as unknown as AchEntry;
}

const DESCRIPTIONS: Record<number, string> = {
  [AchStatus.Scheduled]: 'Scheduled',
  [AchStatus.Held]: 'Held',
  [AchStatus.Cancelled]: 'Cancelled',
  [AchStatus.InProgress]: 'Submitted to the ACH network',
  [AchStatus.Cleared]: 'Cleared',
  [AchStatus.ChargedBack]: 'Returned',
  [AchStatus.Failed]: 'Failed',
  [AchStatus.Refunded]: 'Refunded',
};

export function achResponse(t: Transaction, typeId = t.typeId): AchResponse {
  return {
    transactionId: t.id,
    typeId,
    type: TYPE_NAMES[typeId]!,
    statusId: t.statusId,
    status: STATUS_NAMES[t.statusId]!,
    responseCode: t.responseCode ?? '00',
    responseDescription: t.detailsMessage ?? DESCRIPTIONS[t.statusId] ?? STATUS_NAMES[t.statusId]!,
    processedAmount: fromCents(t.totalCents),
  };
}

/** A stable 10-character company identification for an originator: "1" and 9 digits. */
export function companyIdentification(processorId: string): string {
  const digest = createHash('sha256').update(processorId).digest();
  return `1${String(digest.readUInt32BE(0) % 1_000_000_000).padStart(9, '0')}`;
}

/**
 * ACH payments. Creating one submits it for processing: it waits, Scheduled, for its processor's next cutoff
 * window, where every Scheduled entry of that window goes into one NACHA file (In progress). The file is its own
 * settlement batch: its entries clear on their settlement date, returns come two business days later, and then the
 * batch is Settled. Every move is a compare-and-set on the transaction's status, so a void racing the cutoff either
 * cancels the entry before the file takes it or finds it already submitted: never both.
 */
export class AchPaymentsService {
  private readonly files: AchFileStore;

  constructor(private readonly deps: AchDeps) {
    this.files = new AchFileStore(deps.pool, deps.vault.dataKeys);
  }

  private get clock() {
    return this.deps.clock;
  }

  // -----------------------------------------------------------------------------------------------------------------
  // Creating debits and credits

  async create(cmd: AchCommand): Promise<AchResponse> {
    const earlier = await this.createdEarlier(cmd.merchantId, cmd.idempotency);
    if (earlier) return achResponse(earlier);
    const configuration = await this.deps.merchants.getConfiguration(cmd.merchantId);
    const processor = activeProcessor(configuration, 'ach', cmd.processorId);
    const errors: Record<string, string[]> = {};
    if (!(cmd.amountCents > 0)) errors.amount = ["'amount' must be greater than 0."];
    if (!SEC_CODES[cmd.secCode]) errors.secCode = ["'secCode' must be 1 (Web), 2 (PPD), 3 (CCD) or 4 (Telephone)."];
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);

    const account = await this.resolveAccount(cmd);
    const companyName = cmd.contactInfo?.companyName?.trim() || account.customer?.companyName?.trim() || null;
    if (cmd.secCode === SecCode.CCD && !companyName) {
      throw ValidationError.field(
        'contactInfo.companyName',
        "A CCD entry debits or credits a company: send 'contactInfo.companyName' (or use a customer with a company name).",
      );
    }
    const settings = configuration.settings;
    const amounts = calculateAmount({
      baseCents: cmd.amountCents,
      percentageOffRateMpct: cmd.percentageOffRateMpct,
      zeroCostOptionId: cmd.direction === 'debit' ? settings.zeroCostProcessingOptionId : ZeroCostProcessingOption.None,
      cashDiscountRateMpct: settings.defaultCashDiscountRateMpct,
      dualPricingRateMpct: settings.defaultDualPricingRateMpct,
      useCardPrice: false,
      tender: 'ach',
      tipCents: cmd.tipCents ?? null,
      ...taxInput(cmd.tax),
    });
    const tooMuch = aboveMaximum(amounts.totalCents, settings.maxTransactionAmountCents);
    if (tooMuch) throw ValidationError.field('amount', tooMuch);
    const contact = cmd.contactInfo;
    const receiverName =
      (cmd.secCode === SecCode.CCD ? companyName : null) ||
      [contact?.firstName, contact?.lastName].filter(Boolean).join(' ').trim() ||
      contact?.companyName?.trim() ||
      [account.customer?.firstName, account.customer?.lastName].filter(Boolean).join(' ').trim() ||
      account.customer?.companyName?.trim() ||
      account.name ||
      'ACH RECEIVER';

    const now = this.clock.now();
    const id = newId();
    const achSettings = await this.processorSettings(processor.id);
    const windowAt = nextCutoff(now, achSettings, cmd.isFasterProcessing);
    const t = newAchTransaction({
      id,
      merchantId: cmd.merchantId,
      processorId: processor.id,
      typeId: cmd.direction === 'debit' ? AchType.Debit : AchType.Credit,
      customerId: account.customer?.id ?? null,
      paymentMethodId: account.paymentMethodId,
      createMethodId: cmd.createMethodId,
      sourceId: cmd.sourceId ?? null,
      idempotencyId: cmd.idempotency?.id ?? null,
      amounts,
      authorizedCents: amounts.totalCents,
      panMask: account.mask,
      billingAddress: cmd.billingAddress ?? account.customer?.billingAddress ?? null,
      shippingAddress: cmd.shippingAddress,
      contactInfo: cmd.contactInfo,
      createdAt: now,
    });
    const created = await withTransaction(this.deps.pool, async (tx) => {
      await insertTransaction(tx, t);
      const dataKey = await this.deps.vault.dataKeys.current(cmd.merchantId, tx);
      await tx.query(
        `INSERT INTO ach_entries (transaction_id, merchant_id, processor_id, sec_code, is_debit, routing_number,
           account_mask, account_sealed, data_key_version, account_type_id, account_holder_type_id, receiver_name,
           company_name, tax_id, requester_ip, is_faster_processing, window_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17)`,
        [
          id,
          cmd.merchantId,
          processor.id,
          cmd.secCode,
          cmd.direction === 'debit',
          account.routingNumber,
          account.mask,
          encryptWith(dataKey, account.accountNumber, id),
          dataKey.version,
          account.accountTypeId,
          account.accountHolderTypeId,
          receiverName,
          companyName,
          cmd.taxId?.trim() || account.taxId,
          cmd.requesterIp,
          cmd.isFasterProcessing,
          windowAt,
        ],
      );
      this.event(tx, 'transaction.ach.scheduled', t);
      await this.scheduleCutoff(tx, processor.id, windowAt);
      return t;
    }).catch((error: unknown) => this.createdMeanwhile(error, cmd.merchantId, cmd.idempotency));
    return achResponse(created);
  }

  /**
   * A retry of a request whose first attempt was cut off (RequestClaim.recovering): what that attempt created, if it
   * committed. Creating is one database transaction, so it either did or left nothing behind.
   */
  private async createdEarlier(merchantId: string, claim: RequestClaim | undefined) {
    if (!claim?.recovering) return undefined;
    return findByIdempotencyId(this.deps.pool, merchantId, claim.id);
  }

  /** The insert lost to the first attempt's, committing as its node died: that one is the answer. */
  private async createdMeanwhile(error: unknown, merchantId: string, claim: RequestClaim | undefined) {
    if (!claim || !isIdempotencyIdTaken(error)) throw error;
    return (await findByIdempotencyId(this.deps.pool, merchantId, claim.id))!;
  }

  private async resolveAccount(cmd: AchCommand): Promise<{
    customer: Customer | null;
    paymentMethodId: string | null;
    accountNumber: string;
    routingNumber: string;
    mask: string;
    accountTypeId: number;
    accountHolderTypeId: number;
    taxId: string | null;
    name: string | null;
  }> {
    const raw = Boolean(cmd.accountNumber || cmd.routingNumber);
    if (raw && cmd.paymentMethodId) {
      throw ValidationError.field(
        'accountNumber',
        "Send either 'paymentMethodId' or bank account data ('accountNumber', 'routingNumber'), not both.",
      );
    }
    if (raw && cmd.customerId) {
      throw ValidationError.field(
        'accountNumber',
        "Bank account data cannot be combined with 'customerId': vault the account for the customer and send its 'paymentMethodId', or omit 'customerId'.",
      );
    }
    if (raw) {
      const checked = checkBankAccount({ accountNumber: cmd.accountNumber, routingNumber: cmd.routingNumber });
      const errors: Record<string, string[]> = {};
      // A new account needs who and where (the network's rules for a first-time receiver).
      if (!cmd.contactInfo) errors.contactInfo = ['ContactInfo is required for new ACH payments.'];
      else {
        const c = cmd.contactInfo;
        if (!c.mobilePhoneNumber)
          errors['contactInfo.mobilePhoneNumber'] = ['A phone number is required for new ACH payments.'];
        if (!((c.firstName && c.lastName) || c.companyName)) {
          errors['contactInfo.firstName'] = ['Send firstName and lastName, or companyName, for new ACH payments.'];
        }
      }
      if (!cmd.billingAddress) errors.billingAddress = ['BillingAddress is required for new ACH payments.'];
      if (cmd.accountHolderType == null) {
        errors.accountHolderType = ["'accountHolderType' is required for new ACH payments: 1 Business, 2 Personal."];
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      return {
        customer: null,
        paymentMethodId: null,
        accountNumber: checked.accountNumber,
        routingNumber: checked.routingNumber,
        mask: maskAccount(checked.accountNumber),
        accountTypeId: cmd.accountType ?? 1,
        accountHolderTypeId: cmd.accountHolderType!,
        taxId: null,
        name: null,
      };
    }
    let customer: Customer | null = null;
    let methodId = cmd.paymentMethodId ?? null;
    if (cmd.customerId) {
      customer = await this.deps.customers.get(cmd.merchantId, cmd.customerId);
      methodId ??= customer.defaultAchPaymentMethodId;
      if (!methodId) {
        throw ValidationError.field(
          'paymentMethodId',
          'The customer has no default bank account; send a paymentMethodId.',
        );
      }
    }
    if (!methodId) {
      throw new ValidationError(
        {
          paymentMethodId: [
            "Provide a bank account: 'paymentMethodId' (with 'customerId' for a customer's account), or 'accountNumber' and 'routingNumber'.",
          ],
        },
        'No payment instrument was provided.',
      );
    }
    const { method, accountNumber } = await this.deps.vault.usableBankAccount(cmd.merchantId, methodId);
    if (customer && method.customerId !== customer.id) throw new NotFoundError('PaymentMethod', methodId);
    if (!customer && method.customerId) {
      throw ValidationError.field(
        'customerId',
        "This payment method belongs to a customer: send its 'customerId' too.",
      );
    }
    return {
      customer,
      paymentMethodId: method.id,
      accountNumber,
      routingNumber: method.routingNumber!,
      mask: method.mask,
      accountTypeId: cmd.accountType ?? method.accountTypeId ?? 1,
      accountHolderTypeId: cmd.accountHolderType ?? method.accountHolderTypeId ?? 2,
      taxId: method.taxId,
      name: method.name,
    };
  }

  private async scheduleCutoff(tx: Sql, processorId: string, windowAt: Date): Promise<void> {
    await enqueue(tx, this.clock, {
      queue: ACH_CUTOFF_QUEUE,
      payload: { processorId, window: windowAt.toISOString() },
      runAt: windowAt,
      singletonKey: `${processorId}|${windowAt.toISOString()}`,
    });
  }

  // -----------------------------------------------------------------------------------------------------------------
  // Hold, unhold, void, refund

  hold(merchantId: string, id: string, claim?: RequestClaim): Promise<AchResponse> {
    return this.move(merchantId, id, claim, {
      from: [AchStatus.Scheduled],
      to: AchStatus.Held,
      responseType: AchType.Hold,
      event: 'transaction.ach.held',
      refusal: 'Only a Scheduled ACH transaction can be put on hold.',
    });
  }

  unhold(merchantId: string, id: string, claim?: RequestClaim): Promise<AchResponse> {
    return this.move(merchantId, id, claim, {
      from: [AchStatus.Held],
      to: AchStatus.Scheduled,
      responseType: AchType.UnHold,
      event: 'payment.ach.released',
      refusal: 'Only a Held ACH transaction can be released.',
      // Released after its window passed, it waits for the next one.
      reschedule: true,
    });
  }

  void(merchantId: string, id: string, claim?: RequestClaim): Promise<AchResponse> {
    return this.move(merchantId, id, claim, {
      from: [AchStatus.Scheduled, AchStatus.Held],
      to: AchStatus.Cancelled,
      responseType: AchType.Cancel,
      event: 'transaction.ach.cancelled',
      refusal:
        'Only a Scheduled or Held ACH transaction can be voided: once submitted to the ACH network it cannot be withdrawn; refund it after it clears.',
    });
  }

  /**
   * A state move, as one compare-and-set. A retry whose first attempt was cut off (RequestClaim.recovering) and finds
   * the transaction already where the move leads answers with it: the first attempt committed before its node died.
   */
  private async move(
    merchantId: string,
    id: string,
    claim: RequestClaim | undefined,
    rule: {
      from: number[];
      to: number;
      responseType: number;
      event: TransactionEventType;
      refusal: string;
      reschedule?: boolean;
    },
  ): Promise<AchResponse> {
    return withTransaction(this.deps.pool, async (tx) => {
      const now = this.clock.now();
      const { rows } = await tx.query(
        `UPDATE transactions t SET status_id = $4::smallint, modified_at = $5,
           voided_at = CASE WHEN $4::smallint = ${AchStatus.Cancelled} THEN $5 ELSE voided_at END
         WHERE id = $1 AND merchant_id = $2 AND method = 'ach' AND status_id = ANY($3::smallint[])
         RETURNING ${TX_COLUMNS}`,
        [id, merchantId, rule.from, rule.to, now],
      );
      if (!rows[0]) {
        const current = await tx.query(
          `SELECT ${TX_COLUMNS} FROM transactions t WHERE id = $1 AND merchant_id = $2 AND method = 'ach'`,
          [id, merchantId],
        );
        if (!current.rows[0]) throw new NotFoundError('Transaction', id);
        const found = toTransaction(current.rows[0]);
        if (claim?.recovering && found.statusId === rule.to) return achResponse(found, rule.responseType);
        throw new ValidationError(
          { transactionId: [`${rule.refusal} Its status is ${STATUS_NAMES[found.statusId]}.`] },
          rule.refusal,
          'InvalidTransactionStatus',
        );
      }
      const t = toTransaction(rows[0]);
      if (rule.reschedule) {
        const entry = (
          await tx.query(`SELECT processor_id, is_faster_processing FROM ach_entries WHERE transaction_id = $1`, [id])
        ).rows[0] as { processor_id: string; is_faster_processing: boolean };
        const settings = await this.processorSettings(entry.processor_id, tx);
        const windowAt = nextCutoff(now, settings, entry.is_faster_processing);
        await tx.query('UPDATE ach_entries SET window_at = $2 WHERE transaction_id = $1', [id, windowAt]);
        await this.scheduleCutoff(tx, entry.processor_id, windowAt);
      }
      this.event(tx, rule.event, t);
      return achResponse(t, rule.responseType);
    });
  }

  /** Refund of a cleared debit: a reversing credit to the same account (type AchRefund); the original is Refunded. */
  async refund(merchantId: string, id: string, claim?: RequestClaim): Promise<AchResponse> {
    const earlier = await this.createdEarlier(merchantId, claim);
    if (earlier) return achResponse(earlier);
    const now = this.clock.now();
    const refund = await withTransaction(this.deps.pool, async (tx) => {
      const { rows } = await tx.query(
        `UPDATE transactions t SET status_id = ${AchStatus.Refunded}, refunded_cents = captured_cents, modified_at = $3
         WHERE id = $1 AND merchant_id = $2 AND method = 'ach' AND type_id = ${AchType.Debit}
           AND status_id = ${AchStatus.Cleared}
         RETURNING ${TX_COLUMNS}`,
        [id, merchantId, now],
      );
      if (!rows[0]) {
        const current = await tx.query<{ status_id: number; type_id: number }>(
          `SELECT status_id, type_id FROM transactions WHERE id = $1 AND merchant_id = $2 AND method = 'ach'`,
          [id, merchantId],
        );
        const row = current.rows[0];
        if (!row) throw new NotFoundError('Transaction', id);
        const why =
          row.type_id !== AchType.Debit
            ? 'Only an ACH debit can be refunded.'
            : `Only a Cleared ACH debit can be refunded; its status is ${STATUS_NAMES[row.status_id]}.`;
        throw new ValidationError({ transactionId: [why] }, why, 'InvalidTransactionStatus');
      }
      const original = toTransaction(rows[0]);
      const entry = await tx.query<{ account_sealed: Buffer; data_key_version: number }>(
        'SELECT account_sealed, data_key_version FROM ach_entries WHERE transaction_id = $1',
        [id],
      );
      const source = entry.rows[0]!;
      const dataKey = await this.deps.vault.dataKeys.get(merchantId, source.data_key_version, tx);
      const accountNumber = decryptWith(dataKey, source.account_sealed, id);
      const current = await this.deps.vault.dataKeys.current(merchantId, tx);
      const refundId = newId();
      const windowAt = nextCutoff(now, await this.processorSettings(original.processorId, tx), false);
      const refund = newAchTransaction({
        id: refundId,
        merchantId,
        processorId: original.processorId,
        typeId: AchType.Refund,
        originalTransactionId: id,
        idempotencyId: claim?.id ?? null,
        customerId: original.customerId,
        paymentMethodId: original.paymentMethodId,
        createMethodId: original.createMethodId,
        amounts: plainAmount(original.totalCents),
        authorizedCents: original.totalCents,
        panMask: original.panMask,
        billingAddress: original.billingAddress,
        shippingAddress: original.shippingAddress,
        contactInfo: original.contactInfo,
        createdAt: now,
      });
      await insertTransaction(tx, refund);
      await tx.query(
        `INSERT INTO ach_entries (transaction_id, merchant_id, processor_id, sec_code, is_debit, routing_number,
           account_mask, account_sealed, data_key_version, account_type_id, account_holder_type_id, receiver_name,
           company_name, tax_id, requester_ip, is_faster_processing, window_at)
         SELECT $2, merchant_id, processor_id, sec_code, false, routing_number, account_mask, $3, $4,
                account_type_id, account_holder_type_id, receiver_name, company_name, tax_id, requester_ip, false, $5
         FROM ach_entries WHERE transaction_id = $1`,
        [id, refundId, encryptWith(current, accountNumber, refundId), current.version, windowAt],
      );
      this.event(tx, 'transaction.ach.refunded', original, { refundTransactionId: refundId });
      this.event(tx, 'transaction.ach.scheduled', refund, { originalTransactionId: id });
      await this.scheduleCutoff(tx, original.processorId, windowAt);
      return refund;
    }).catch((error: unknown) => this.createdMeanwhile(error, merchantId, claim));
    return achResponse(refund);
  }

  // -----------------------------------------------------------------------------------------------------------------
  // The cutoff: Scheduled entries of a window → one NACHA file, In progress, its own settlement batch.

  async cutoff(processorId: string, window: Date): Promise<string | null> {
    const processor = await this.deps.merchants.processorWithSettings(processorId);
    if (processor?.method !== 'ach') return null;
    const merchantId = processor.merchantId;
    const configuration = await this.deps.merchants.getConfiguration(merchantId);
    const settings = await this.processorSettings(processorId);
    const { effectiveDate, settlesAt } = settlementOf(window, settings);
    const returnsAt = returnsAvailableAt(effectiveDate);

    return withTransaction(this.deps.pool, async (tx) => {
      const now = this.clock.now();
      const fileId = newId();
      const batchId = newId();
      const odfiId = settings.odfiRoutingNumber.slice(0, 8);
      const companyId = companyIdentification(processorId);
      const local = localParts(window, settings.timeZone);
      const modifier = await this.fileIdModifier(tx, processorId, window, settings.timeZone);
      // The file and its batch exist first (the entries point at them); their totals follow once it is written.
      await tx.query(
        `INSERT INTO ach_files (id, merchant_id, processor_id, direction, window_at, created_at, entry_count,
           total_debit_cents, total_credit_cents, file_id_modifier, settles_at, returns_due_at)
         VALUES ($1, $2, $3, 'origination', $4, $5, 0, 0, 0, $6, $7, $8)`,
        [fileId, merchantId, processorId, window, now, modifier, settlesAt, returnsAt],
      );
      await this.deps.settlements.openFileBatch(tx, {
        id: batchId,
        merchantId,
        processorId,
        openedAt: now,
        closesAt: returnsAt,
        achFileId: fileId,
        externalBatchId: `${yymmdd(local)}${modifier}`,
      });
      const entryCount = await claimWindow(tx, {
        processorId,
        window,
        now,
        fileId,
        batchId,
        odfiId,
        effective: isoDate(effectiveDate),
      });
      if (entryCount === 0) {
        // A window with no entries makes no file (voids or holds may have taken them all since the job was queued).
        await this.deps.settlements.discard(tx, batchId);
        await tx.query('DELETE FROM ach_files WHERE id = $1', [fileId]);
        return null;
      }
      const fileKey = await this.deps.vault.dataKeys.current(merchantId, tx);
      const totals = await writeCutoffFile(tx, {
        fileId,
        merchantId,
        header: {
          immediateDestination: settings.odfiRoutingNumber,
          immediateOrigin: companyId,
          destinationName: settings.odfiName,
          originName: configuration.companyName,
          creationDate: yymmdd(local),
          creationTime: `${String(local.hour).padStart(2, '0')}${String(local.minute).padStart(2, '0')}`,
          fileIdModifier: modifier,
          referenceCode: fileId.slice(0, 8),
        },
        batchHeader: (secCode, entryDescription) => ({
          companyName: configuration.companyName,
          companyId,
          secCode,
          entryDescription,
          descriptiveDate: yymmdd(effectiveDate),
          effectiveEntryDate: yymmdd(effectiveDate),
          odfiId,
        }),
        settings,
        dataKey: (version) => this.deps.vault.dataKeys.get(merchantId, version, tx),
        append: this.files.writer(tx, fileId, fileKey).append,
        clock: this.clock,
        recordsPerPart: this.deps.filePartRecords ?? DEFAULT_RECORDS_PER_PART,
      });
      await tx.query(
        'UPDATE ach_files SET entry_count = $2, total_debit_cents = $3, total_credit_cents = $4 WHERE id = $1',
        [fileId, entryCount, totals.totalDebitCents.toString(), totals.totalCreditCents.toString()],
      );
      await enqueue(tx, this.clock, { queue: ACH_SUBMIT_QUEUE, payload: { fileId }, singletonKey: fileId });
      await enqueue(tx, this.clock, {
        queue: ACH_CLEAR_QUEUE,
        payload: { fileId },
        runAt: settlesAt,
        singletonKey: fileId,
      });
      await enqueue(tx, this.clock, {
        queue: ACH_RETURNS_QUEUE,
        payload: { fileId },
        runAt: returnsAt,
        singletonKey: fileId,
      });
      return fileId;
    });
  }

  /** A-Z then 0-9: one letter per file of the processor on the window's local day. */
  private async fileIdModifier(tx: Sql, processorId: string, window: Date, timeZone: string): Promise<string> {
    const { rows } = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ach_files
       WHERE processor_id = $1 AND direction = 'origination'
         AND (window_at AT TIME ZONE $3)::date = ($2::timestamptz AT TIME ZONE $3)::date`,
      [processorId, window, timeZone],
    );
    return 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[rows[0]!.n % 36]!;
  }

  /** Sends a file to the bank (idempotent per file); entries the bank refuses fail. */
  async submitFile(fileId: string): Promise<void> {
    const file = await this.fileRow(fileId);
    if (!file || file.submitted_at) return;
    const configuration = await this.deps.merchants.getConfiguration(file.merchant_id);
    const processor = configuration.processors.find((p) => p.id === file.processor_id)!;
    const answer = await this.deps.connector(processor.connector).submit({
      processorId: file.processor_id,
      fileId,
      content: await this.files.text(file.merchant_id, fileId),
    });
    await withTransaction(this.deps.pool, async (tx) => {
      const updated = await tx.query('UPDATE ach_files SET submitted_at = $2 WHERE id = $1 AND submitted_at IS NULL', [
        fileId,
        this.clock.now(),
      ]);
      if (updated.rowCount === 0) return;
      const refusals = answer.fileRejected
        ? (
            await tx.query<{ trace_number: string }>('SELECT trace_number FROM ach_entries WHERE file_id = $1', [
              fileId,
            ])
          ).rows.map((row) => ({ traceNumber: row.trace_number, reason: `File rejected: ${answer.fileRejected}` }))
        : answer.rejected;
      if (refusals.length === 0) return;
      const { rows } = await tx.query(
        `WITH refused AS (
           UPDATE ach_entries a SET failure_reason = v.reason
           FROM unnest($2::text[], $3::text[]) AS v(trace, reason)
           WHERE a.file_id = $1 AND a.trace_number = v.trace RETURNING a.transaction_id, v.reason
         )
         UPDATE transactions t SET status_id = ${AchStatus.Failed}, modified_at = $4, details_message = r.reason,
           response_code = 'E01'
         FROM refused r WHERE t.id = r.transaction_id AND t.status_id = ${AchStatus.InProgress}
         RETURNING ${TX_COLUMNS}`,
        [fileId, refusals.map((r) => r.traceNumber), refusals.map((r) => r.reason), this.clock.now()],
      );
      for (const row of rows) this.event(tx, 'transaction.ach.failed', toTransaction(row));
    });
  }

  /** Settlement date reached: the file's In progress entries clear and their money is posted. Idempotent. */
  async clearFile(fileId: string, sql?: Tx): Promise<number> {
    const work = async (tx: Tx) => {
      const now = this.clock.now();
      const { rows } = await tx.query(
        `UPDATE transactions t SET status_id = ${AchStatus.Cleared}, captured_cents = total_cents, captured_at = $2,
           modified_at = $2
         FROM ach_entries a
         WHERE a.transaction_id = t.id AND a.file_id = $1 AND t.status_id = ${AchStatus.InProgress}
         RETURNING ${TX_COLUMNS}, a.is_debit`,
        [fileId, now],
      );
      for (const row of rows) {
        const t = toTransaction(row);
        await this.deps.ledger.post(tx, {
          merchantId: t.merchantId,
          kind: 'ach_clearing',
          transactionId: t.id,
          batchId: t.batchId,
          lines: row.is_debit ? lines.capture(t.totalCents) : lines.reverseCapture(t.totalCents),
        });
        this.event(tx, 'transaction.ach.cleared', t);
      }
      return rows.length;
    };
    return sql ? work(sql) : withTransaction(this.deps.pool, work);
  }

  /**
   * Returns are due: the file's entries clear first if they have not yet, the bank's return files are imported,
   * and the file's batch is Settled once every entry is final.
   */
  async collectReturns(fileId: string): Promise<void> {
    const file = await this.fileRow(fileId);
    if (!file) return;
    if (!file.submitted_at) await this.submitFile(fileId);
    await this.clearFile(fileId);
    const configuration = await this.deps.merchants.getConfiguration(file.merchant_id);
    const processor = configuration.processors.find((p) => p.id === file.processor_id)!;
    const connector = this.deps.connector(processor.connector);
    const files = await connector.returnFiles(file.processor_id);
    for (const returned of files) await this.importReturnFile(file.processor_id, returned.content, returned.id);
    if (files.length > 0)
      await connector.acknowledge(
        file.processor_id,
        files.map((f) => f.id),
      );
    await this.settleFileBatch(fileId);
  }

  /**
   * Imports a NACHA return file: return entries (addenda 99) charge their entries back and reverse their money;
   * notifications of change (addenda 98) correct the vaulted account. The path a bank's file takes, and an
   * operator's upload. Importing the same file twice changes nothing.
   */
  async importReturnFile(processorId: string, content: string, externalId?: string) {
    let parsed: ParsedFile;
    try {
      parsed = parseNacha(content);
    } catch (error) {
      throw ValidationError.field('file', `Not a valid NACHA file: ${(error as Error).message}`);
    }
    const processor = await this.deps.merchants.processorWithSettings(processorId);
    if (processor?.method !== 'ach') throw new NotFoundError('PaymentProcessor', processorId);
    const merchantId = processor.merchantId;
    const external = externalId ?? createHash('sha256').update(content).digest('hex');
    const summary = { returns: 0, notificationsOfChange: 0, unmatched: [] as string[], alreadyApplied: 0 };
    const importId = newId();
    const now = this.clock.now();
    const applied = await withTransaction(this.deps.pool, async (tx) => {
      const fileKey = await this.deps.vault.dataKeys.current(merchantId, tx);
      // The parser has checked the file control's totals against the entries: they are the file's totals.
      const { totalDebitCents, totalCreditCents } = parsed.control;
      const count = parsed.batches.reduce((sum, batch) => sum + batch.entries.length, 0);
      const inserted = await tx.query(
        `INSERT INTO ach_files (id, merchant_id, processor_id, direction, window_at, created_at, entry_count,
           total_debit_cents, total_credit_cents, external_id)
         VALUES ($1, $2, $3, 'return', $4, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        [
          importId,
          merchantId,
          processorId,
          now,
          count,
          totalDebitCents.toString(),
          totalCreditCents.toString(),
          external,
        ],
      );
      if (inserted.rowCount === 0) return false;
      await this.files.writer(tx, importId, fileKey).append(content);
      for (const batch of parsed.batches) {
        for (const entry of batch.entries) {
          for (const addenda of entry.addenda) {
            if (addenda.type === '99') {
              const result = await this.applyReturn(
                tx,
                processorId,
                addenda.originalTraceNumber,
                addenda.returnReasonCode,
                returnReason(addenda.returnReasonCode, addenda.information),
              );
              if (result === 'applied') summary.returns++;
              else if (result === 'already') summary.alreadyApplied++;
              else summary.unmatched.push(addenda.originalTraceNumber);
            } else if (addenda.type === '98') {
              const ok = await this.applyChange(
                tx,
                merchantId,
                processorId,
                addenda.originalTraceNumber,
                addenda.changeCode,
                addenda.correctedData,
              );
              if (ok) summary.notificationsOfChange++;
              else summary.unmatched.push(addenda.originalTraceNumber);
            }
          }
        }
      }
      await tx.query('UPDATE ach_files SET import_summary = $2 WHERE id = $1', [importId, summary]);
      return true;
    });
    if (!applied) {
      const { rows } = await this.deps.pool.query<{ id: string; import_summary: typeof summary }>(
        'SELECT id, import_summary FROM ach_files WHERE processor_id = $1 AND external_id = $2',
        [processorId, external],
      );
      return { fileId: rows[0]!.id, duplicate: true, ...rows[0]!.import_summary };
    }
    return { fileId: importId, duplicate: false, ...summary };
  }

  private async applyReturn(
    tx: Tx,
    processorId: string,
    trace: string,
    code: string,
    reason: string,
  ): Promise<'applied' | 'already' | 'unmatched'> {
    const { rows } = await tx.query(
      `SELECT t.id, t.status_id, a.file_id FROM ach_entries a JOIN transactions t ON t.id = a.transaction_id
       WHERE a.processor_id = $1 AND a.trace_number = $2 ORDER BY t.created_at DESC LIMIT 1 FOR UPDATE OF t`,
      [processorId, trace],
    );
    const found = rows[0];
    if (!found) return 'unmatched';
    if (found.status_id === AchStatus.ChargedBack) return 'already';
    // A return can overtake the clearing job after a jump of the clock: the entry clears first, then returns.
    if (found.status_id === AchStatus.InProgress) await this.clearFile(found.file_id, tx);
    const now = this.clock.now();
    const updated = await tx.query(
      // Returned before its batch settled, the entry moved nothing; returned later (a late return, imported by hand),
      // the settled batch keeps what it paid out and the reversal is the merchant's debt (merchant_payable).
      `UPDATE transactions t SET status_id = ${AchStatus.ChargedBack},
         captured_cents = CASE WHEN t.settled_at IS NULL THEN 0 ELSE t.captured_cents END,
         -- A refunded debit can still come back (the return window outlives clearing): its refund was its own entry
         -- and stays paid; the original, having collected nothing, has nothing left to refund against.
         refunded_cents = CASE WHEN t.settled_at IS NULL THEN 0 ELSE t.refunded_cents END, modified_at = $2,
         response_code = $3, details_message = $4
       FROM (SELECT o.id, o.captured_cents, a.is_debit FROM transactions o JOIN ach_entries a ON a.transaction_id = o.id
             WHERE o.id = $1) old
       WHERE t.id = old.id AND t.status_id IN (${AchStatus.Cleared}, ${AchStatus.Refunded})
       RETURNING ${TX_COLUMNS}, old.is_debit, old.captured_cents AS was_captured`,
      [found.id, now, code, `Returned: ${code} ${reason}`.trim()],
    );
    if (!updated.rows[0]) return 'unmatched';
    const row = updated.rows[0];
    const t = toTransaction(row);
    await tx.query(
      'UPDATE ach_entries SET return_code = $2, return_reason = $3, returned_at = $4 WHERE transaction_id = $1',
      [found.id, code, reason || null, now],
    );
    const amount = Number(row.was_captured);
    await this.deps.ledger.post(tx, {
      merchantId: t.merchantId,
      kind: 'ach_return',
      transactionId: t.id,
      batchId: t.batchId,
      lines: row.is_debit ? lines.reverseCapture(amount) : lines.capture(amount),
    });
    this.event(tx, 'transaction.ach.charged_back', t, { returnCode: code, returnReason: reason || null });
    return 'applied';
  }

  private async applyChange(
    tx: Tx,
    merchantId: string,
    processorId: string,
    trace: string,
    code: string,
    corrected: string,
  ): Promise<boolean> {
    const { rows } = await tx.query<{ transaction_id: string; payment_method_id: string | null }>(
      `UPDATE ach_entries a SET change_code = $3, corrected_data = $4
       FROM transactions t WHERE t.id = a.transaction_id AND a.processor_id = $1 AND a.trace_number = $2
       RETURNING a.transaction_id, t.payment_method_id`,
      [processorId, trace, code, corrected],
    );
    const row = rows[0];
    if (!row) return false;
    if (row.payment_method_id) {
      const value = corrected.trim();
      // C01 account number, C02 routing number, C03 both ("routing account"), C05 transaction code (account type).
      const change =
        code === 'C01'
          ? { accountNumber: value }
          : code === 'C02'
            ? { routingNumber: value.slice(0, 9) }
            : code === 'C03'
              ? { routingNumber: value.slice(0, 9), accountNumber: value.slice(9).trim() }
              : code === 'C05'
                ? { accountTypeId: Number(value.slice(0, 2)) >= 30 ? 2 : 1 }
                : null;
      if (change) await this.deps.vault.correctBankAccount(merchantId, row.payment_method_id, change, tx);
    }
    return true;
  }

  /** Closes a file's batch once no entry can still clear or return: totals frozen, the net paid out. */
  async settleFileBatch(fileId: string): Promise<boolean> {
    return withTransaction(this.deps.pool, async (tx) => {
      const batch = await this.deps.settlements.lock(tx, { achFileId: fileId });
      if (!batch || batch.statusId === BatchStatus.Settled) return false;
      if (await hasEntriesOutstanding(tx, batch.id)) return false;
      const totals = await batchMemberTotals(tx, batch.id);
      const net = totals.salesCents - totals.refundsCents;
      const now = this.clock.now();
      await this.deps.settlements.markSettled(tx, batch.id, now, { totals });
      await markBatchMembersSettled(tx, batch.id, now);
      await this.deps.ledger.post(tx, {
        merchantId: batch.merchantId,
        kind: 'settlement',
        batchId: batch.id,
        lines: lines.settle(net),
      });
      tx.defer(
        eventsInsert(this.clock, [
          {
            type: 'settlement.batch.completed',
            merchantId: batch.merchantId,
            resourceType: 'settlement',
            resourceId: batch.id,
            data: {
              batchId: batch.id,
              transactionCount: totals.transactionCount,
              netAmount: fromCents(net),
              salesAmount: fromCents(totals.salesCents),
              refundsAmount: fromCents(totals.refundsCents),
            },
          },
        ]).query,
      );
      return true;
    });
  }

  // -----------------------------------------------------------------------------------------------------------------
  // Reads

  async entries(merchantId: string, ids: readonly string[]): Promise<Map<string, AchEntry>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.deps.pool.query(
      `SELECT ${ENTRY_COLUMNS} FROM ach_entries a WHERE a.merchant_id = $1 AND a.transaction_id = ANY($2::uuid[])`,
      [merchantId, ids],
    );
    return new Map(rows.map((row) => [row.transaction_id as string, toEntry(row)]));
  }

  async listFiles(filter: { merchantId?: string; processorId?: string }, page: PageRequest) {
    const where: string[] = [];
    const values: unknown[] = [];
    if (filter.merchantId) {
      values.push(filter.merchantId);
      where.push(`merchant_id = $${values.length}`);
    }
    if (filter.processorId) {
      values.push(filter.processorId);
      where.push(`processor_id = $${values.length}`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ rows }, count] = await Promise.all([
      this.deps.pool.query(
        `SELECT id, merchant_id, processor_id, direction, window_at, created_at, entry_count, total_debit_cents,
           total_credit_cents, submitted_at, settles_at, returns_due_at, import_summary
         FROM ach_files ${clause} ${page.orderSql} LIMIT ${page.limit} OFFSET ${page.offset}`,
        values,
      ),
      this.deps.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ach_files ${clause}`, values),
    ]);
    return { items: rows, total: count.rows[0]!.n };
  }

  /** An operator's download: the file part by part. */
  async fileParts(id: string): Promise<AsyncIterable<string>> {
    const file = await this.fileRow(id);
    if (!file) throw new NotFoundError('AchFile', id);
    return this.files.read(file.merchant_id, id);
  }

  private async fileRow(id: string) {
    const { rows } = await this.deps.pool.query<{
      id: string;
      merchant_id: string;
      processor_id: string;
      submitted_at: Date | null;
    }>('SELECT id, merchant_id, processor_id, submitted_at FROM ach_files WHERE id = $1', [id]);
    return rows[0];
  }

  /** The ACH settings of a processor (operator). */
  async processorSettings(processorId: string, sql: Sql = this.deps.pool): Promise<AchProcessorSettings> {
    const processor = await this.deps.merchants.processorWithSettings(processorId, sql);
    if (processor?.method !== 'ach') throw new NotFoundError('PaymentProcessor', processorId);
    return achSettingsOf(processor.settings.ach);
  }

  async updateProcessorSettings(processorId: string, changes: Partial<AchProcessorSettings>) {
    const current = await this.processorSettings(processorId);
    const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
    const problems = settingsProblems(next);
    if (Object.keys(problems).length > 0) throw new ValidationError(problems);
    // The cutoffs are what the payments configuration shows as the processor's time slots.
    const slots = [...next.sameDayCutoffs, ...next.standardCutoffs].sort().map((time) => ({
      hours: Number(time.slice(0, 2)),
      minutes: Number(time.slice(3, 5)),
      timezoneName: next.timeZone,
    }));
    await this.deps.merchants.updateProcessorSettings(processorId, 'ach', next, slots);
    return next;
  }

  private event(tx: Tx, type: TransactionEventType, t: Transaction, extra: Record<string, unknown> = {}): void {
    tx.defer(transactionEvents(this.clock, type, t, extra));
  }
}

/** A new ACH transaction: Scheduled for its cutoff window, accepted ("Approve", 00) when created. */
function newAchTransaction(t: Omit<NewTransaction, 'method' | 'statusId'>): Transaction {
  return newTransaction({
    ...t,
    method: 'ach',
    statusId: AchStatus.Scheduled,
    resultCode: 'Approve',
    responseCode: '00',
  });
}
