import pg from 'pg';

/**
 * pg builds, for every result, an empty row of the statement's columns that each row then copies. It builds it from a
 * null-prototype object, which V8 keeps as a dictionary, and copying a dictionary takes the runtime's slow path: about
 * 15 µs a result of 30 columns, whatever the number of rows: 4% of a POS sale's server CPU went to that copy. The
 * empty row only depends on the column names, and pg only ever copies it, so it is built once per list of names and
 * shared. Everything else `addFields` does (the fields, the parsers of the result's own types) is unchanged.
 * Upstream: brianc/node-postgres#3042, #3055; docs/decisions.md, "pg's per-query work that our statements do not
 * need".
 */
interface ResultInternals {
  fields: unknown[];
  _parsers: unknown[] | undefined;
  _types: TypeSource | undefined;
  _prebuiltEmptyResultObject: Record<string, null> | null;
}

interface TypeSource {
  getTypeParser(oid: number, format: string): unknown;
}

interface FieldDescription {
  name: string;
  dataTypeID: number;
  format?: string;
}

/** A node runs a few hundred statements; ad-hoc ones cannot grow this past its bound. */
const MOST_SHAPES = 4_000;
const shapes = new Map<string, Record<string, null>>();

/** The empty row pg would build for these columns: same keys, same order, built the same way. */
function emptyRowOf(fields: readonly FieldDescription[]): Record<string, null> {
  const row: Record<string, null> = Object.create(null);
  for (const field of fields) row[field.name] = null;
  return { ...row };
}

function addFields(this: ResultInternals, fieldDescriptions: FieldDescription[]): void {
  this.fields = fieldDescriptions;
  if (fieldDescriptions.length) this._parsers = new Array(fieldDescriptions.length);
  const types = this._types ?? (pg.types as unknown as TypeSource);
  // A column name cannot contain NUL, so the joined names identify the list.
  let key = '';
  for (let i = 0; i < fieldDescriptions.length; i++) {
    const field = fieldDescriptions[i]!;
    key += `${field.name}\0`;
    this._parsers![i] = types.getTypeParser(field.dataTypeID, field.format || 'text');
  }
  let empty = shapes.get(key);
  if (empty === undefined) {
    if (shapes.size >= MOST_SHAPES) shapes.clear();
    empty = emptyRowOf(fieldDescriptions);
    shapes.set(key, empty);
  }
  this._prebuiltEmptyResultObject = empty;
}

const original = (pg.Result.prototype as unknown as { addFields: unknown }).addFields;

/** Installs the shared empty rows (once per process; pools call it). False if pg's Result no longer has the method. */
export function shareEmptyRows(): boolean {
  const prototype = pg.Result.prototype as unknown as { addFields: unknown };
  if (prototype.addFields === addFields) return true;
  if (typeof original !== 'function' || original.length !== 1) return false;
  prototype.addFields = addFields;
  return true;
}

/** For the test that compares both: pg's own method. */
export const pgAddFields = original as (this: unknown, fields: FieldDescription[]) => void;
