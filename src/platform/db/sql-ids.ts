/**
 * Ids written into SQL text come from named constants, never from literals typed into a query: `${sqlIds(...)}` for
 * a list, `${Constant.Name}` for one. Only integers pass, so nothing but a number can reach the SQL this way.
 */
export function sqlIds(...ids: readonly number[]): string {
  if (ids.length === 0) throw new Error('sqlIds needs at least one id');
  for (const id of ids) if (!Number.isSafeInteger(id)) throw new Error(`Not an id: ${id}`);
  return ids.join(', ');
}

/** `{ Name: id }` → `{ [id]: 'Name' }`: wire names from the same constants as the ids. */
export function namesOf<T extends Record<string, number>>(ids: T): Record<number, string> {
  return Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
}
