import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import { randomSecret } from '../../platform/crypto/secrets.js';
import { Grouped } from '../../platform/db/grouped.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { inOneRoundTrip, withTransaction } from '../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import { withFields } from '../../platform/objects.js';
import type { CustomersService } from '../customers/customers.service.js';
import type { EventName } from '../events/event-catalog.js';
import { eventsInsert, recordEvent } from '../events/outbox.js';
import { calculateInvoice, type InvoiceCalculation } from './calculation.js';
import type { CatalogService } from './catalog.service.js';
import { inlineContact } from './invoice-contact.js';
import type { InvoiceDelivery } from './invoice-delivery.js';
import { invoiceContent } from './invoice-input.js';
import type { InvoiceSettingsService } from './invoice-settings.js';
import { INVOICE_STATUS_NAMES, type Invoice, type InvoiceContent, InvoiceStatus } from './invoices.model.js';
import {
  deleteDraft,
  expireOverdue,
  findInvoice,
  findInvoiceQuery,
  type InvoiceFilter,
  insertInvoiceQuery,
  invoiceOf,
  isNumberTaken,
  listInvoices,
  moveInvoice,
  moveInvoiceQuery,
  replaceDraft,
} from './invoices.repo.js';
import type { InvoiceBody } from './invoices.schemas.js';

export interface InvoicesDeps {
  pool: Pool;
  clock: Clock;
  catalog: CatalogService;
  customers: CustomersService;
  settings: InvoiceSettingsService;
  /** Days after its due date a Published, unpaid invoice expires (INVOICE_EXPIRY_DAYS). */
  expiryDays: number;
  /** Sends a published invoice to its customer. */
  delivery: InvoiceDelivery;
}

const DAY_MS = 86_400_000;

export const calculationOf = (content: InvoiceContent): InvoiceCalculation =>
  calculateInvoice({
    lines: content.lines,
    discountMpct: content.discountMpct,
    taxMpct: content.taxMpct,
    shippingFeeCents: content.shippingFeeCents,
    feesMpct: content.feesMpct,
  });

/** Invoices: Drafts created and replaced, published, cancelled, marked paid, expired; every move compare-and-set. */
export class InvoicesService {
  /**
   * New Drafts of concurrent requests written together: their inserts, one events insert and the read of what they
   * wrote go in one round trip with BEGIN and COMMIT. A generated number comes from the merchant's counter row,
   * locked until that COMMIT, so creates of one merchant queue on it; in a group they take their numbers one after
   * the other and share the wait for the flush. A group that fails (a number taken) is written again one by one, and
   * only that create sees its error.
   */
  private readonly drafts: Grouped<Parameters<typeof insertInvoiceQuery>[0], Invoice>;

  constructor(private readonly deps: InvoicesDeps) {
    this.drafts = new Grouped(async (items) => {
      const events = eventsInsert(
        deps.clock,
        items.map((item) => ({
          type: 'invoice.created',
          merchantId: item.merchantId,
          resourceType: 'invoice',
          resourceId: item.id,
        })),
      ).query;
      // Each read is the prepared single-invoice read: one statement over the group's ids was planned anew on every
      // execution (0.6 ms, more than the group's reads).
      const results = await inOneRoundTrip(deps.pool, [
        ...items.map(insertInvoiceQuery),
        events,
        ...items.map((item) => findInvoiceQuery(item.merchantId, item.id)),
      ]);
      return results.slice(items.length + 1).map((result) => invoiceOf(result)!);
    });
  }

  /** A new Draft, as written: read in its group's transaction, so no read after COMMIT. */
  async create(merchantId: string, body: InvoiceBody): Promise<Invoice> {
    const content = await this.content(merchantId, body);
    const id = newId();
    const totalCents = calculationOf(content).totalCents;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.drafts.submit(
          withFields(content, {
            id,
            merchantId,
            totalCents,
            at: this.deps.clock.now(),
            afterCollision: attempt > 1,
          }),
        );
      } catch (error) {
        if (!isNumberTaken(error)) throw error;
        // The counter's next number is one a client chose (or took meanwhile, committed after this statement's
        // snapshot): the next try walks past every number taken.
        if (content.number === null && attempt < 3) continue;
        throw ValidationError.field('number', 'An invoice with this number exists.');
      }
    }
  }

  async get(merchantId: string, id: string, sql: Sql = this.deps.pool): Promise<Invoice> {
    const invoice = await findInvoice(sql, merchantId, id);
    if (!invoice) throw new NotFoundError('Invoice', id);
    return invoice;
  }

  list(filter: InvoiceFilter, page: PageRequest) {
    return listInvoices(this.deps.pool, filter, page);
  }

  /** A Draft's full replacement. A generated number stays unless another is given. */
  async replace(merchantId: string, id: string, body: InvoiceBody): Promise<Invoice> {
    const current = await this.get(merchantId, id);
    this.mustBe(current, [InvoiceStatus.Draft], 'Only a Draft can be changed.');
    const content = await this.content(merchantId, body);
    const replaced = await this.uniqueNumber(() =>
      replaceDraft(
        this.deps.pool,
        merchantId,
        id,
        withFields(content, {
          number: content.number ?? current.number,
          totalCents: calculationOf(content).totalCents,
          at: this.deps.clock.now(),
        }),
      ),
    );
    if (!replaced) throw this.refused(await this.get(merchantId, id), 'Only a Draft can be changed.');
    return this.get(merchantId, id);
  }

  async delete(merchantId: string, id: string): Promise<void> {
    const current = await this.get(merchantId, id);
    if (!(await deleteDraft(this.deps.pool, merchantId, id))) {
      throw this.refused(await this.get(merchantId, id).catch(() => current), 'Only a Draft can be deleted.');
    }
  }

  /**
   * Draft → Published; an invoice with only an inline customer gets a customer record, the invoice a hosted page
   * (an unguessable token), and its customer the invoice by email and SMS (queued in the same transaction). Two round
   * trips: the locked read, then the customer, the move and the messages with COMMIT; the answer is made from the
   * locked read, not read back.
   */
  async publish(merchantId: string, id: string): Promise<Invoice> {
    const sender = await this.deps.delivery.sender(merchantId);
    return withTransaction(this.deps.pool, async (tx) => {
      const invoice = await findInvoice(tx, merchantId, id, true);
      if (!invoice) throw new NotFoundError('Invoice', id);
      this.mustBe(invoice, [InvoiceStatus.Draft], 'Only a Draft can be published.');
      const fromInline = !invoice.customerId && invoice.customer !== null;
      const newCustomer = fromInline ? this.deps.customers.creation(merchantId, { ...invoice.customer! }) : undefined;
      const customerId = newCustomer?.id ?? invoice.customerId;
      const now = this.deps.clock.now();
      const publicToken = randomSecret(24);
      if (newCustomer) tx.defer(newCustomer.query);
      tx.defer(
        moveInvoiceQuery(merchantId, id, [InvoiceStatus.Draft], InvoiceStatus.Published, now, {
          published: true,
          publicToken,
          // Last: keys after a leading spread take V8's slow path (src/platform/objects.ts).
          ...(customerId ? { customerId } : {}),
        }),
      );
      // What the move writes, without reading it back: the row is locked since the read above and the move sets
      // only these columns (the customer's name stays: a customer made from the inline one has its name).
      const published: Invoice = {
        ...invoice,
        statusId: InvoiceStatus.Published,
        customerId,
        publicToken,
        publishedAt: now,
        modifiedAt: now,
      };
      // A customer made from the inline one has its details: no need to read them back. The messages go with COMMIT.
      await this.deps.delivery.published(
        tx,
        published,
        sender,
        fromInline ? inlineContact(invoice.customer) : undefined,
      );
      return published;
    });
  }

  /** Published and unpaid → Canceled. */
  async cancel(merchantId: string, id: string): Promise<Invoice> {
    return this.moveUnpaid(merchantId, id, InvoiceStatus.Canceled, 'Only a Published, unpaid invoice can be canceled.');
  }

  /** Published and unpaid → Paid, with no transaction (paid outside: cash, a check); `invoice.paid` as for a payment. */
  async markAsPaid(merchantId: string, id: string, note: string | null): Promise<Invoice> {
    return this.moveUnpaid(
      merchantId,
      id,
      InvoiceStatus.Paid,
      'Only a Published, unpaid invoice can be marked as paid.',
      note,
    );
  }

  /** Published, unpaid invoices `expiryDays` past their due date: Expired (the sweep, on the business clock). */
  expireDue(): Promise<number> {
    const now = this.deps.clock.now();
    return expireOverdue(this.deps.pool, new Date(now.getTime() - this.deps.expiryDays * DAY_MS), now);
  }

  private async moveUnpaid(merchantId: string, id: string, to: number, refusal: string, note?: string | null) {
    await withTransaction(this.deps.pool, async (tx) => {
      const invoice = await findInvoice(tx, merchantId, id, true);
      if (!invoice) throw new NotFoundError('Invoice', id);
      if (invoice.statusId !== InvoiceStatus.Published || invoice.paidCents > 0) throw this.refused(invoice, refusal);
      const now = this.deps.clock.now();
      const paid = to === InvoiceStatus.Paid;
      await moveInvoice(tx, merchantId, id, [InvoiceStatus.Published], to, now, {
        ...(paid ? { paidCents: invoice.totalCents, paymentDate: now, paidNote: note?.trim() || null } : {}),
      });
      if (paid) await this.event(tx, 'invoice.paid', merchantId, id);
    });
    return this.get(merchantId, id);
  }

  private async content(merchantId: string, body: InvoiceBody): Promise<InvoiceContent> {
    const settings = await this.deps.settings.get(merchantId);
    return invoiceContent(this.deps, merchantId, body, settings);
  }

  private mustBe(invoice: Invoice, statuses: number[], refusal: string): void {
    if (!statuses.includes(invoice.statusId)) throw this.refused(invoice, refusal);
  }

  private refused(invoice: Invoice, refusal: string): ValidationError {
    return ValidationError.field('status', `${refusal} This invoice is ${INVOICE_STATUS_NAMES[invoice.statusId]}.`);
  }

  private async uniqueNumber<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isNumberTaken(error)) throw ValidationError.field('number', 'An invoice with this number exists.');
      throw error;
    }
  }

  private async event(tx: Sql, type: Extract<EventName, `invoice.${string}`>, merchantId: string, id: string) {
    await recordEvent(tx, this.deps.clock, { type, merchantId, resourceType: 'invoice', resourceId: id });
  }
}
