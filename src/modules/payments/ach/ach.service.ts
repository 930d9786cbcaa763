import type { PageRequest } from '../../../platform/http/paging.js';
import type { RequestClaim } from '../payment-request.js';
import type { Transaction } from '../transactions.model.js';
import type { AchCommand, AchEntry, AchResponse } from './ach.model.js';
import { AchContext, type AchDeps } from './ach-context.js';
import type { AchProcessorSettings } from './ach-schedule.js';
import { clearSettledFile } from './clear.js';
import { type AchClaimToClose, closeAchClaim } from './close-claim.js';
import { createAch } from './create.js';
import { collectBankFiles } from './exchange/collect.js';
import { deliverBankFile } from './exchange/deliver.js';
import { type AlertOutcome, resolveAlert } from './exchange/resolve.js';
import { sweepBankConnections } from './exchange/sweep.js';
import { bankFileContent, entries, fileParts, listBankFiles, listFiles } from './files.js';
import { hold, unhold, voidAch } from './move.js';
import { refundAch } from './refund.js';
import { collectReturns, importReturnFile } from './returns.js';
import { updateProcessorSettings } from './settings.js';
import { settleFileBatch } from './settle-file.js';
import { submitFile } from './submit.js';
import { cutoffWindow } from './window-cutoff.js';

export type { AchDeps } from './ach-context.js';

/**
 * ACH payments, one operation per file under `ach/`. Creating one submits it for processing: it waits, Scheduled,
 * for its processor's next cutoff window, where every Scheduled entry of that window goes into one NACHA file (In
 * progress). The file is its own settlement batch: its entries clear on their settlement date, returns come two
 * business days later, and then the batch is Settled. Every move is a compare-and-set on the transaction's status,
 * so a void racing the cutoff either cancels the entry before the file takes it or finds it already submitted.
 */
export class AchPaymentsService {
  private readonly ctx: AchContext;

  constructor(deps: AchDeps) {
    this.ctx = new AchContext(deps);
  }

  create(cmd: AchCommand): Promise<AchResponse> {
    return createAch(this.ctx, cmd);
  }

  /** A source's lost ACH debit: the one made under its id, or a Failed one recorded in its place (close-claim.ts). */
  closeClaim(claim: AchClaimToClose): Promise<Transaction> {
    return closeAchClaim(this.ctx, claim);
  }

  hold(merchantId: string, id: string, claim?: RequestClaim): Promise<AchResponse> {
    return hold(this.ctx, merchantId, id, claim);
  }

  unhold(merchantId: string, id: string, claim?: RequestClaim): Promise<AchResponse> {
    return unhold(this.ctx, merchantId, id, claim);
  }

  void(merchantId: string, id: string, claim?: RequestClaim): Promise<AchResponse> {
    return voidAch(this.ctx, merchantId, id, claim);
  }

  refund(merchantId: string, id: string, claim?: RequestClaim): Promise<AchResponse> {
    return refundAch(this.ctx, merchantId, id, claim);
  }

  /** A processor's cutoff window: its Scheduled entries into one NACHA file. The file id, or null for none. */
  cutoff(processorId: string, window: Date): Promise<string | null> {
    return cutoffWindow(this.ctx, processorId, window);
  }

  submitFile(fileId: string): Promise<void> {
    return submitFile(this.ctx, fileId);
  }

  /** The clearing job: a file at its settlement date (submitted first if it has not been: clearSettledFile). */
  async clearFile(fileId: string): Promise<number> {
    const file = await this.ctx.fileRow(fileId);
    return file ? clearSettledFile(this.ctx, file) : 0;
  }

  collectReturns(fileId: string): Promise<void> {
    return collectReturns(this.ctx, fileId);
  }

  importReturnFile(processorId: string, content: string, externalId?: string) {
    return importReturnFile(this.ctx, processorId, content, externalId);
  }

  settleFileBatch(fileId: string): Promise<boolean> {
    return settleFileBatch(this.ctx, fileId);
  }

  entries(merchantId: string, ids: readonly string[]): Promise<Map<string, AchEntry>> {
    return entries(this.ctx, merchantId, ids);
  }

  listFiles(filter: { merchantId?: string; processorId?: string }, page: PageRequest) {
    return listFiles(this.ctx, filter, page);
  }

  listBankFiles(filter: { direction?: 'outbound' | 'inbound'; state?: string }, page: PageRequest) {
    return listBankFiles(this.ctx, filter, page);
  }

  bankFileContent(id: string) {
    return bankFileContent(this.ctx, id);
  }

  fileParts(id: string): Promise<AsyncIterable<string>> {
    return fileParts(this.ctx, id);
  }

  /** A bank connection's file to its drop box (exchange/deliver.ts). */
  deliverBankFile(bankFileId: string): Promise<void> {
    return deliverBankFile(this.ctx, bankFileId);
  }

  /** What a bank connection's drop box has for us (exchange/collect.ts): how many files were taken. */
  collectBankFiles(connectionKey: string): Promise<number> {
    return collectBankFiles(this.ctx, connectionKey);
  }

  /** The operator's answer to a delivery alert (exchange/resolve.ts). */
  resolveBankFileAlert(bankFileId: string, outcome: AlertOutcome) {
    return resolveAlert(this.ctx, bankFileId, outcome);
  }

  sweepBankConnections(): Promise<void> {
    return sweepBankConnections(this.ctx);
  }

  processorSettings(processorId: string): Promise<AchProcessorSettings> {
    return this.ctx.processorSettings(processorId);
  }

  updateProcessorSettings(processorId: string, changes: Partial<AchProcessorSettings>) {
    return updateProcessorSettings(this.ctx, processorId, changes);
  }
}
