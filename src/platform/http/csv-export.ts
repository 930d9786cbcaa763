import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

/** Spreadsheet programs run cells that start with these as formulas; a leading quote keeps them text. */
export function csvSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * Rows as CSV with a header, written as they come (an export of any size holds what its source holds), every text
 * cell made safe for spreadsheets. A source that fails ends the CSV with its error.
 */
export function csvStream<T>(
  rows: AsyncIterable<T>,
  columns: readonly string[],
  record: (row: T) => Record<string, unknown>,
): Readable {
  const csv = stringify({
    header: true,
    columns: [...columns],
    cast: { string: csvSafe, boolean: (value) => String(value) },
  });
  const source = Readable.from(
    (async function* () {
      for await (const row of rows) yield record(row);
    })(),
  );
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
