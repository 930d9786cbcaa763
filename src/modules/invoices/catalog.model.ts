export interface Category {
  id: string;
  merchantId: string;
  name: string;
  defaultUnitTypeId: number | null;
  /** Line items in the catalog under it. */
  itemCount: number;
  createdAt: Date;
  modifiedAt: Date;
}

export interface LineItem {
  id: string;
  merchantId: string;
  categoryId: string | null;
  categoryName: string | null;
  categoryDefaultUnitTypeId: number | null;
  productName: string;
  description: string | null;
  sku: string | null;
  unitPriceCents: number;
  unitTypeId: number;
  taxRateMpct: number | null;
  createdAt: Date;
  modifiedAt: Date;
}

export interface LineItemInput {
  productName: string;
  description: string | null;
  sku: string | null;
  unitPriceCents: number;
  /** Null: the category's default unit type, else Each. */
  unitTypeId: number | null;
  categoryId: string | null;
  taxRateMpct: number | null;
}
