import type { Clock } from '../../platform/clock/clock.js';
import { localParts } from '../../platform/clock/zoned.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Sql } from '../../platform/db/pool.js';
import {
  type AchConnector,
  type AchReturnFile,
  type AchSubmission,
  type AchSubmissionAnswer,
  returnsAvailableAt,
} from './ach-connector.js';
import {
  type BatchHeader,
  buildNachaFile,
  type EntryDetail,
  NachaFormatError,
  type ParsedEntry,
  parseNacha,
  yymmdd,
} from './nacha.js';
import { CHANGE_REASONS, RETURN_REASONS } from './return-codes.js';

/**
 * The sandbox bank: a deterministic stand-in for the ODFI and the receiving banks behind it. It reads each file we
 * send with the same NACHA parser a return file goes through, refuses entries it cannot process, and prepares a
 * return file for the entries that will come back, available at 09:00 New York time two business days after their
 * settlement date. What comes back is decided by the receiver's account number (docs/sandbox.md).
 */
export interface SandboxAccountRule {
  accountNumber: string;
  kind: 'return' | 'change' | 'reject';
  code: string;
  reason: string;
  /** Notification of change: the corrected data. */
  correctedData?: string;
}

export const SANDBOX_ACCOUNT_RULES: readonly SandboxAccountRule[] = [
  { accountNumber: '100000001', kind: 'return', code: 'R01', reason: RETURN_REASONS.R01! },
  { accountNumber: '100000002', kind: 'return', code: 'R02', reason: RETURN_REASONS.R02! },
  { accountNumber: '100000003', kind: 'return', code: 'R03', reason: RETURN_REASONS.R03! },
  { accountNumber: '100000004', kind: 'return', code: 'R04', reason: RETURN_REASONS.R04! },
  { accountNumber: '100000010', kind: 'return', code: 'R10', reason: RETURN_REASONS.R10! },
  { accountNumber: '100000029', kind: 'return', code: 'R29', reason: RETURN_REASONS.R29! },
  {
    accountNumber: '100000099',
    kind: 'change',
    code: 'C01',
    reason: CHANGE_REASONS.C01!,
    correctedData: '100000098',
  },
  { accountNumber: '100000900', kind: 'reject', code: 'E01', reason: 'Entry rejected by the bank: processing error' },
];
const RULES = new Map(SANDBOX_ACCOUNT_RULES.map((rule) => [rule.accountNumber, rule]));

const BANK_ROUTING = '071000013';
const NEW_YORK = 'America/New_York';

/** Return entry transaction codes: the original's code with its last digit made 1 (credits) or 6 (debits). */
function returnCode(original: number): number {
  return original - (original % 10) + (original % 10 >= 5 ? 6 : 1);
}

export class SandboxAchBank implements AchConnector {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async submit(file: AchSubmission): Promise<AchSubmissionAnswer> {
    const known = await this.sql.query<{ answer: AchSubmissionAnswer }>(
      `SELECT answer FROM sandbox_ach_bank_files WHERE origination_file_id = $1 AND kind = 'received'`,
      [file.fileId],
    );
    if (known.rows[0]) return known.rows[0].answer;

    const { answer, returnFile } = sandboxBankAnswer(file.content, this.clock.now());

    const inserted = await this.sql.query(
      `INSERT INTO sandbox_ach_bank_files (id, processor_id, kind, origination_file_id, answer, available_at)
       VALUES ($1, $2, 'received', $3, $4, $5) ON CONFLICT DO NOTHING`,
      [newId(), file.processorId, file.fileId, answer, this.clock.now()],
    );
    if (inserted.rowCount === 1 && returnFile) {
      await this.sql.query(
        `INSERT INTO sandbox_ach_bank_files (id, processor_id, kind, origination_file_id, content, available_at)
         VALUES ($1, $2, 'return', $3, $4, $5)`,
        [newId(), file.processorId, file.fileId, returnFile.content, returnFile.availableAt],
      );
    }
    return answer;
  }

  async returnFiles(processorId: string): Promise<AchReturnFile[]> {
    const { rows } = await this.sql.query<{ id: string; content: string }>(
      `SELECT id, content FROM sandbox_ach_bank_files
       WHERE processor_id = $1 AND kind = 'return' AND collected_at IS NULL AND available_at <= $2
       ORDER BY available_at, id`,
      [processorId, this.clock.now()],
    );
    return rows;
  }

  async acknowledge(processorId: string, fileIds: readonly string[]): Promise<void> {
    await this.sql.query(
      `UPDATE sandbox_ach_bank_files SET collected_at = $3
       WHERE processor_id = $1 AND id = ANY($2::uuid[]) AND kind = 'return'`,
      [processorId, fileIds, this.clock.now()],
    );
  }
}

/**
 * What the sandbox bank makes of a file, whoever carries it (the sandbox connector's call, or the tests' bank behind a
 * real SFTP server): entries refused on a processing error, or the whole file refused when it cannot be read, and
 * the return file (returns and notifications of change) it will hand back, with when.
 */
export function sandboxBankAnswer(
  content: string,
  now: Date,
): { answer: AchSubmissionAnswer; returnFile?: { content: string; availableAt: Date } } {
  let answer: AchSubmissionAnswer;
  let returnFile: { content: string; availableAt: Date } | undefined;
  try {
    const parsed = parseNacha(content);
    answer = { rejected: [] };
    const returned: Array<{ header: BatchHeader; entries: EntryDetail[] }> = [];
    const changes: Array<{ header: BatchHeader; entries: EntryDetail[] }> = [];
    let sequence = 0;
    const trace = () => `${BANK_ROUTING.slice(0, 8)}${String(++sequence).padStart(7, '0')}`;
    let settlesOn: { year: number; month: number; day: number } | undefined;
    for (const batch of parsed.batches) {
      const date = batch.header.effectiveEntryDate;
      settlesOn = {
        year: 2000 + Number(date.slice(0, 2)),
        month: Number(date.slice(2, 4)),
        day: Number(date.slice(4, 6)),
      };
      const returns: EntryDetail[] = [];
      const notices: EntryDetail[] = [];
      for (const entry of batch.entries) {
        const rule = RULES.get(entry.accountNumber);
        if (!rule) continue;
        if (rule.kind === 'reject') answer.rejected.push({ traceNumber: entry.traceNumber, reason: rule.reason });
        else (rule.kind === 'return' ? returns : notices).push(answerEntry(entry, rule, trace(), batch.header.odfiId));
      }
      if (returns.length > 0) returned.push({ header: batch.header, entries: returns });
      if (notices.length > 0) {
        changes.push({ header: { ...batch.header, secCode: 'COR', serviceClassCode: 200 }, entries: notices });
      }
    }
    if (settlesOn && returned.length + changes.length > 0) {
      const local = localParts(now, NEW_YORK);
      returnFile = {
        availableAt: returnsAvailableAt(settlesOn),
        content: buildNachaFile(
          {
            immediateDestination: parsed.header.immediateDestination.trim().padStart(9, '0').slice(-9),
            immediateOrigin: ` ${BANK_ROUTING}`,
            destinationName: parsed.header.originName,
            originName: 'SANDBOX RECEIVING BANKS',
            creationDate: yymmdd(local),
            creationTime: `${String(local.hour).padStart(2, '0')}${String(local.minute).padStart(2, '0')}`,
            fileIdModifier: 'A',
            referenceCode: 'RETURNS',
          },
          [...returned, ...changes],
        ).content,
      };
    }
  } catch (error) {
    if (!(error instanceof NachaFormatError)) throw error;
    answer = { fileRejected: error.message, rejected: [] };
  }
  return { answer, ...(returnFile ? { returnFile } : {}) };
}

/** The entry that goes back to the ODFI: a return (addenda 99) or, for zero, a notification of change (98). */
function answerEntry(entry: ParsedEntry, rule: SandboxAccountRule, traceNumber: string, odfiId: string): EntryDetail {
  const original = { originalTraceNumber: entry.traceNumber, originalRdfiId: entry.rdfiRoutingNumber.slice(0, 8) };
  return {
    transactionCode: returnCode(entry.transactionCode),
    rdfiRoutingNumber: routingOf(odfiId),
    accountNumber: entry.accountNumber,
    amountCents: rule.kind === 'return' ? entry.amountCents : 0,
    individualId: entry.individualId,
    individualName: entry.individualName,
    traceNumber,
    addenda: [
      rule.kind === 'return'
        ? { type: '99', returnReasonCode: rule.code, information: rule.reason, ...original }
        : { type: '98', changeCode: rule.code, correctedData: rule.correctedData ?? '', ...original },
    ],
  };
}

/** The ODFI's full routing number from its 8-digit id (the check digit recomputed). */
function routingOf(odfiId: string): string {
  const d = odfiId.split('').map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]!);
  return `${odfiId}${(10 - (sum % 10)) % 10}`;
}
