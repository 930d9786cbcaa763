/**
 * NACHA (ACH) file format: fixed 94-character records, blocking factor 10.
 * The writer streams (a record at a time, totals kept as it goes), so a file of any size is built in constant
 * memory; the parser reads a whole file and checks every control total, the way a receiving bank would.
 * Record layouts follow the NACHA Operating Rules, Appendix Three.
 */

export const RECORD_LENGTH = 94;
const BLOCKING_FACTOR = 10;
const FILLER_RECORD = '9'.repeat(RECORD_LENGTH);

export type SecCode = 'WEB' | 'PPD' | 'CCD' | 'TEL' | 'COR';
export type ServiceClassCode = 200 | 220 | 225;

export interface FileHeader {
  /** The receiving point (the ODFI's bank or its operator): a 9-digit routing number. */
  immediateDestination: string;
  /** The sender: 10 characters (a routing number with a leading space, or a company identifier). */
  immediateOrigin: string;
  destinationName: string;
  originName: string;
  /** YYMMDD and HHMM, in the originator's local time. */
  creationDate: string;
  creationTime: string;
  /** A-Z or 0-9: distinguishes files created the same day. */
  fileIdModifier: string;
  referenceCode?: string;
}

export interface BatchHeader {
  serviceClassCode: ServiceClassCode;
  companyName: string;
  companyDiscretionaryData?: string;
  /** 10 characters, usually "1" followed by the originator's EIN. */
  companyId: string;
  secCode: SecCode;
  entryDescription: string;
  descriptiveDate?: string;
  /** YYMMDD: the day the originator wants the entries to settle. */
  effectiveEntryDate: string;
  /** The first 8 digits of the ODFI's routing number. */
  odfiId: string;
}

export type Addenda =
  | { type: '05'; paymentInfo: string }
  | {
      type: '99';
      returnReasonCode: string;
      originalTraceNumber: string;
      dateOfDeath?: string;
      originalRdfiId: string;
      information?: string;
    }
  | { type: '98'; changeCode: string; originalTraceNumber: string; originalRdfiId: string; correctedData: string };

export interface EntryDetail {
  transactionCode: number;
  /** The receiver's 9-digit routing number (the 9th digit is the check digit). */
  rdfiRoutingNumber: string;
  accountNumber: string;
  amountCents: number;
  individualId: string;
  individualName: string;
  discretionaryData?: string;
  /** 15 digits: the ODFI id (8) and a sequence number (7). */
  traceNumber: string;
  addenda?: readonly Addenda[];
}

export interface BatchInput {
  header: BatchHeader;
  entries: Iterable<EntryDetail> | AsyncIterable<EntryDetail>;
}

export class NachaFormatError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'NachaFormatError';
  }
}

// --- Field formatting --------------------------------------------------------------------------------------------

/** Alphanumeric: upper case, printable ASCII only, left-justified, space-filled, cut to the width. */
export function alpha(value: string | null | undefined, width: number): string {
  const text = (value ?? '').toUpperCase().replace(/[^\x20-\x7E]/g, ' ');
  return text.length >= width ? text.slice(0, width) : text + ' '.repeat(width - text.length);
}

/** Numeric: right-justified, zero-filled; a value too wide is an error, never silently cut. */
export function numeric(value: number | bigint | string, width: number): string {
  const text = typeof value === 'string' ? value : value.toString();
  if (!/^\d*$/.test(text)) throw new NachaFormatError(`"${text}" is not numeric`);
  if (text.length > width) throw new NachaFormatError(`"${text}" does not fit in ${width} digits`);
  return text.padStart(width, '0');
}

/** A calendar date as NACHA writes it: YYMMDD. */
export function yymmdd(d: { year: number; month: number; day: number }): string {
  return `${String(d.year % 100).padStart(2, '0')}${String(d.month).padStart(2, '0')}${String(d.day).padStart(2, '0')}`;
}

/** Credits end in 1-4 (22 checking credit, 32 savings credit, 21/31 their returns); debits in 6-9. */
export function isDebitCode(transactionCode: number): boolean {
  return transactionCode % 10 >= 5;
}

const HASH_MODULUS = 10_000_000_000n;

// --- Writer ------------------------------------------------------------------------------------------------------

interface Totals {
  entryAndAddendaCount: number;
  entryHash: bigint;
  debitCents: bigint;
  creditCents: bigint;
}
const zeroTotals = (): Totals => ({ entryAndAddendaCount: 0, entryHash: 0n, debitCents: 0n, creditCents: 0n });

/**
 * Builds a file record by record, handing each (with its newline) to `emit`. Use it through buildNachaFile (a
 * string) or streamNachaFile (an async iterable of chunks) unless records must be interleaved with other work.
 */
export class NachaWriter {
  private readonly file = zeroTotals();
  private batch = zeroTotals();
  private batchHeader: BatchHeader | undefined;
  private batchCount = 0;
  private records = 0;

  constructor(private readonly emit: (record: string) => void) {}

  private put(record: string): void {
    if (record.length !== RECORD_LENGTH) {
      throw new NachaFormatError(`internal: record of ${record.length} characters: ${record}`);
    }
    this.records++;
    this.emit(`${record}\n`);
  }

  fileHeader(h: FileHeader): void {
    this.put(
      '1' +
        '01' +
        ` ${numeric(h.immediateDestination, 9)}` +
        alpha(h.immediateOrigin.padStart(10, ' '), 10) +
        numeric(h.creationDate, 6) +
        numeric(h.creationTime, 4) +
        alpha(h.fileIdModifier, 1) +
        '094' +
        '10' +
        '1' +
        alpha(h.destinationName, 23) +
        alpha(h.originName, 23) +
        alpha(h.referenceCode, 8),
    );
  }

  startBatch(h: BatchHeader): void {
    if (this.batchHeader) throw new NachaFormatError('internal: a batch is already open');
    this.batchHeader = h;
    this.batch = zeroTotals();
    this.batchCount++;
    this.put(
      '5' +
        numeric(h.serviceClassCode, 3) +
        alpha(h.companyName, 16) +
        alpha(h.companyDiscretionaryData, 20) +
        alpha(h.companyId, 10) +
        alpha(h.secCode, 3) +
        alpha(h.entryDescription, 10) +
        alpha(h.descriptiveDate, 6) +
        numeric(h.effectiveEntryDate, 6) +
        '   ' + // settlement date: inserted by the ACH operator
        '1' +
        numeric(h.odfiId, 8) +
        numeric(this.batchCount, 7),
    );
  }

  entry(e: EntryDetail): void {
    const h = this.batchHeader;
    if (!h) throw new NachaFormatError('internal: an entry outside a batch');
    if (!Number.isSafeInteger(e.amountCents) || e.amountCents < 0 || e.amountCents > 99_999_999_99) {
      throw new NachaFormatError(`amount ${e.amountCents} cents is out of range for an entry`);
    }
    if (!/^\d{9}$/.test(e.rdfiRoutingNumber)) throw new NachaFormatError('routing number must be 9 digits');
    const addenda = e.addenda ?? [];
    if (e.traceNumber.length !== 15) throw new NachaFormatError('trace number must be 15 digits');
    this.put(
      '6' +
        numeric(e.transactionCode, 2) +
        e.rdfiRoutingNumber +
        alpha(e.accountNumber, 17) +
        numeric(e.amountCents, 10) +
        alpha(e.individualId, 15) +
        alpha(e.individualName, 22) +
        alpha(e.discretionaryData, 2) +
        (addenda.length > 0 ? '1' : '0') +
        numeric(e.traceNumber, 15),
    );
    addenda.forEach((a, index) => {
      this.put(addendaRecord(a, index + 1, e.traceNumber));
    });
    const count = 1 + addenda.length;
    const hash = BigInt(e.rdfiRoutingNumber.slice(0, 8));
    const amount = BigInt(e.amountCents);
    for (const totals of [this.batch, this.file]) {
      totals.entryAndAddendaCount += count;
      totals.entryHash = (totals.entryHash + hash) % HASH_MODULUS;
      if (isDebitCode(e.transactionCode)) totals.debitCents += amount;
      else totals.creditCents += amount;
    }
  }

  endBatch(): void {
    const h = this.batchHeader;
    if (!h) throw new NachaFormatError('internal: no batch to end');
    const t = this.batch;
    this.put(
      '8' +
        numeric(h.serviceClassCode, 3) +
        numeric(t.entryAndAddendaCount, 6) +
        numeric(t.entryHash, 10) +
        numeric(t.debitCents, 12) +
        numeric(t.creditCents, 12) +
        alpha(h.companyId, 10) +
        ' '.repeat(19) + // message authentication code
        ' '.repeat(6) +
        numeric(h.odfiId, 8) +
        numeric(this.batchCount, 7),
    );
    this.batchHeader = undefined;
  }

  /** Writes the file control and the filler records. Returns the file's totals. */
  finish(): FileTotals {
    if (this.batchHeader) throw new NachaFormatError('internal: a batch is still open');
    const records = this.records + 1;
    const blocks = Math.ceil(records / BLOCKING_FACTOR);
    const t = this.file;
    this.put(
      '9' +
        numeric(this.batchCount, 6) +
        numeric(blocks, 6) +
        numeric(t.entryAndAddendaCount, 8) +
        numeric(t.entryHash, 10) +
        numeric(t.debitCents, 12) +
        numeric(t.creditCents, 12) +
        ' '.repeat(39),
    );
    for (let n = records; n < blocks * BLOCKING_FACTOR; n++) {
      this.records++;
      this.emit(`${FILLER_RECORD}\n`);
    }
    return {
      batchCount: this.batchCount,
      blockCount: blocks,
      entryAndAddendaCount: t.entryAndAddendaCount,
      entryHash: t.entryHash,
      totalDebitCents: t.debitCents,
      totalCreditCents: t.creditCents,
    };
  }
}

export interface FileTotals {
  batchCount: number;
  blockCount: number;
  entryAndAddendaCount: number;
  entryHash: bigint;
  totalDebitCents: bigint;
  totalCreditCents: bigint;
}

function addendaRecord(a: Addenda, sequence: number, traceNumber: string): string {
  switch (a.type) {
    case '05':
      return `705${alpha(a.paymentInfo, 80)}${numeric(sequence, 4)}${traceNumber.slice(8)}`;
    case '99':
      return (
        '799' +
        alpha(a.returnReasonCode, 3) +
        numeric(a.originalTraceNumber, 15) +
        alpha(a.dateOfDeath, 6) +
        numeric(a.originalRdfiId, 8) +
        alpha(a.information, 44) +
        numeric(traceNumber, 15)
      );
    case '98':
      return (
        '798' +
        alpha(a.changeCode, 3) +
        numeric(a.originalTraceNumber, 15) +
        ' '.repeat(6) +
        numeric(a.originalRdfiId, 8) +
        alpha(a.correctedData, 29) +
        ' '.repeat(15) +
        numeric(traceNumber, 15)
      );
  }
}

/** A whole file as one string (files of a cutoff window, return files). */
export function buildNachaFile(
  header: FileHeader,
  batches: ReadonlyArray<{ header: BatchHeader; entries: readonly EntryDetail[] }>,
) {
  const parts: string[] = [];
  const writer = new NachaWriter((record) => parts.push(record));
  writer.fileHeader(header);
  for (const batch of batches) {
    writer.startBatch(batch.header);
    for (const entry of batch.entries) writer.entry(entry);
    writer.endBatch();
  }
  const totals = writer.finish();
  return { content: parts.join(''), totals };
}

/**
 * Streams a file in chunks of about `chunkRecords` records: memory stays flat however many entries the batches
 * yield. The file's totals are in the generator's return value.
 */
export async function* streamNachaFile(
  header: FileHeader,
  batches: Iterable<BatchInput> | AsyncIterable<BatchInput>,
  chunkRecords = 1024,
): AsyncGenerator<string, FileTotals> {
  let chunk: string[] = [];
  const writer = new NachaWriter((record) => chunk.push(record));
  const take = () => {
    const text = chunk.join('');
    chunk = [];
    return text;
  };
  writer.fileHeader(header);
  for await (const batch of batches) {
    writer.startBatch(batch.header);
    for await (const entry of batch.entries) {
      writer.entry(entry);
      if (chunk.length >= chunkRecords) yield take();
    }
    writer.endBatch();
  }
  const totals = writer.finish();
  yield take();
  return totals;
}

// --- Parser ------------------------------------------------------------------------------------------------------

export interface ParsedEntry extends EntryDetail {
  addenda: Addenda[];
}

export interface ParsedBatch {
  header: BatchHeader;
  batchNumber: number;
  entries: ParsedEntry[];
  control: { entryAndAddendaCount: number; entryHash: bigint; totalDebitCents: bigint; totalCreditCents: bigint };
}

export interface ParsedFile {
  header: FileHeader;
  batches: ParsedBatch[];
  control: FileTotals;
}

const field = (record: string, from: number, to: number) => record.slice(from - 1, to);
const text = (record: string, from: number, to: number) => field(record, from, to).trim();
function digits(record: string, from: number, to: number, line: number, name: string): string {
  const value = field(record, from, to);
  if (!/^\d+$/.test(value)) throw new NachaFormatError(`${name} is not numeric: "${value}"`, line);
  return value;
}

/** Parses and checks a file: record lengths, order, every count, hash and total. Throws NachaFormatError. */
export function parseNacha(content: string): ParsedFile {
  const records = content.split(/\r?\n/);
  if (records.at(-1) === '') records.pop();
  let header: FileHeader | undefined;
  let control: FileTotals | undefined;
  const batches: ParsedBatch[] = [];
  let batch: ParsedBatch | undefined;
  let lastEntry: ParsedEntry | undefined;

  records.forEach((record, index) => {
    const line = index + 1;
    if (record.length !== RECORD_LENGTH) {
      throw new NachaFormatError(`record is ${record.length} characters, not ${RECORD_LENGTH}`, line);
    }
    if (control) {
      if (record !== FILLER_RECORD) throw new NachaFormatError('only filler records may follow the file control', line);
      return;
    }
    const type = record[0];
    if (type !== '1' && !header) throw new NachaFormatError('the file does not start with a file header', line);
    switch (type) {
      case '1':
        if (header) throw new NachaFormatError('a second file header', line);
        if (field(record, 35, 37) !== '094' || field(record, 38, 39) !== '10') {
          throw new NachaFormatError('record size must be 094 and blocking factor 10', line);
        }
        header = {
          immediateDestination: text(record, 4, 13),
          immediateOrigin: text(record, 14, 23),
          creationDate: digits(record, 24, 29, line, 'file creation date'),
          creationTime: text(record, 30, 33),
          fileIdModifier: field(record, 34, 34),
          destinationName: text(record, 41, 63),
          originName: text(record, 64, 86),
          referenceCode: text(record, 87, 94),
        };
        return;
      case '5':
        if (batch) throw new NachaFormatError('a batch header inside an open batch', line);
        batch = {
          header: {
            serviceClassCode: Number(digits(record, 2, 4, line, 'service class code')) as ServiceClassCode,
            companyName: text(record, 5, 20),
            companyDiscretionaryData: text(record, 21, 40),
            companyId: text(record, 41, 50),
            secCode: text(record, 51, 53) as SecCode,
            entryDescription: text(record, 54, 63),
            descriptiveDate: text(record, 64, 69),
            effectiveEntryDate: text(record, 70, 75),
            odfiId: digits(record, 80, 87, line, 'ODFI identification'),
          },
          batchNumber: Number(digits(record, 88, 94, line, 'batch number')),
          entries: [],
          control: { entryAndAddendaCount: 0, entryHash: 0n, totalDebitCents: 0n, totalCreditCents: 0n },
        };
        lastEntry = undefined;
        return;
      case '6': {
        if (!batch) throw new NachaFormatError('an entry outside a batch', line);
        lastEntry = {
          transactionCode: Number(digits(record, 2, 3, line, 'transaction code')),
          rdfiRoutingNumber: digits(record, 4, 12, line, 'RDFI routing number'),
          accountNumber: text(record, 13, 29),
          amountCents: Number(digits(record, 30, 39, line, 'amount')),
          individualId: text(record, 40, 54),
          individualName: text(record, 55, 76),
          discretionaryData: text(record, 77, 78),
          traceNumber: digits(record, 80, 94, line, 'trace number'),
          addenda: [],
        };
        batch.entries.push(lastEntry);
        return;
      }
      case '7': {
        if (!lastEntry) throw new NachaFormatError('an addenda record without its entry', line);
        const addendaType = field(record, 2, 3);
        if (addendaType === '05') {
          lastEntry.addenda.push({ type: '05', paymentInfo: text(record, 4, 83) });
        } else if (addendaType === '99') {
          lastEntry.addenda.push({
            type: '99',
            returnReasonCode: text(record, 4, 6),
            originalTraceNumber: digits(record, 7, 21, line, 'original trace number'),
            dateOfDeath: text(record, 22, 27),
            originalRdfiId: text(record, 28, 35),
            information: text(record, 36, 79),
          });
        } else if (addendaType === '98') {
          lastEntry.addenda.push({
            type: '98',
            changeCode: text(record, 4, 6),
            originalTraceNumber: digits(record, 7, 21, line, 'original trace number'),
            originalRdfiId: text(record, 28, 35),
            correctedData: text(record, 36, 64),
          });
        } else {
          throw new NachaFormatError(`unsupported addenda type ${addendaType}`, line);
        }
        return;
      }
      case '8': {
        if (!batch) throw new NachaFormatError('a batch control without its header', line);
        batch.control = {
          entryAndAddendaCount: Number(digits(record, 5, 10, line, 'entry/addenda count')),
          entryHash: BigInt(digits(record, 11, 20, line, 'entry hash')),
          totalDebitCents: BigInt(digits(record, 21, 32, line, 'total debit')),
          totalCreditCents: BigInt(digits(record, 33, 44, line, 'total credit')),
        };
        checkTotals(`batch ${batch.batchNumber}`, batch.control, totalsOf([batch]), line);
        if (Number(digits(record, 2, 4, line, 'service class code')) !== batch.header.serviceClassCode) {
          throw new NachaFormatError('batch control service class differs from its header', line);
        }
        batches.push(batch);
        batch = undefined;
        lastEntry = undefined;
        return;
      }
      case '9':
        if (batch) throw new NachaFormatError('the file control inside an open batch', line);
        control = {
          batchCount: Number(digits(record, 2, 7, line, 'batch count')),
          blockCount: Number(digits(record, 8, 13, line, 'block count')),
          entryAndAddendaCount: Number(digits(record, 14, 21, line, 'entry/addenda count')),
          entryHash: BigInt(digits(record, 22, 31, line, 'entry hash')),
          totalDebitCents: BigInt(digits(record, 32, 43, line, 'total debit')),
          totalCreditCents: BigInt(digits(record, 44, 55, line, 'total credit')),
        };
        if (control.batchCount !== batches.length) {
          throw new NachaFormatError(`batch count ${control.batchCount}, file has ${batches.length}`, line);
        }
        checkTotals('file', control, totalsOf(batches), line);
        return;
      default:
        throw new NachaFormatError(`unknown record type "${type}"`, line);
    }
  });
  if (!header || !control) throw new NachaFormatError('the file has no file control record');
  if (records.length % BLOCKING_FACTOR !== 0 || control.blockCount !== records.length / BLOCKING_FACTOR) {
    throw new NachaFormatError(`${records.length} records do not make the ${control.blockCount} blocks declared`);
  }
  return { header, batches, control };
}

function totalsOf(batches: ParsedBatch[]) {
  let entryAndAddendaCount = 0;
  let entryHash = 0n;
  let totalDebitCents = 0n;
  let totalCreditCents = 0n;
  for (const batch of batches) {
    for (const entry of batch.entries) {
      entryAndAddendaCount += 1 + entry.addenda.length;
      entryHash = (entryHash + BigInt(entry.rdfiRoutingNumber.slice(0, 8))) % HASH_MODULUS;
      if (isDebitCode(entry.transactionCode)) totalDebitCents += BigInt(entry.amountCents);
      else totalCreditCents += BigInt(entry.amountCents);
    }
  }
  return { entryAndAddendaCount, entryHash, totalDebitCents, totalCreditCents };
}

function checkTotals(
  what: string,
  stated: { entryAndAddendaCount: number; entryHash: bigint; totalDebitCents: bigint; totalCreditCents: bigint },
  actual: ReturnType<typeof totalsOf>,
  line: number,
): void {
  for (const key of ['entryAndAddendaCount', 'entryHash', 'totalDebitCents', 'totalCreditCents'] as const) {
    if (stated[key] !== actual[key]) {
      throw new NachaFormatError(`${what} ${key} is ${stated[key]}, the records add up to ${actual[key]}`, line);
    }
  }
}
