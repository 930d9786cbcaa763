import { createHash } from 'node:crypto';

/**
 * A migration changed after it was applied somewhere (docs/architecture.md, "Migrations"): split among the modules
 * whose tables it changes, or its comments corrected, without changing a statement; or, rarely, corrected, when what
 * it did held a lock it need not have and a later migration brings a database that ran the first text to the same
 * schema (`reconciledBy`). A database that applied it before recorded the former checksum; the migrator accepts that
 * one and records the new one. test/schema/migrations.test.ts checks `statements` against the text as it is.
 */
export interface RestructuredMigration {
  version: number;
  formerChecksums: readonly string[];
  /**
   * statementDigest() of the migration: as it was, which its parts must still give; for a corrected one, as it is now
   * (a further change is caught).
   */
  statements: string;
  /** Corrected: this later migration brings a database that applied the former text to the same schema. */
  reconciledBy?: readonly number[];
  why: string;
}

export const RESTRUCTURED_MIGRATIONS: readonly RestructuredMigration[] = [
  {
    version: 1,
    formerChecksums: ['a3ceff549f9e512c3a57b6962bdff2d89c3162388f0503cb812bfaf413b42444'],
    statements: '3d64fbd9ddb08cdfd5e9b4b608a690bdfdb53ed02c5f6b8fc92d58a865bd742d',
    why: 'events moved to the events module, operator_token to the operator module',
  },
  {
    version: 8,
    formerChecksums: ['ec52728e9042f77cb44fefc47a4f488f0f06e5f911e8aa10ffd01f6a3122dbb9'],
    statements: '75c651d4f1056c8107a73fdcb86411fb9511fd4239ccf394fcc0d332bbf6f731',
    why: "idempotency_keys.kek_version moved to the platform's part",
  },
  {
    version: 14,
    formerChecksums: ['379946f6589da47dbc84b1790795ddc5b6db3226f3c445f23f10616727ba4d55'],
    statements: 'f55e93d5dd804d62125601066e82f4788f68e25694694443fd4cad24d226b535',
    why: 'the fan-out trigger on events moved to the events module',
  },
  {
    version: 15,
    formerChecksums: ['947dba897c897e84e6713809b1ab850744f6d385bb853ecf0cbf19bec78dccfd'],
    statements: '6f44df604859d2e5834ce977055aba5bf031a59fcd0a1409d4a59411e4f97dce',
    why: 'the settlement_batches changes moved to the settlements module',
  },
  {
    version: 18,
    formerChecksums: ['0fa4543b2c7c2c76509fb5ce53cd8ce67405b6305e1adedc277226627e876e0b'],
    statements: '9dcc56eebe877caa0bcae32f1998e0e7eaa55659a82581eae7bc474b517504d0',
    why: 'transactions.source_id moved to the payments module',
  },
  {
    version: 22,
    formerChecksums: ['ee056ce33aa500a2d9b3c5ab1a6f1031666e3c0134abd92c4086ab3ff4a0b981'],
    statements: '372d53d8e209de7911b17d69445a269fd76d5d6bf435e3be8d3d22094397f228',
    why: 'a comment cited a document outside the repository; moved to the events module',
  },
  {
    version: 34,
    formerChecksums: ['ef51bcbf109af41cfcc5b62369fff2a95473b9cccfadd5c678353c3e21f7a51d'],
    statements: 'e33e7967bd293d253cb69d6df9e16b05e18a65995a0a9e5a7df7731a09a08100',
    why: 'a comment cited docs/checkout.md, which does not exist (docs/sessions.md)',
  },
  {
    version: 78,
    formerChecksums: ['310be7c40693737c9ae2fe8c117942cdb86bb1fde79e498dffb1226cadf88317'],
    statements: '25035f0f29d2ef87aa518f2e6769649f50235a62e44120a03bf8da653a5ddda1',
    reconciledBy: [94, 95],
    why: "the old table's keys are made on the indexes 0074 and 0075 built, instead of built anew under the lock",
  },
  {
    version: 82,
    formerChecksums: ['e374ef13090889f6df0bd7bb2e515018e04654a96894677ef43e0c7b0baaf5cc'],
    statements: 'be65d6027bd70de53cdef36f7c32bc85c933cd84bf1eda65090d56935fe6ecc7',
    reconciledBy: [96],
    why: "the old table's key is made on the index 0079 built, instead of built anew under the lock",
  },
  {
    version: 83,
    formerChecksums: ['882c9a6f9829e719794a7b546a63c0d9ed3383ca1e6595fd705a8c3a9be17f55'],
    statements: 'bf1fc616ddfa5225c9f0686e7ba7cb26fb77c33c96f771b479d49c25ac41b696',
    why: 'its tables are locked first, in the order a payment takes them (the same schema; it deadlocked with sales)',
  },
  {
    version: 93,
    formerChecksums: ['bb485d41053732226afcad21eff9036fc451c2c10805a462bbd47738676702ca'],
    statements: 'a6fcbec77f68ab7697f2c079332fbb497990c7be83177b681e7a6894aac77aa5',
    why: 'the endpoints are locked before the deliveries, as a change of an endpoint takes them (the same schema)',
  },
];

/** Whether `checksum` is one a database recorded for `version` before the migration was split or corrected. */
export function formerly(list: readonly RestructuredMigration[], version: number, checksum: string): boolean {
  return list.some((entry) => entry.version === version && entry.formerChecksums.includes(checksum));
}

/**
 * A digest of a migration's statements, whatever their order or file: comments dropped, whitespace collapsed, each
 * statement (dollar-quoted bodies kept whole) hashed in sorted order.
 */
export function statementDigest(sql: string): string {
  const statements: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i++) {
    const rest = sql.slice(i);
    if (!quote && rest.startsWith('--')) {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
      current += ' ';
      continue;
    }
    const dollar = /^\$[A-Za-z_]*\$/.exec(rest)?.[0];
    if (dollar && (!quote || quote === dollar)) {
      quote = quote ? undefined : dollar;
      current += dollar;
      i += dollar.length - 1;
      continue;
    }
    if (sql[i] === "'" && (!quote || quote === "'")) quote = quote ? undefined : "'";
    if (sql[i] === ';' && !quote) {
      statements.push(current.replace(/\s+/g, ' ').trim());
      current = '';
      continue;
    }
    current += sql[i];
  }
  if (current.trim()) statements.push(current.replace(/\s+/g, ' ').trim());
  const hash = createHash('sha256');
  for (const statement of statements.filter(Boolean).sort()) hash.update(`${statement};\n`);
  return hash.digest('hex');
}
