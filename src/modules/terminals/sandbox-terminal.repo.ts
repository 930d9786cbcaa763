import type { Sql } from '../../platform/db/pool.js';

/** The sandbox's virtual terminal: what the operator's controls set. A terminal never touched is on, full, with paper. */
export interface SandboxTerminalState {
  online: boolean;
  batteryLevel: number;
  paperOut: boolean;
}

export async function readSandboxTerminal(sql: Sql, terminalId: string): Promise<SandboxTerminalState> {
  const { rows } = await sql.query('SELECT * FROM sandbox_terminals WHERE terminal_id = $1', [terminalId]);
  const r = rows[0];
  if (!r) return { online: true, batteryLevel: 100, paperOut: false };
  return { online: r.online, batteryLevel: r.battery_level, paperOut: r.paper_out };
}

/** Sets what the control changes; answers the state before and after (out of paper is an edge, not a level). */
export async function changeSandboxTerminal(
  sql: Sql,
  terminalId: string,
  change: Partial<SandboxTerminalState>,
  at: Date,
): Promise<{ before: SandboxTerminalState; after: SandboxTerminalState }> {
  await sql.query(
    `INSERT INTO sandbox_terminals (terminal_id, modified_at) VALUES ($1, $2) ON CONFLICT (terminal_id) DO NOTHING`,
    [terminalId, at],
  );
  const { rows } = await sql.query(
    'SELECT online, battery_level, paper_out FROM sandbox_terminals WHERE terminal_id = $1 FOR UPDATE',
    [terminalId],
  );
  const r = rows[0]!;
  const before = { online: r.online, batteryLevel: r.battery_level, paperOut: r.paper_out };
  const after = { ...before, ...change };
  await sql.query(
    `UPDATE sandbox_terminals SET online = $2, battery_level = $3, paper_out = $4, modified_at = $5
     WHERE terminal_id = $1`,
    [terminalId, after.online, after.batteryLevel, after.paperOut, at],
  );
  return { before, after };
}

/** A card presented before a transaction: it waits, sealed, for the next one. */
export async function presentCard(sql: Sql, terminalId: string, sealed: Buffer, kekVersion: number, at: Date) {
  await sql.query(
    `INSERT INTO sandbox_terminals (terminal_id, presented_card, presented_card_kek, modified_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (terminal_id) DO UPDATE SET presented_card = $2, presented_card_kek = $3, modified_at = $4`,
    [terminalId, sealed, kekVersion, at],
  );
}

/** Takes the presented card (once: a second reader finds none). */
export async function takePresentedCard(
  sql: Sql,
  terminalId: string,
): Promise<{ sealed: Buffer; kekVersion: number } | null> {
  const { rows } = await sql.query(
    `UPDATE sandbox_terminals s SET presented_card = NULL, presented_card_kek = NULL
     FROM (SELECT terminal_id, presented_card, presented_card_kek FROM sandbox_terminals
           WHERE terminal_id = $1 AND presented_card IS NOT NULL FOR UPDATE) old
     WHERE s.terminal_id = old.terminal_id
     RETURNING old.presented_card AS sealed, old.presented_card_kek AS kek`,
    [terminalId],
  );
  return rows[0] ? { sealed: rows[0].sealed as Buffer, kekVersion: rows[0].kek as number } : null;
}
