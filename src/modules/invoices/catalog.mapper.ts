import { ValidationError } from '../../platform/http/errors.js';
import { fromCents, fromMillipercent, optionalMillipercent, toCents } from '../../platform/money.js';
import type { Category, LineItem, LineItemInput } from './catalog.model.js';
import { resolveUnitType, type UnitType, unitTypeById } from './unit-types.js';

/** A required text, trimmed; blank is a 400 naming `field` (the schema's minLength counts spaces). */
export function requiredText(field: string, value: string): string {
  const text = value.trim();
  if (text === '') throw ValidationError.field(field, `'${field}' must not be blank.`);
  return text;
}

/** A unit type given by id or uuid, as its integer id; a 400 naming `field` when it is unknown. */
export function unitTypeIdOf(value: number | string | null | undefined, field: string): number | null {
  if (value === null || value === undefined) return null;
  const unit = resolveUnitType(value);
  if (!unit)
    throw ValidationError.field(field, `'${field}' is not a unit type (GET /pay-int-api/line-items/unit-types).`);
  return unit.id;
}

export function unitTypeView(u: UnitType) {
  return { id: u.id, uuid: u.uuid, name: u.name, abbreviation: u.abbreviation, category: u.category };
}

export function categoryView(c: Category) {
  return { id: c.id, name: c.name, defaultUnitTypeId: c.defaultUnitTypeId, itemCount: c.itemCount };
}

export function lineItemInput(body: {
  productName: string;
  description?: string | null;
  sku?: string | null;
  unitPrice: number;
  unitTypeId?: number | string | null;
  categoryId?: string | null;
  taxRate?: number | null;
}): LineItemInput {
  return {
    productName: requiredText('productName', body.productName),
    description: body.description?.trim() || null,
    sku: body.sku?.trim() || null,
    unitPriceCents: toCents(body.unitPrice),
    unitTypeId: unitTypeIdOf(body.unitTypeId, 'unitTypeId'),
    categoryId: body.categoryId ?? null,
    taxRateMpct: optionalMillipercent(body.taxRate),
  };
}

export function lineItemView(i: LineItem) {
  return {
    id: i.id,
    lineItemId: i.id,
    productName: i.productName,
    description: i.description,
    sku: i.sku,
    unitPrice: fromCents(i.unitPriceCents),
    unitTypeId: i.unitTypeId,
    unitType: unitTypeById(i.unitTypeId)?.name ?? 'Unknown',
    taxRate: i.taxRateMpct === null ? null : fromMillipercent(i.taxRateMpct),
    categoryId: i.categoryId,
    categoryName: i.categoryName,
    categoryDefaultUnitTypeId: i.categoryDefaultUnitTypeId,
    createdOn: i.createdAt.toISOString(),
    modifiedOn: i.modifiedAt.toISOString(),
  };
}
