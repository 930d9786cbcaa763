import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { Pool } from '../../platform/db/pool.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import type { Category, LineItem, LineItemInput } from './catalog.model.js';
import {
  deleteCategory,
  findCategory,
  insertCategory,
  isNameTaken,
  listCategories,
  updateCategory,
} from './categories.repo.js';
import {
  findLineItem,
  insertLineItem,
  type LineItemFilter,
  listLineItems,
  removeLineItem,
  replaceLineItem,
} from './line-items.repo.js';
import { EACH } from './unit-types.js';

/** The merchant's invoicing catalog: categories and line items. */
export class CatalogService {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
  ) {}

  listCategories(merchantId: string, page: PageRequest) {
    return listCategories(this.pool, merchantId, page);
  }

  async getCategory(merchantId: string, id: string): Promise<Category> {
    const category = await findCategory(this.pool, merchantId, id);
    if (!category) throw new NotFoundError('Category', id);
    return category;
  }

  /** Names are unique per merchant, case-insensitively, also under concurrent creates (the unique index decides). */
  async createCategory(merchantId: string, name: string, defaultUnitTypeId: number | null): Promise<Category> {
    const id = newId();
    await this.uniqueName(() =>
      insertCategory(this.pool, { id, merchantId, name, defaultUnitTypeId, at: this.clock.now() }),
    );
    return this.getCategory(merchantId, id);
  }

  async updateCategory(merchantId: string, id: string, name: string, defaultUnitTypeId: number | null) {
    const updated = await this.uniqueName(() =>
      updateCategory(this.pool, merchantId, id, { name, defaultUnitTypeId }, this.clock.now()),
    );
    if (!updated) throw new NotFoundError('Category', id);
    return this.getCategory(merchantId, id);
  }

  async deleteCategory(merchantId: string, id: string): Promise<void> {
    if (!(await deleteCategory(this.pool, merchantId, id))) throw new NotFoundError('Category', id);
  }

  listLineItems(filter: LineItemFilter, page: PageRequest) {
    return listLineItems(this.pool, filter, page);
  }

  async getLineItem(merchantId: string, id: string): Promise<LineItem> {
    const item = await findLineItem(this.pool, merchantId, id);
    if (!item) throw new NotFoundError('Line item', id);
    return item;
  }

  async createLineItem(merchantId: string, input: LineItemInput): Promise<LineItem> {
    const id = newId();
    const stored = await this.stored(merchantId, input);
    await insertLineItem(this.pool, { ...stored, id, merchantId, at: this.clock.now() });
    return this.getLineItem(merchantId, id);
  }

  async replaceLineItem(merchantId: string, id: string, input: LineItemInput): Promise<LineItem> {
    const stored = await this.stored(merchantId, input);
    if (!(await replaceLineItem(this.pool, merchantId, id, stored, this.clock.now()))) {
      throw new NotFoundError('Line item', id);
    }
    return this.getLineItem(merchantId, id);
  }

  async removeLineItem(merchantId: string, id: string): Promise<void> {
    if (!(await removeLineItem(this.pool, merchantId, id, this.clock.now()))) throw new NotFoundError('Line item', id);
  }

  /** The category must be the merchant's; the unit type defaults to the category's, else Each. */
  private async stored(merchantId: string, input: LineItemInput) {
    let categoryDefault: number | null = null;
    if (input.categoryId) {
      const category = await findCategory(this.pool, merchantId, input.categoryId);
      // Another merchant's category reads as a missing one (404), like every id of another tenant.
      if (!category) throw new NotFoundError('Category', input.categoryId);
      categoryDefault = category.defaultUnitTypeId;
    }
    return { ...input, unitTypeId: input.unitTypeId ?? categoryDefault ?? EACH };
  }

  private async uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isNameTaken(error)) throw ValidationError.field('name', 'A category with this name exists.');
      throw error;
    }
  }
}
