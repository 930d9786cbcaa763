import type { Sql } from '../../../../platform/db/pool.js';

export type BankFileState =
  | 'built'
  | 'uploading'
  | 'uploaded'
  | 'sent'
  | 'accepted'
  | 'rejected'
  | 'expired'
  | 'alert'
  | 'imported'
  | 'ignored';

export interface BankFileRow {
  id: string;
  connection_key: string;
  processor_id: string;
  direction: 'outbound' | 'inbound';
  state: BankFileState;
  kind: string;
  window_at: Date | null;
  remote_name: string;
  temp_name: string | null;
  size_bytes: string;
  sha256: string;
  content_sealed: Buffer;
  deliver_until: Date | null;
  attempts: number;
  last_error: string | null;
  immediate_origin: string | null;
  creation_date: string | null;
  creation_time: string | null;
  file_id_modifier: string | null;
}

/* across merchants: a bank connection's files are the deployment's (they carry many merchants' entries) */
export async function findBankFile(sql: Sql, id: string, lock = false): Promise<BankFileRow | undefined> {
  const { rows } = await sql.query<BankFileRow>(
    `SELECT * FROM ach_bank_files WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0];
}

/** Moves a file to `to` only from one of `from` (a compare-and-set: the step is recorded once). */
export async function moveBankFile(
  sql: Sql,
  id: string,
  from: readonly BankFileState[],
  to: BankFileState,
  set: Record<string, unknown> = {},
): Promise<boolean> {
  const columns = Object.keys(set);
  const assignments = columns.map((column, i) => `, ${column} = $${i + 4}`).join('');
  const { rowCount } = await sql.query(
    `UPDATE ach_bank_files SET state = $3${assignments} WHERE id = $1 AND state = ANY($2::text[])`,
    [id, from, to, ...columns.map((column) => set[column])],
  );
  return rowCount === 1;
}

/** The merchants' files that go out in a bank file (withdrawn ones too when asked). */
export async function merchantFilesOf(sql: Sql, bankFileId: string) {
  const { rows } = await sql.query<{
    id: string;
    merchant_id: string;
    processor_id: string;
    window_at: Date;
    settles_at: Date;
    returns_due_at: Date;
    entry_count: number;
    withdrawn_at: Date | null;
  }>(
    `SELECT /* across merchants: the files of one bank file */ id, merchant_id, processor_id, window_at, settles_at,
       returns_due_at, entry_count, withdrawn_at
     FROM ach_files WHERE bank_file_id = $1 ORDER BY id`,
    [bankFileId],
  );
  return rows;
}

/** Files exchanged with banks, by direction and state (an operator's gauge). */
export async function bankFilesByState(
  sql: Sql,
): Promise<Array<{ direction: string; state: BankFileState; files: number }>> {
  const { rows } = await sql.query<{ direction: string; state: BankFileState; files: number }>(
    `SELECT /* across merchants: an operator's gauge */ direction, state, count(*)::int AS files
     FROM ach_bank_files GROUP BY direction, state`,
  );
  return rows;
}
