import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import { Grouped } from '../../platform/db/grouped.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { type Tx, withTransaction } from '../../platform/db/tx.js';
import { NotFoundError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import type { MerchantPrincipal, PartnerPrincipal } from '../../platform/http/principal.js';
import { recordEvent } from '../events/outbox.js';
import type { PartnersService } from '../partners/partners.service.js';
import { type ConfigurationCache, MERCHANT_CHANNEL } from './configuration-cache.js';
import { MerchantProcessors } from './merchant-processors.js';
import {
  type Merchant,
  type MerchantChanges,
  type MerchantConfiguration,
  type MerchantContact,
  type MerchantDraft,
  type PaymentProcessor,
  PaymentProcessorType,
  ProcessorStatus,
  type TransactionAutofill,
} from './merchants.model.js';
import {
  countMerchants,
  findConfigurations,
  findMerchant,
  findPartnerMerchant,
  findProcessorsWithConnector,
  findProcessorWithSettings,
  insertMerchant,
  insertProcessor,
  listAllMerchants,
  listContacts,
  listPartnerMerchants,
  listProcessors,
  lockTransactionAutofill,
  type PartnerMerchantFilter,
  saveProcessorSettings,
  saveTransactionAutofill,
  updateMerchant,
  upsertMainContact,
} from './merchants.repo.js';
import type { Portfolio } from './portfolio/portfolio.model.js';
import type { MerchantPortfolios } from './portfolio/portfolio.service.js';

export interface MerchantDetails {
  merchant: Merchant;
  processors: PaymentProcessor[];
  contacts: MerchantContact[];
  /** What the partner portfolio API reports (absent only while a merchant is being created). */
  portfolio?: Portfolio;
}

const NEW_YORK = 'America/New_York';

/** Every new merchant can transact at once: a default sandbox card processor and a default sandbox ACH processor. */
function defaultProcessors(merchantId: string): PaymentProcessor[] {
  return [
    {
      id: newId(),
      merchantId,
      method: 'card',
      name: 'Sandbox Card',
      typeId: PaymentProcessorType.Card,
      typeName: 'SandboxCard',
      connector: 'sandbox-card',
      isDefault: true,
      statusId: ProcessorStatus.Active,
      settlementTimeSlots: [{ hours: 22, minutes: 0, timezoneName: NEW_YORK }],
    },
    {
      id: newId(),
      merchantId,
      method: 'ach',
      name: 'Sandbox ACH',
      typeId: PaymentProcessorType.Ach,
      typeName: 'SandboxAch',
      connector: 'sandbox-ach',
      isDefault: true,
      statusId: ProcessorStatus.Active,
      // ACH cutoff windows: same-day 10:30 and 14:45, standard 17:00 (business days).
      settlementTimeSlots: [
        { hours: 10, minutes: 30, timezoneName: NEW_YORK },
        { hours: 14, minutes: 45, timezoneName: NEW_YORK },
        { hours: 17, minutes: 0, timezoneName: NEW_YORK },
      ],
    },
  ];
}

export class MerchantsService {
  private readonly lastTouched = new Map<string, number>();
  /** The merchant's processors as records (the operator's processor API). */
  readonly processors: MerchantProcessors;
  private readonly configurationReads: Grouped<string, MerchantConfiguration | undefined>;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly partners: PartnersService,
    private readonly configurations: ConfigurationCache,
    readonly portfolios: MerchantPortfolios,
    /**
     * New merchants start with the sandbox's simulated card and ACH processors; production never uses a simulator,
     * so a production merchant starts with none and gets real ones from the operator (docs/connectors.md).
     */
    private readonly sandboxProcessors: boolean,
  ) {
    this.processors = new MerchantProcessors(pool, configurations);
    this.configurationReads = new Grouped(async (ids) => {
      const found = await findConfigurations(this.pool, [...new Set(ids)]);
      return ids.map((id) => found.get(id));
    });
  }

  async createMerchant(draft: MerchantDraft, sql?: Sql): Promise<MerchantDetails> {
    const run = async (tx: Sql) => {
      if (draft.partnerId) await this.partners.getPartner(draft.partnerId, tx);
      const now = this.clock.now();
      const merchant: Merchant = {
        id: newId(),
        partnerId: draft.partnerId,
        companyName: draft.companyName,
        legalName: draft.legalName,
        mccCode: draft.mccCode,
        mccCodeDescription: draft.mccCodeDescription,
        statusId: draft.statusId,
        email: draft.email,
        phone: draft.phone,
        website: draft.website,
        settings: draft.settings,
        lastTransactionAt: null,
        createdAt: now,
        modifiedAt: now,
      };
      await insertMerchant(tx, merchant);
      await upsertMainContact(tx, {
        id: newId(),
        merchantId: merchant.id,
        address: draft.address,
        email: draft.email,
        phone: draft.phone,
        now,
      });
      if (this.sandboxProcessors) {
        for (const processor of defaultProcessors(merchant.id)) await insertProcessor(tx, processor, now);
      }
      await recordEvent(tx, this.clock, {
        type: 'merchant.created',
        merchantId: merchant.id,
        partnerId: merchant.partnerId,
        resourceType: 'merchant',
        resourceId: merchant.id,
      });
      const details = await this.details(tx, merchant, { withPortfolio: false });
      details.portfolio = await this.portfolios.sync(tx, details, draft.portfolio, true);
      return details;
    };
    return sql ? run(sql) : withTransaction(this.pool, run);
  }

  async updateMerchant(id: string, changes: MerchantChanges): Promise<MerchantDetails> {
    return withTransaction(this.pool, async (tx) => {
      const current = await findMerchant(tx, id, { forUpdate: true });
      if (!current) throw new NotFoundError('Merchant', id);
      if (changes.partnerId) await this.partners.getPartner(changes.partnerId, tx);
      const { settings, address, portfolio, ...rest } = changes;
      const next: Merchant = {
        ...current,
        ...stripUndefined(rest),
        settings: {
          ...current.settings,
          ...stripUndefined({ ...settings, avs: undefined }),
          avs: { ...current.settings.avs, ...stripUndefined(settings?.avs ?? {}) },
        },
        modifiedAt: this.clock.now(),
      };
      await updateMerchant(tx, next);
      // Delivered at commit: every node drops its cached configuration of this merchant; this one at once, so the
      // caller's next request reads what it just wrote.
      await tx.query(`SELECT pg_notify('${MERCHANT_CHANNEL}', $1)`, [id]);
      tx.afterCommit(() => this.configurations.delete(id));
      if (address !== undefined || changes.email !== undefined || changes.phone !== undefined) {
        const main = (await listContacts(tx, id)).find((c) => c.isMain);
        await upsertMainContact(tx, {
          id: main?.id ?? newId(),
          merchantId: id,
          address: address === undefined ? (main?.address ?? null) : address,
          email: next.email,
          phone: next.phone,
          now: next.modifiedAt,
        });
      }
      const details = await this.details(tx, next, { withPortfolio: false });
      details.portfolio = await this.portfolios.sync(tx, details, portfolio);
      return details;
    });
  }

  async getMerchant(id: string): Promise<MerchantDetails> {
    return this.details(this.pool, await this.getMerchantIn(this.pool, id));
  }

  /** Operator-level read (no tenant scope): only for the operator API and for services acting on its behalf. */
  async getMerchantIn(sql: Sql, id: string): Promise<Merchant> {
    const merchant = await findMerchant(sql, id);
    if (!merchant) throw new NotFoundError('Merchant', id);
    return merchant;
  }

  /**
   * The merchant a caller may act on: itself for a merchant token, one of its own merchants for a partner token.
   * Anything else is indistinguishable from a merchant that does not exist.
   */
  async merchantInScope(
    principal: MerchantPrincipal | PartnerPrincipal,
    merchantId: string,
    sql: Sql = this.pool,
  ): Promise<Merchant> {
    const merchant =
      principal.kind === 'merchant'
        ? principal.merchantId === merchantId
          ? await findMerchant(sql, merchantId)
          : undefined
        : await findPartnerMerchant(sql, principal.partnerId, merchantId);
    if (!merchant) throw new NotFoundError('Merchant', merchantId);
    return merchant;
  }

  async listForPartner(
    filter: PartnerMerchantFilter,
    page: PageRequest,
  ): Promise<{ items: Merchant[]; total: number }> {
    return listPartnerMerchants(this.pool, filter, page);
  }

  /** The deployment's newest merchants (the operator's console). */
  listAll(search: string | undefined, limit = 100): Promise<Merchant[]> {
    return listAllMerchants(this.pool, search, limit);
  }

  /**
   * The merchant's configuration: settings, identity and processors (cached per node, invalidated on change). Reads
   * that miss the cache at the same time go to PostgreSQL together, one statement for the group; each starts after
   * its caller asked (Grouped), so none answers older than a read of its own would.
   */
  async getConfiguration(merchantId: string): Promise<MerchantConfiguration> {
    const found = await this.configurations.get(merchantId, () => this.configurationReads.submit(merchantId));
    if (!found) throw new NotFoundError('Merchant', merchantId);
    return found;
  }

  /**
   * Moves the merchant's last-transaction time forward (partners filter on it). At most once a minute per merchant,
   * so concurrent payments do not queue on the merchant row: the figure is exact to the minute. Each node also
   * remembers when it last moved it, to skip the statement; the SQL condition alone keeps the nodes consistent.
   */
  touchLastTransaction(tx: Tx, merchantId: string, at: Date): void {
    const last = this.lastTouched.get(merchantId);
    if (last !== undefined && at.getTime() >= last && at.getTime() - last < 60_000) return;
    tx.afterCommit(() => {
      if (this.lastTouched.size > 100_000) this.lastTouched.clear();
      this.lastTouched.set(merchantId, at.getTime());
    });
    tx.defer({
      name: 'merchants.touch-last-transaction',
      text: `UPDATE merchants SET last_transaction_at = $2
             WHERE id = $1 AND (last_transaction_at IS NULL OR last_transaction_at < $2::timestamptz - interval '60 seconds')`,
      values: [merchantId, at],
    });
  }

  /** A processor by id with its method-specific settings, or undefined (any merchant's: for system jobs). */
  processorWithSettings(processorId: string, sql: Sql = this.pool) {
    return findProcessorWithSettings(sql, processorId);
  }

  /** Every processor of the connector, whichever merchant's (a bank connection's members), active ones first. */
  processorsWithConnector(connector: string, sql: Sql = this.pool) {
    return findProcessorsWithConnector(sql, connector);
  }

  /**
   * Saves one method's settings of a processor and its settlement time slots; every node's cached configuration of
   * the merchant is dropped at once (the change is what payments configuration shows). False: no such processor.
   */
  async updateProcessorSettings(
    processorId: string,
    method: PaymentProcessor['method'],
    settings: unknown,
    timeSlots: PaymentProcessor['settlementTimeSlots'],
  ): Promise<boolean> {
    return withTransaction(this.pool, async (tx) => {
      const merchantId = await saveProcessorSettings(tx, processorId, method, settings, timeSlots);
      if (!merchantId) return false;
      await tx.query(`SELECT pg_notify('${MERCHANT_CHANNEL}', $1)`, [merchantId]);
      tx.afterCommit(() => this.configurations.delete(merchantId));
      return true;
    });
  }

  /** The merchant's L2/L3 autofill settings, replaced whole; every node's cached configuration is dropped at once. */
  async setTransactionAutofill(merchantId: string, autofill: TransactionAutofill | null): Promise<void> {
    await this.changeTransactionAutofill(merchantId, () => autofill);
  }

  /**
   * The autofill settings changed from what they are (a merge patch): the merchant's row is locked for the change, so
   * two patches of different fields both land.
   */
  async changeTransactionAutofill(
    merchantId: string,
    change: (current: TransactionAutofill | null) => TransactionAutofill | null,
  ): Promise<void> {
    await withTransaction(this.pool, async (tx) => {
      const current = await lockTransactionAutofill(tx, merchantId);
      if (current === undefined) throw new NotFoundError('Merchant', merchantId);
      const autofill = change(current);
      if (!(await saveTransactionAutofill(tx, merchantId, autofill, this.clock.now()))) {
        throw new NotFoundError('Merchant', merchantId);
      }
      await tx.query(`SELECT pg_notify('${MERCHANT_CHANNEL}', $1)`, [merchantId]);
      tx.afterCommit(() => this.configurations.delete(merchantId));
    });
  }

  /** The merchant's contacts (cached with its configuration: shared, not to be changed by the caller). */
  async getContacts(merchantId: string): Promise<readonly MerchantContact[]> {
    return (await this.configurations.contacts.get(merchantId, () => listContacts(this.pool, merchantId)))!;
  }

  async isEmpty(sql: Sql = this.pool): Promise<boolean> {
    return (await countMerchants(sql)) === 0;
  }

  private async details(
    sql: Sql,
    merchant: Merchant,
    options: { withPortfolio: boolean } = { withPortfolio: true },
  ): Promise<MerchantDetails> {
    const [processors, contacts, portfolio] = await Promise.all([
      listProcessors(sql, merchant.id),
      listContacts(sql, merchant.id),
      options.withPortfolio ? this.portfolios.find(merchant.id, sql) : undefined,
    ]);
    return { merchant, processors, contacts, ...(portfolio ? { portfolio } : {}) };
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
