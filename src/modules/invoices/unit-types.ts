import { nameBasedId } from '../../platform/crypto/ids.js';

/**
 * Unit types: a fixed list (reference data, not a table). The API identifies a unit type by its integer `id`
 * (`unitTypeId` on line items and categories); each also has a stable `uuid` (the schema form of unit types has uuid
 * ids: docs/invoices.md), which input accepts in place of the integer.
 */
export interface UnitType {
  id: number;
  uuid: string;
  name: string;
  abbreviation: string;
  category: string;
}

const LIST: Array<[number, string, string, string]> = [
  [1, 'Each', 'ea', 'Quantity'],
  [2, 'Piece', 'pc', 'Quantity'],
  [3, 'Box', 'box', 'Quantity'],
  [4, 'Pack', 'pk', 'Quantity'],
  [5, 'Dozen', 'dz', 'Quantity'],
  [6, 'Service', 'svc', 'Service'],
  [7, 'Hour', 'hr', 'Time'],
  [8, 'Day', 'day', 'Time'],
  [9, 'Week', 'wk', 'Time'],
  [10, 'Month', 'mo', 'Time'],
  [11, 'Year', 'yr', 'Time'],
  [12, 'Kilogram', 'kg', 'Weight'],
  [13, 'Gram', 'g', 'Weight'],
  [14, 'Pound', 'lb', 'Weight'],
  [15, 'Ounce', 'oz', 'Weight'],
  [16, 'Liter', 'L', 'Volume'],
  [17, 'Milliliter', 'mL', 'Volume'],
  [18, 'Gallon', 'gal', 'Volume'],
  [19, 'Meter', 'm', 'Length'],
  [20, 'Centimeter', 'cm', 'Length'],
  [21, 'Foot', 'ft', 'Length'],
  [22, 'Inch', 'in', 'Length'],
  [23, 'Square meter', 'm²', 'Area'],
  [24, 'Square foot', 'ft²', 'Area'],
  [25, 'Kilometer', 'km', 'Length'],
  [26, 'Mile', 'mi', 'Length'],
];

export const UNIT_TYPES: readonly UnitType[] = LIST.map(([id, name, abbreviation, category]) => ({
  id,
  // Fixed, from the name: it never changes, so clients may store it.
  uuid: nameBasedId(`tessera:unit-type:${name}`),
  name,
  abbreviation,
  category,
}));
export const EACH = 1;

const BY_ID = new Map(UNIT_TYPES.map((u) => [u.id, u]));
const BY_UUID = new Map(UNIT_TYPES.map((u) => [u.uuid, u]));

export const unitTypeById = (id: number): UnitType | undefined => BY_ID.get(id);

/** A unit type given as its integer id or its uuid (either form names exactly one); undefined when unknown. */
export function resolveUnitType(value: number | string): UnitType | undefined {
  if (typeof value === 'number') return BY_ID.get(value);
  if (/^\d+$/.test(value)) return BY_ID.get(Number(value));
  return BY_UUID.get(value.toLowerCase());
}
