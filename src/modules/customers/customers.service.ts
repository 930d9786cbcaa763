import type { QueryConfig } from 'pg';
import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import { groupedLookup } from '../../platform/db/grouped.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/tx.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import { type AddressInput, normalizeAddress } from '../reference/address.js';
import { pickPhone } from '../reference/phone.js';
import type { AchInput, CardInput, PaymentMethod } from '../vault/vault.model.js';
import { PaymentMethodType } from '../vault/vault.model.js';
import type { VaultService } from '../vault/vault.service.js';
import type { Customer, CustomerFields, CustomerStats } from './customers.model.js';
import {
  type CustomerFilter,
  findCustomer,
  findCustomersById,
  findCustomerWithStats,
  insertCustomerQuery,
  listCustomers,
  replaceCustomer,
  setDefaults,
  softDeleteCustomer,
} from './customers.repo.js';

export interface CustomerInput {
  firstName?: string | null;
  lastName?: string | null;
  companyName?: string | null;
  email?: string | null;
  mobilePhoneNumber?: string | null;
  mobileNumber?: string | null;
  isMobileNumberSmsNotificationsEnabled?: boolean | null;
  smsNotification?: boolean | null;
  useBillingAsShippingAddress?: boolean | null;
  billingAddress?: AddressInput | null;
  shippingAddress?: AddressInput | null;
}

const text = (value: string | null | undefined) => (value == null || value.trim() === '' ? null : value.trim());

/** Request fields to stored fields; absent means empty (PUT is a full replacement). */
export function customerFields(input: CustomerInput): CustomerFields {
  const sms = [input.isMobileNumberSmsNotificationsEnabled, input.smsNotification].filter((v) => v != null);
  if (sms.length === 2 && sms[0] !== sms[1]) {
    throw ValidationError.field(
      'smsNotification',
      "'smsNotification' contradicts 'isMobileNumberSmsNotificationsEnabled'.",
    );
  }
  return {
    firstName: text(input.firstName),
    lastName: text(input.lastName),
    companyName: text(input.companyName),
    email: text(input.email)?.toLowerCase() ?? null,
    mobilePhoneNumber: pickPhone(input) ?? null,
    smsNotificationsEnabled: (sms[0] as boolean | undefined) ?? null,
    useBillingAsShipping: input.useBillingAsShippingAddress ?? false,
    billingAddress: input.billingAddress ? normalizeAddress(input.billingAddress, 'billingAddress') : null,
    shippingAddress: input.shippingAddress ? normalizeAddress(input.shippingAddress, 'shippingAddress') : null,
  };
}

/**
 * Records of other modules that hang on a customer or its payment methods (a subscription). Called inside the
 * customers module's own transaction, with the customer's row locked.
 */
export interface CustomerDependents {
  /** Why a payment method cannot be deleted now (a message naming what uses it), or null. */
  methodInUse(tx: Sql, merchantId: string, paymentMethodId: string): Promise<string | null>;
  /** The customer is being deleted: what hangs on it ends in the same transaction. */
  customerDeleted(tx: Sql, merchantId: string, customerId: string, now: Date): Promise<void>;
}

export interface CustomerDetails {
  customer: Customer;
  stats: CustomerStats;
  methods: PaymentMethod[];
}

export class CustomersService {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly vault: VaultService,
  ) {}

  private readonly dependents: CustomerDependents[] = [];

  /** A module whose records hang on customers (registered once at start-up). */
  addDependents(dependents: CustomerDependents): void {
    this.dependents.push(dependents);
  }

  /**
   * The customer, share-locked until the caller's transaction ends: it cannot be deleted, nor lose a payment method,
   * meanwhile (for a record that comes to depend on it).
   */
  async lockShared(tx: Sql, merchantId: string, id: string): Promise<Customer> {
    const customer = await findCustomer(tx, merchantId, id, { forShare: true });
    if (!customer) throw new NotFoundError('Customer', id);
    return customer;
  }

  /** Reads outside a transaction (a payment looking up its customer) from concurrent requests become one statement. */
  private readonly lookUp = groupedLookup((ids) => findCustomersById(this.pool, ids));

  async create(merchantId: string, input: CustomerInput, sql: Sql = this.pool): Promise<{ id: string }> {
    const { id, query } = this.creation(merchantId, input);
    await sql.query(query);
    return { id };
  }

  /** A new customer's id and insert, for a caller that sends the insert with its own statements (`Tx.batch`). */
  creation(merchantId: string, input: CustomerInput): { id: string; query: QueryConfig } {
    const now = this.clock.now();
    const customer: Customer = {
      id: newId(),
      merchantId,
      ...customerFields(input),
      defaultPaymentMethodId: null,
      defaultAchPaymentMethodId: null,
      createdAt: now,
      modifiedAt: now,
    };
    return { id: customer.id, query: insertCustomerQuery(customer) };
  }

  /**
   * A customer with its first cards and bank accounts, in one transaction (a bad card leaves nothing behind); the
   * first of each kind becomes the default.
   */
  async createWithMethods(
    merchantId: string,
    input: CustomerInput,
    cards: CardInput[],
    accounts: AchInput[],
  ): Promise<{ id: string }> {
    return withTransaction(this.pool, async (tx) => {
      const { id } = await this.create(merchantId, input, tx);
      const cardIds: string[] = [];
      const accountIds: string[] = [];
      for (const card of cards) cardIds.push((await this.vault.addCard(merchantId, id, card, tx)).id);
      for (const account of accounts)
        accountIds.push((await this.vault.addBankAccount(merchantId, id, account, tx)).id);
      if (cardIds.length + accountIds.length > 0) {
        await setDefaults(
          tx,
          merchantId,
          id,
          { card: cardIds[0] ?? null, ach: accountIds[0] ?? null },
          this.clock.now(),
        );
      }
      return { id };
    });
  }

  async replace(merchantId: string, id: string, input: CustomerInput): Promise<void> {
    const fields = customerFields(input);
    if (!(await replaceCustomer(this.pool, merchantId, id, fields, this.clock.now()))) {
      throw new NotFoundError('Customer', id);
    }
  }

  /** The customer, tenant-scoped (another merchant's customer is not found). */
  async get(merchantId: string, id: string, sql: Sql = this.pool): Promise<Customer> {
    const customer = await (sql === this.pool ? this.lookUp({ merchantId, id }) : findCustomer(sql, merchantId, id));
    if (!customer) throw new NotFoundError('Customer', id);
    return customer;
  }

  async details(merchantId: string, id: string): Promise<CustomerDetails> {
    const found = await findCustomerWithStats(this.pool, merchantId, id);
    if (!found) throw new NotFoundError('Customer', id);
    return { ...found, methods: await this.vault.listForCustomers(merchantId, [id]) };
  }

  list(filter: CustomerFilter, page: PageRequest) {
    return listCustomers(this.pool, filter, page);
  }

  /** Deletes the customer and, with it, its payment methods (the vault's), in one transaction. */
  async remove(merchantId: string, id: string): Promise<void> {
    await withTransaction(this.pool, async (tx) => {
      const now = this.clock.now();
      await this.locked(tx, merchantId, id);
      for (const dependents of this.dependents) await dependents.customerDeleted(tx, merchantId, id, now);
      if (!(await softDeleteCustomer(tx, merchantId, id, now))) throw new NotFoundError('Customer', id);
      await this.vault.removeCustomerMethods(tx, merchantId, id, now);
    });
  }

  async addCard(merchantId: string, customerId: string, input: CardInput): Promise<{ id: string }> {
    return withTransaction(this.pool, async (tx) => {
      const customer = await this.locked(tx, merchantId, customerId);
      const created = await this.vault.addCard(merchantId, customerId, input, tx);
      if (!customer.defaultPaymentMethodId) {
        await setDefaults(tx, merchantId, customerId, { card: created.id }, this.clock.now());
      }
      return created;
    });
  }

  async addBankAccount(merchantId: string, customerId: string, input: AchInput): Promise<{ id: string }> {
    return withTransaction(this.pool, async (tx) => {
      const customer = await this.locked(tx, merchantId, customerId);
      const created = await this.vault.addBankAccount(merchantId, customerId, input, tx);
      if (!customer.defaultAchPaymentMethodId) {
        await setDefaults(tx, merchantId, customerId, { ach: created.id }, this.clock.now());
      }
      return created;
    });
  }

  async listMethods(merchantId: string, customerId: string): Promise<{ customer: Customer; methods: PaymentMethod[] }> {
    const customer = await this.get(merchantId, customerId);
    return { customer, methods: await this.vault.listForCustomers(merchantId, [customerId]) };
  }

  async updateMethod(
    merchantId: string,
    customerId: string,
    paymentMethodId: string,
    changes: { name?: string | null; expirationMonth?: number; expirationYear?: number },
  ): Promise<void> {
    await withTransaction(this.pool, async (tx) => {
      await this.methodOf(tx, merchantId, customerId, paymentMethodId);
      await this.vault.update(merchantId, paymentMethodId, changes, tx);
    });
  }

  async makeDefault(merchantId: string, customerId: string, paymentMethodId: string): Promise<void> {
    await withTransaction(this.pool, async (tx) => {
      await this.locked(tx, merchantId, customerId);
      const pm = await this.methodOf(tx, merchantId, customerId, paymentMethodId);
      await setDefaults(
        tx,
        merchantId,
        customerId,
        pm.typeId === PaymentMethodType.Card ? { card: pm.id } : { ach: pm.id },
        this.clock.now(),
      );
    });
  }

  async removeMethod(merchantId: string, customerId: string, paymentMethodId: string): Promise<void> {
    await withTransaction(this.pool, async (tx) => {
      const customer = await this.locked(tx, merchantId, customerId);
      const pm = await this.methodOf(tx, merchantId, customerId, paymentMethodId);
      for (const dependents of this.dependents) {
        const inUse = await dependents.methodInUse(tx, merchantId, paymentMethodId);
        if (inUse) throw ValidationError.field('paymentMethodId', inUse);
      }
      await this.vault.remove(merchantId, paymentMethodId, tx);
      // The default moves to the newest remaining method of the same kind (or none).
      const isCard = pm.typeId === PaymentMethodType.Card;
      if ((isCard ? customer.defaultPaymentMethodId : customer.defaultAchPaymentMethodId) === pm.id) {
        const remaining = (await this.vault.listForCustomers(merchantId, [customerId], tx)).filter(
          (m) => m.typeId === pm.typeId,
        );
        const next = remaining.at(-1)?.id ?? null;
        await setDefaults(tx, merchantId, customerId, isCard ? { card: next } : { ach: next }, this.clock.now());
      }
    });
  }

  private async locked(tx: Sql, merchantId: string, customerId: string): Promise<Customer> {
    const customer = await findCustomer(tx, merchantId, customerId, { forUpdate: true });
    if (!customer) throw new NotFoundError('Customer', customerId);
    return customer;
  }

  private async methodOf(tx: Sql, merchantId: string, customerId: string, paymentMethodId: string) {
    const pm = await this.vault.get(merchantId, paymentMethodId, tx);
    if (pm.customerId !== customerId) throw new NotFoundError('PaymentMethod', paymentMethodId);
    return pm;
  }
}
