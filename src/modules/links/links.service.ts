import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import { randomSecret } from '../../platform/crypto/secrets.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { dictionary } from '../../platform/dictionary.js';
import { type FieldErrors, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import type { CustomersService } from '../customers/customers.service.js';
import { recordEvent } from '../events/outbox.js';
import type { MerchantConfiguration } from '../merchants/merchants.model.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { aboveMaximum } from '../payments/amounts.js';
import { findActiveProcessor } from '../payments/processors.js';
import {
  expiredStatus,
  type LinkStatus,
  type LinkSurface,
  MAX_LIFETIME_DAYS,
  type NewLink,
  ONE_TIME_LIFETIME_DAYS,
  type PaymentLink,
} from './links.model.js';
import {
  findExpiring,
  findLink,
  insertLink,
  type LinkChanges,
  type LinkFilter,
  listLinks,
  moveLink,
  softDelete,
  updateLink,
} from './links.repo.js';

const DAY_MS = 86_400_000;

export interface LinksDeps {
  pool: Pool;
  clock: Clock;
  merchants: MerchantsService;
  customers: CustomersService;
  /** PUBLIC_BASE_URL: a link's page is `{base}/l/{code}`. */
  publicBaseUrl: string;
}

/** A create request in domain units, with the wire names its errors should carry. */
export interface LinkDraft {
  surface: LinkSurface;
  singleUse: boolean;
  amountCents: number | null;
  currencyCode: string;
  referenceId: string | null;
  name: string | null;
  description: string | null;
  customerId: string | null;
  /** `enabled: null`: offered when the merchant has an active processor for the method. */
  card: { enabled: boolean | null; processorId: string | null };
  ach: { enabled: boolean | null; processorId: string | null };
  /** null: the surface's default (a one-time quick payment: 30 days; otherwise none). */
  expiresAt: Date | null;
  fields: { amount: string; expiresAt: string; paymentMethods: string };
}

/**
 * Payment links for both surfaces: quick payments (created, then activated) and version 2 payment links (active from
 * creation). Every status move is a compare-and-set. Paying one is link-checkout.ts.
 */
export class LinksService {
  constructor(private readonly deps: LinksDeps) {}

  pageUrl(link: Pick<PaymentLink, 'code'>): string {
    return `${this.deps.publicBaseUrl}/l/${link.code}`;
  }

  async create(merchantId: string, draft: LinkDraft): Promise<PaymentLink> {
    const configuration = await this.deps.merchants.getConfiguration(merchantId);
    const now = this.deps.clock.now();
    const errors: FieldErrors = dictionary();
    const add = (field: string, message: string) => {
      errors[field] ??= [];
      errors[field].push(message);
    };
    const methods = this.methods(configuration, draft, add);
    if (draft.amountCents !== null) {
      const tooMuch = aboveMaximum(draft.amountCents, configuration.settings.maxTransactionAmountCents);
      if (tooMuch) add(draft.fields.amount, tooMuch);
    }
    const expiresAt =
      draft.expiresAt ??
      (draft.surface === 'quick' && draft.singleUse ? new Date(now.getTime() + ONE_TIME_LIFETIME_DAYS * DAY_MS) : null);
    const expiryProblem = this.expiryProblem(expiresAt, now);
    if (expiryProblem) add(draft.fields.expiresAt, expiryProblem);
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    // Another merchant's customer answers 404, like any other id.
    if (draft.customerId) await this.deps.customers.get(merchantId, draft.customerId);

    const id = newId();
    const link: NewLink = {
      merchantId,
      surface: draft.surface,
      singleUse: draft.singleUse,
      status: draft.surface === 'quick' ? 'created' : 'active',
      amountCents: draft.amountCents,
      currencyCode: draft.currencyCode,
      referenceId: draft.referenceId,
      name: draft.name,
      description: draft.description,
      customerId: draft.customerId,
      ...methods,
      expiresAt,
    };
    await withTransaction(this.deps.pool, async (tx) => {
      await insertLink(tx, id, randomSecret(12), link, now);
      await this.event(tx, link, id, draft.surface === 'quick' ? 'quick_payment.created' : 'payment_link.created');
    });
    return this.get(merchantId, id, draft.surface);
  }

  async get(merchantId: string, id: string, surface: LinkSurface, sql: Sql = this.deps.pool): Promise<PaymentLink> {
    const link = await findLink(sql, merchantId, id, surface);
    if (!link) throw new NotFoundError(surface === 'quick' ? 'QuickPayment' : 'PaymentLink', id);
    return link;
  }

  list(filter: LinkFilter, page: Pick<PageRequest, 'limit' | 'offset' | 'orderSql' | 'search'>) {
    return listLinks(this.deps.pool, filter, page);
  }

  /** Quick payments: Created → Active, and Inactive → Active again for a reusable link still within its time. */
  async activate(merchantId: string, id: string): Promise<PaymentLink> {
    const link = await this.get(merchantId, id, 'quick');
    const now = this.deps.clock.now();
    if (link.expiresAt && link.expiresAt <= now) {
      throw ValidationError.field('status', 'This link has expired and cannot be activated.');
    }
    const from: LinkStatus[] = link.singleUse ? ['created'] : ['created', 'inactive'];
    if (link.singleUse && link.status === 'inactive') {
      throw ValidationError.field('status', 'A one-time link that was used or deactivated cannot be activated again.');
    }
    if (!(await moveLink(this.deps.pool, link, from, 'active', now))) throw this.refused(link, 'activated');
    return this.get(merchantId, id, 'quick');
  }

  /** Quick payments: Active → Inactive. */
  async deactivate(merchantId: string, id: string): Promise<PaymentLink> {
    const link = await this.get(merchantId, id, 'quick');
    if (!(await moveLink(this.deps.pool, link, ['active'], 'inactive', this.deps.clock.now()))) {
      throw this.refused(link, 'deactivated');
    }
    return this.get(merchantId, id, 'quick');
  }

  /**
   * Version 2: a merge patch, already validated and in domain units (`changes` holds only what the patch names). The
   * currency is frozen after the first payment; `paymentLinkStatus` moves Active ⇄ Inactive.
   */
  async patch(
    merchantId: string,
    id: string,
    changes: LinkChanges,
    methods: { card?: { enabled: boolean | null; processorId: string | null }; ach?: typeof methods.card },
  ): Promise<PaymentLink> {
    return withTransaction(this.deps.pool, async (tx) => {
      const link = await findLink(tx, merchantId, id, 'v2', true);
      if (!link) throw new NotFoundError('PaymentLink', id);
      const now = this.deps.clock.now();
      const errors: FieldErrors = dictionary();
      const add = (field: string, message: string) => {
        errors[field] ??= [];
        errors[field].push(message);
      };
      if (changes.currency_code !== undefined && changes.currency_code !== link.currencyCode && link.paymentCount > 0) {
        add('currencyCode', 'The currency cannot change after the first payment.');
      }
      if (changes.status !== undefined && changes.status !== link.status) {
        const allowed =
          (changes.status === 'inactive' && link.status === 'active') ||
          (changes.status === 'active' && link.status === 'inactive');
        if (!allowed) {
          add('paymentLinkStatus', `A ${link.status} link cannot be made ${changes.status}.`);
        }
      }
      if (changes.expires_at !== undefined) {
        const problem = this.expiryProblem(changes.expires_at, now);
        if (problem) add('expiresOn', problem);
      }
      const configuration = await this.deps.merchants.getConfiguration(merchantId);
      if (changes.amount_cents) {
        const tooMuch = aboveMaximum(changes.amount_cents, configuration.settings.maxTransactionAmountCents);
        if (tooMuch) add('baseAmount', tooMuch);
      }
      if (methods.card || methods.ach) {
        const resolved = this.methods(
          configuration,
          {
            card: methods.card ?? link.card,
            ach: methods.ach ?? link.ach,
            fields: { amount: 'baseAmount', expiresAt: 'expiresOn', paymentMethods: 'paymentMethods' },
          },
          add,
        );
        changes.card_enabled = resolved.card.enabled;
        changes.card_processor_id = resolved.card.processorId;
        changes.ach_enabled = resolved.ach.enabled;
        changes.ach_processor_id = resolved.ach.processorId;
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      if (changes.customer_id) await this.deps.customers.get(merchantId, changes.customer_id, tx);
      await updateLink(tx, merchantId, id, changes, now);
      await this.event(tx, link, id, 'payment_link.updated');
      return (await findLink(tx, merchantId, id, 'v2'))!;
    });
  }

  async delete(merchantId: string, id: string): Promise<void> {
    await withTransaction(this.deps.pool, async (tx) => {
      const link = await findLink(tx, merchantId, id, 'v2', true);
      if (!link || !(await softDelete(tx, merchantId, id, this.deps.clock.now()))) {
        throw new NotFoundError('PaymentLink', id);
      }
      await this.event(tx, link, id, 'payment_link.updated');
    });
  }

  /** The expiry sweep: open links whose time has come become inactive (quick) or Expired (version 2). */
  async expireDue(): Promise<number> {
    let moved = 0;
    const now = this.deps.clock.now();
    for (const link of await findExpiring(this.deps.pool, now, 500)) {
      await withTransaction(this.deps.pool, async (tx) => {
        if (await moveLink(tx, link, ['created', 'active'], expiredStatus(link), now)) {
          moved++;
          if (link.surface === 'v2') await this.event(tx, link, link.id, 'payment_link.updated');
        }
      });
    }
    return moved;
  }

  async event(tx: Sql, link: Pick<PaymentLink, 'merchantId' | 'surface'>, id: string, type: LinkEvent): Promise<void> {
    await recordEvent(tx, this.deps.clock, {
      type,
      merchantId: link.merchantId,
      resourceType: link.surface === 'quick' ? 'quick_payment' : 'payment_link',
      resourceId: id,
    });
  }

  /** The methods a link offers: as asked (on an active processor), or every one the merchant can take. */
  private methods(
    configuration: MerchantConfiguration,
    draft: Pick<LinkDraft, 'card' | 'ach' | 'fields'>,
    add: (field: string, message: string) => void,
  ) {
    const resolve = (method: 'card' | 'ach', asked: { enabled: boolean | null; processorId: string | null }) => {
      const field = `${draft.fields.paymentMethods}.${method}.processorId`;
      const found = findActiveProcessor(configuration, method, asked.processorId, field);
      if (asked.enabled === null) {
        return typeof found === 'string'
          ? { enabled: false, processorId: null }
          : { enabled: true, processorId: asked.processorId };
      }
      if (!asked.enabled) return { enabled: false, processorId: null };
      if (typeof found === 'string') add(field, found);
      return { enabled: true, processorId: asked.processorId };
    };
    const card = resolve('card', draft.card);
    const ach = resolve('ach', draft.ach);
    if (!card.enabled && !ach.enabled) {
      add(draft.fields.paymentMethods, 'Enable at least one payment method the merchant can take: card or ach.');
    }
    return { card, ach };
  }

  private expiryProblem(expiresAt: Date | null, now: Date): string | undefined {
    if (!expiresAt) return undefined;
    if (expiresAt <= now) return 'The expiry must be in the future.';
    if (expiresAt.getTime() > now.getTime() + MAX_LIFETIME_DAYS * DAY_MS) {
      return `The expiry can be at most ${MAX_LIFETIME_DAYS} days ahead.`;
    }
    return undefined;
  }

  private refused(link: PaymentLink, verb: string): ValidationError {
    const name = link.status.charAt(0).toUpperCase() + link.status.slice(1);
    return ValidationError.field('status', `A ${name} link cannot be ${verb}.`);
  }
}

type LinkEvent = 'quick_payment.created' | 'quick_payment.paid' | 'payment_link.created' | 'payment_link.updated';
