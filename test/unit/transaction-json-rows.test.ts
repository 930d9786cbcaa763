import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonRows, TX_COLUMNS, toTransaction } from '../../src/modules/payments/transactions.repo.js';

describe('transactions as json rows for json_populate_recordset', () => {
  it('writes what JSON.stringify of the column-keyed rows writes, bytea as hex text and absent fields as null', () => {
    const columns = TX_COLUMNS.split(', ').map((column) => column.slice('t.'.length));
    const kinds: unknown[] = [
      null,
      undefined,
      0,
      -1234567,
      12.5,
      Number.NaN,
      true,
      false,
      'plain',
      'quotes " and \\ and\nnew line, \u0001, é, \ud83d\ude00',
      new Date('2026-11-28T01:02:03.456Z'),
      new Date(Number.NaN),
      { reference: 'r-1', nested: { list: [1, 'two', null] } },
      ['a', 1],
      Buffer.from([0, 1, 0xab, 0xff]),
    ];
    const row = Object.fromEntries(columns.map((column, i) => [column, kinds[i % kinds.length]]));
    const expected = JSON.stringify(
      [row, row].map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([column, value]) => [
            column,
            Buffer.isBuffer(value) ? `\\x${value.toString('hex')}` : value === undefined ? null : value,
          ]),
        ),
      ),
    );
    const tx = toTransaction(row);
    assert.equal(jsonRows([tx, tx]), expected);
    assert.equal(jsonRows([]), '[]');
  });
});
