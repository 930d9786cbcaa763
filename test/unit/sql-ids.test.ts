// Status, type, method and source ids in SQL text come from the named constants (`${TransactionStatus.Pending}`,
// `${sqlIds(...SALE_TYPES)}`), never from digits typed into a query: a renumbered or misremembered id cannot hide
// in a string. This reads every source file's string literals and fails on an id compared with a literal number.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sourceFiles, stringLiterals } from '../source-literals.js';

const ID_COLUMN = String.raw`\b\w*(?:status|type|method|source)_id`;
const LITERAL_ID = [
  new RegExp(String.raw`${ID_COLUMN}\s*(?:=|<>|!=|<|>)\s*\d`, 'i'),
  new RegExp(String.raw`${ID_COLUMN}\s+(?:NOT\s+)?IN\s*\(\s*\d`, 'i'),
  /\bTHEN\s+\d+\s+ELSE\s+\w*(?:status|type)_id/i,
];
const SQL = /\b(SELECT|UPDATE|INSERT|DELETE|WHERE|FILTER|SET)\b/i;
/** A status or type id compared with a digit in code: `t.statusId === 21`, `row.status_id !== 1`. */
const CODE_LITERAL_ID = /\b\w*(?:[sS]tatus|[tT]ype)(?:Id|_id)\s*(?:===|!==|==|!=)\s*\d+/g;

/** A file's code without its comments and string literals (ids in those are documentation or examples). */
function codeOf(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/[^\n]*/g, ' ')
    .replace(/'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`/g, "''");
}

describe('SQL ids', () => {
  it('compares status, type, method and source ids only with generated constants', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles('src', '.ts')) {
      for (const literal of stringLiterals(readFileSync(file, 'utf8'))) {
        if (!SQL.test(literal) && !/_id\b/.test(literal)) continue;
        for (const pattern of LITERAL_ID) {
          const match = pattern.exec(literal);
          if (match) offenders.push(`${file}: ${match[0]}`);
        }
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('compares them in code only with the constants too', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles('src', '.ts')) {
      for (const match of codeOf(readFileSync(file, 'utf8')).matchAll(CODE_LITERAL_ID)) {
        offenders.push(`${file}: ${match[0]}`);
      }
    }
    assert.deepEqual(offenders, []);
    // The check itself: a comparison with a digit is caught, one with a constant or in a comment is not.
    const caught = [
      ...codeOf('if (t.statusId === 21) x(); // statusId === 3\nif (t.typeId !== Type.Sale) y();').matchAll(
        CODE_LITERAL_ID,
      ),
    ];
    assert.deepEqual(
      caught.map((m) => m[0]),
      ['statusId === 21'],
    );
  });

  it('catches a literal id (the check itself works)', () => {
    // A query with a literal id, a template hole and a comment that mentions one: only the query counts.
    const source = ['const q = `UPDATE t SET status_id = 24 WHERE x IN ($', '{y})`; // status_id = 1'].join('');
    const caught = stringLiterals(source).flatMap((text) => LITERAL_ID.filter((p) => p.test(text)));
    assert.equal(caught.length, 1);
  });
});
