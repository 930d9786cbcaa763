import { addBusinessDays, type CalendarDate } from '../../platform/clock/business-days.js';
import { zonedInstant } from '../../platform/clock/zoned.js';

/**
 * What Tessera asks of an ACH originating bank (ODFI). A real bank adapter (SFTP drop box, bank API) and the
 * sandbox bank implement the same interface. Files are NACHA text both ways.
 */
export interface AchSubmission {
  processorId: string;
  /** Our id of the file: submitting the same file again must not send it twice. */
  fileId: string;
  content: string;
}

export interface AchSubmissionAnswer {
  /** The whole file was refused (it could not be read): every entry in it failed. */
  fileRejected?: string;
  /** Entries the bank refused on a processing error, by trace number. */
  rejected: Array<{ traceNumber: string; reason: string }>;
}

export interface AchReturnFile {
  /** The bank's id for the file. */
  id: string;
  content: string;
}

/** Per call: `signal` aborts the call at its deadline (BANK_TIMEOUT_MS; the connector stops and drops it). */
export interface BankCallOptions {
  signal?: AbortSignal;
}

export interface AchConnector {
  submit(file: AchSubmission, options?: BankCallOptions): Promise<AchSubmissionAnswer>;
  /** Return and notification-of-change files the bank has for the processor and we have not acknowledged. */
  returnFiles(processorId: string, options?: BankCallOptions): Promise<AchReturnFile[]>;
  /** Called once a return file is imported, so it is not offered again. */
  acknowledge(processorId: string, fileIds: readonly string[], options?: BankCallOptions): Promise<void>;
}

/**
 * The network's rule for when returns and notifications of change come back: 09:00 New York time, two business days
 * after the entries' settlement date. The sandbox bank releases its return files then, and the ACH module collects
 * them then.
 */
export function returnsAvailableAt(settlementDate: CalendarDate): Date {
  const due = addBusinessDays(settlementDate, 2);
  return zonedInstant(due.year, due.month, due.day, 9, 0, 'America/New_York');
}
