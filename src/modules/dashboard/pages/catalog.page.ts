import type { LineItem } from '../../invoices/catalog.model.js';
import { esc, flash, money } from './html.js';

/** The invoice catalog: the products and services a merchant bills often, added and removed here. */
export function catalogMain(m: {
  items: LineItem[];
  total: number;
  csrf: string;
  canManage: boolean;
  values?: Record<string, string>;
  notice?: string | undefined;
  error?: string | undefined;
}): string {
  const v = (name: string) => esc(m.values?.[name] ?? '');
  const rows = m.items
    .map((i) => {
      const remove = m.canManage
        ? `<form method="post" action="/dashboard/invoices/catalog/${esc(i.id)}/delete" class="inline"><input type="hidden" name="csrf" value="${esc(m.csrf)}"><input type="hidden" name="confirm" value="yes"><button type="submit" aria-label="Remove ${esc(i.productName)}">Remove</button></form>`
        : '';
      return `<tr><td>${esc(i.productName)}</td><td>${esc(i.sku ?? '')}</td><td class="num">${money(i.unitPriceCents)}</td><td class="num">${i.taxRateMpct == null ? '' : `${i.taxRateMpct / 1000}%`}</td><td>${remove}</td></tr>`;
    })
    .join('');
  const form = m.canManage
    ? `<form method="post" action="/dashboard/invoices/catalog" class="card" aria-labelledby="new-item-h"><h2 id="new-item-h">Add to the catalog</h2>
<input type="hidden" name="csrf" value="${esc(m.csrf)}"><div class="grid">
<div><label for="productName">Product or service</label><input id="productName" name="productName" required maxlength="200" value="${v('productName')}"></div>
<div><label for="unitPrice">Unit price</label><input id="unitPrice" name="unitPrice" inputmode="decimal" required value="${v('unitPrice')}"></div>
<div><label for="taxRate">Tax (%)</label><input id="taxRate" name="taxRate" inputmode="decimal" value="${v('taxRate')}"></div>
<div><label for="sku">SKU</label><input id="sku" name="sku" maxlength="100" value="${v('sku')}"></div>
<div><label for="description">Description</label><input id="description" name="description" maxlength="1000" value="${v('description')}"></div>
</div><button type="submit">Add</button></form>`
    : '';
  return `<p><a href="/dashboard/invoices">All invoices</a></p><h1>Catalog</h1>${flash(m)}${form}
<section class="card"><div class="scroll" tabindex="0"><table><caption>Catalog items (${m.total})</caption><thead><tr><th scope="col">Product or service</th><th scope="col">SKU</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Tax</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${rows || '<tr><td colspan="5">Nothing in the catalog yet.</td></tr>'}</tbody></table></div></section>`;
}
