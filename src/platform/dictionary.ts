/**
 * A map from string keys that may come from a request (field names, metadata keys, query names). A plain `{}` is not
 * one: its prototype already answers `constructor`, `toString`, `__proto__` and the rest, so `map[key] ?? []` finds a
 * function for them. A dictionary has no prototype; every key is its own. `lint/no-plain-object-map.grit` refuses a
 * string-keyed `Record` that starts as `{}`.
 */
export function dictionary<T>(entries?: Iterable<readonly [string, T]>): Record<string, T> {
  const map = Object.create(null) as Record<string, T>;
  if (entries) for (const [key, value] of entries) map[key] = value;
  return map;
}

/** `record[key]` only when `key` is the record's own (never something its prototype answers). */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
