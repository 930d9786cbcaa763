import {
  abaRoutingValid,
  CreditDebitType,
  cardTypeOf,
  isExpired,
  luhnValid,
  maskPan,
  normalizePan,
} from '../../connectors/card/card-numbers.js';
import { creditDebitOf } from '../../connectors/card/sandbox-bins.js';
import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import { groupedLookup } from '../../platform/db/grouped.js';
import type { Pool, Sql } from '../../platform/db/pool.js';
import { dictionary } from '../../platform/dictionary.js';
import { type FieldErrors, NotFoundError, ValidationError } from '../../platform/http/errors.js';
import type { PageRequest } from '../../platform/http/paging.js';
import { type DataKeys, decryptWith, encryptWith } from './data-keys.js';
import {
  type AchInput,
  type CardInput,
  CardTokenType,
  type PaymentMethod,
  PaymentMethodType,
  type UsableCard,
} from './vault.model.js';
import {
  deleteCustomerPaymentMethods,
  deletePaymentMethod,
  findPaymentMethod,
  findPaymentMethodsById,
  insertPaymentMethod,
  listCustomerPaymentMethods,
  listPaymentMethods,
  type MethodFilter,
  updatePaymentMethod,
} from './vault.repo.js';

export interface CheckedCard {
  pan: string;
  expirationMonth: number;
  expirationYear: number;
}

/**
 * Validates raw card data as a 400 naming each bad field (a Luhn failure is a validation error, not a decline).
 * `fields` maps the logical names to the wire names of the request at hand (`pan` or `accountNumber`).
 */
export function checkCard(
  input: {
    pan: string | null | undefined;
    expirationMonth: number | null | undefined;
    expirationYear: number | null | undefined;
    securityCode?: string | null;
  },
  fields: { pan: string; prefix?: string },
  /** Numbers taken whatever their checksum (the sandbox's test cards; none in production). */
  beyondChecksum: (pan: string) => boolean = () => false,
): CheckedCard {
  const errors: FieldErrors = dictionary();
  const name = (field: string) => `${fields.prefix ?? ''}${field}`;
  const pan = input.pan == null ? undefined : normalizePan(input.pan);
  if (input.pan == null || input.pan.trim() === '') errors[name(fields.pan)] = [`'${name(fields.pan)}' is required.`];
  else if (!pan) errors[name(fields.pan)] = [`'${name(fields.pan)}' must be 12 to 19 digits.`];
  else if (!luhnValid(pan) && !beyondChecksum(pan)) {
    errors[name(fields.pan)] = [`'${name(fields.pan)}' is not a valid card number (checksum).`];
  }
  if (input.expirationMonth == null) errors[name('expirationMonth')] = [`'${name('expirationMonth')}' is required.`];
  else if (!Number.isInteger(input.expirationMonth) || input.expirationMonth < 1 || input.expirationMonth > 12) {
    errors[name('expirationMonth')] = [`'${name('expirationMonth')}' must be between 1 and 12.`];
  }
  if (input.expirationYear == null) errors[name('expirationYear')] = [`'${name('expirationYear')}' is required.`];
  else if (!Number.isInteger(input.expirationYear) || input.expirationYear < 2000 || input.expirationYear > 2099) {
    errors[name('expirationYear')] = [`'${name('expirationYear')}' must be a four-digit year.`];
  }
  if (input.securityCode != null && !/^\d{3,4}$/.test(input.securityCode)) {
    errors[name('securityCode')] = [`'${name('securityCode')}' must be 3 or 4 digits.`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { pan: pan!, expirationMonth: input.expirationMonth!, expirationYear: input.expirationYear! };
}

export function checkBankAccount(input: { accountNumber?: string | null; routingNumber?: string | null }, prefix = '') {
  const errors: FieldErrors = dictionary();
  const account = input.accountNumber?.trim() ?? '';
  const routing = input.routingNumber?.trim() ?? '';
  if (!account) errors[`${prefix}accountNumber`] = [`'${prefix}accountNumber' is required.`];
  else if (!/^\d{4,17}$/.test(account)) {
    errors[`${prefix}accountNumber`] = [`'${prefix}accountNumber' must be 4 to 17 digits.`];
  }
  if (!routing) errors[`${prefix}routingNumber`] = [`'${prefix}routingNumber' is required.`];
  else if (!abaRoutingValid(routing)) {
    errors[`${prefix}routingNumber`] = [`'${prefix}routingNumber' is not a valid ABA routing number (checksum).`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { accountNumber: account, routingNumber: routing };
}

export function maskAccount(account: string): string {
  return `${'*'.repeat(Math.max(0, account.length - 4))}${account.slice(-4)}`;
}

/** The vault: stores card and bank account numbers encrypted, and hands them out only for a payment in flight. */
export class VaultService {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    readonly dataKeys: DataKeys,
    /** The sandbox's test card numbers, taken before the checksum as the vendor's sandbox does; never in production. */
    readonly isTestCard: (pan: string) => boolean = () => false,
  ) {}

  /** checkCard, with this deployment's test card numbers. */
  checkCard(input: Parameters<typeof checkCard>[0], fields: Parameters<typeof checkCard>[1]): CheckedCard {
    return checkCard(input, fields, this.isTestCard);
  }

  /** A payment about to be made reads its method through here: concurrent payments' reads become one statement. */
  private readonly lookUp = groupedLookup((ids) => findPaymentMethodsById(this.pool, ids));

  /** A deleted customer's payment methods go with it (in the caller's transaction). */
  removeCustomerMethods(tx: Sql, merchantId: string, customerId: string, now: Date): Promise<void> {
    return deleteCustomerPaymentMethods(tx, merchantId, customerId, now);
  }

  private sealedMethod(sql: Sql, merchantId: string, id: string) {
    return sql === this.pool ? this.lookUp({ merchantId, id }) : findPaymentMethod(sql, merchantId, id);
  }

  async addCard(merchantId: string, customerId: string | null, input: CardInput, sql: Sql = this.pool) {
    const card = this.checkCard(input, { pan: 'pan' });
    if (isExpired(card.expirationMonth, card.expirationYear, this.clock.now())) {
      throw ValidationError.field('expirationYear', 'The card has expired.');
    }
    return this.store(merchantId, sql, card.pan, {
      customerId,
      typeId: PaymentMethodType.Card,
      name: input.name?.trim() || null,
      mask: maskPan(card.pan),
      fingerprint: this.dataKeys.fingerprint('card', card.pan),
      cardTypeId: cardTypeOf(card.pan),
      creditDebitTypeId: creditDebitOf(card.pan),
      cardTokenTypeId: CardTokenType.Local,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
      routingNumber: null,
      accountTypeId: null,
      accountHolderTypeId: null,
      taxId: null,
      companyName: null,
    });
  }

  async addBankAccount(merchantId: string, customerId: string | null, input: AchInput, sql: Sql = this.pool) {
    const { accountNumber, routingNumber } = checkBankAccount(input);
    return this.store(merchantId, sql, accountNumber, {
      customerId,
      typeId: PaymentMethodType.Ach,
      name: input.name?.trim() || null,
      mask: maskAccount(accountNumber),
      fingerprint: this.dataKeys.fingerprint('ach', `${routingNumber}:${accountNumber}`),
      cardTypeId: null,
      creditDebitTypeId: null,
      cardTokenTypeId: null,
      expirationMonth: null,
      expirationYear: null,
      routingNumber,
      accountTypeId: input.accountType ?? 1,
      accountHolderTypeId: input.accountHolderType ?? 2,
      taxId: input.taxId?.trim() || null,
      companyName: input.companyName?.trim() || null,
    });
  }

  /** Seals `secret` under the merchant's current data key (bound to the new id) and inserts the method. */
  private async store(
    merchantId: string,
    sql: Sql,
    secret: string,
    facts: Omit<PaymentMethod, 'id' | 'merchantId' | 'createdAt' | 'modifiedAt'>,
  ): Promise<{ id: string }> {
    const id = newId();
    const dataKey = await this.dataKeys.current(merchantId, sql);
    const now = this.clock.now();
    await insertPaymentMethod(sql, {
      ...facts,
      id,
      merchantId,
      createdAt: now,
      modifiedAt: now,
      dataKeyVersion: dataKey.version,
      secretSealed: encryptWith(dataKey, secret, id),
    });
    return { id };
  }

  async get(merchantId: string, id: string, sql: Sql = this.pool): Promise<PaymentMethod> {
    // Outside a transaction, concurrent requests' reads go together (a v2 payment reads its method's owner here).
    const pm = await this.sealedMethod(sql, merchantId, id);
    if (!pm) throw new NotFoundError('PaymentMethod', id);
    return pm;
  }

  /** The merchant's methods, customers' and orphans', a page at a time (the published `GET /v2/payment-methods`). */
  list(filter: MethodFilter, page: PageRequest): Promise<{ items: PaymentMethod[]; total: number }> {
    return listPaymentMethods(this.pool, filter, page);
  }

  listForCustomers(merchantId: string, customerIds: string[], sql: Sql = this.pool): Promise<PaymentMethod[]> {
    return customerIds.length === 0 ? Promise.resolve([]) : listCustomerPaymentMethods(sql, merchantId, customerIds);
  }

  async update(
    merchantId: string,
    id: string,
    changes: { name?: string | null; expirationMonth?: number; expirationYear?: number },
    sql: Sql = this.pool,
  ): Promise<void> {
    const pm = await this.get(merchantId, id, sql);
    if (
      pm.typeId !== PaymentMethodType.Card &&
      (changes.expirationMonth !== undefined || changes.expirationYear !== undefined)
    ) {
      throw ValidationError.field('expirationMonth', 'Only a card has an expiration date.');
    }
    const month = changes.expirationMonth ?? pm.expirationMonth;
    const year = changes.expirationYear ?? pm.expirationYear;
    if (pm.typeId === PaymentMethodType.Card && isExpired(month!, year!, this.clock.now())) {
      throw ValidationError.field('expirationYear', 'The card would be expired.');
    }
    await updatePaymentMethod(
      sql,
      merchantId,
      id,
      { name: changes.name === undefined ? undefined : changes.name?.trim() || null, ...stripUndefined(changes) },
      this.clock.now(),
    );
  }

  async remove(merchantId: string, id: string, sql: Sql = this.pool): Promise<void> {
    if (!(await deletePaymentMethod(sql, merchantId, id, this.clock.now())))
      throw new NotFoundError('PaymentMethod', id);
  }

  /** Opens a vaulted card for one authorization. */
  async usableCard(
    merchantId: string,
    id: string,
    sql: Sql = this.pool,
  ): Promise<UsableCard & { method: PaymentMethod }> {
    const pm = await this.sealedMethod(sql, merchantId, id);
    if (!pm) throw new NotFoundError('PaymentMethod', id);
    if (pm.typeId !== PaymentMethodType.Card) {
      throw ValidationError.field('paymentMethodId', 'The payment method is a bank account, not a card.');
    }
    const dataKey = await this.dataKeys.get(merchantId, pm.dataKeyVersion, sql);
    return {
      method: pm,
      paymentMethodId: pm.id,
      customerId: pm.customerId,
      pan: decryptWith(dataKey, pm.secretSealed, pm.id),
      expirationMonth: pm.expirationMonth!,
      expirationYear: pm.expirationYear!,
      mask: pm.mask,
      fingerprint: pm.fingerprint,
      cardTypeId: pm.cardTypeId ?? 0,
      creditDebitTypeId: pm.creditDebitTypeId ?? CreditDebitType.Unknown,
      cardTokenTypeId: pm.cardTokenTypeId ?? CardTokenType.Local,
    };
  }

  /** Opens a vaulted bank account for an ACH entry. */
  async usableBankAccount(merchantId: string, id: string, sql: Sql = this.pool) {
    const pm = await this.sealedMethod(sql, merchantId, id);
    if (!pm) throw new NotFoundError('PaymentMethod', id);
    if (pm.typeId !== PaymentMethodType.Ach) {
      throw ValidationError.field('paymentMethodId', 'The payment method is a card, not a bank account.');
    }
    const dataKey = await this.dataKeys.get(merchantId, pm.dataKeyVersion, sql);
    return { method: pm, accountNumber: decryptWith(dataKey, pm.secretSealed, pm.id) };
  }

  /**
   * Applies a bank's notification of change to a vaulted account (new account number, routing number or account
   * type), so the next entry goes out right. The number is sealed again under the current data key.
   */
  async correctBankAccount(
    merchantId: string,
    id: string,
    change: { accountNumber?: string; routingNumber?: string; accountTypeId?: number },
    sql: Sql = this.pool,
  ): Promise<boolean> {
    const pm = await findPaymentMethod(sql, merchantId, id);
    if (!pm || pm.typeId !== PaymentMethodType.Ach) return false;
    const dataKey = await this.dataKeys.current(merchantId, sql);
    const oldKey = await this.dataKeys.get(merchantId, pm.dataKeyVersion, sql);
    const accountNumber = change.accountNumber ?? decryptWith(oldKey, pm.secretSealed, pm.id);
    const routingNumber = change.routingNumber ?? pm.routingNumber!;
    await sql.query(
      `UPDATE payment_methods SET data_key_version = $3, secret_sealed = $4, mask = $5, fingerprint = $6,
         routing_number = $7, account_type_id = $8, modified_at = $9
       WHERE id = $1 AND merchant_id = $2`,
      [
        id,
        merchantId,
        dataKey.version,
        encryptWith(dataKey, accountNumber, id),
        maskAccount(accountNumber),
        this.dataKeys.fingerprint('ach', `${routingNumber}:${accountNumber}`),
        routingNumber,
        change.accountTypeId ?? pm.accountTypeId,
        this.clock.now(),
      ],
    );
    return true;
  }

  /** A card typed into the request: checked, fingerprinted, never stored. */
  rawCard(card: CheckedCard): UsableCard {
    return {
      paymentMethodId: null,
      customerId: null,
      pan: card.pan,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
      mask: maskPan(card.pan),
      fingerprint: this.dataKeys.fingerprint('card', card.pan),
      cardTypeId: cardTypeOf(card.pan),
      creditDebitTypeId: creditDebitOf(card.pan),
      cardTokenTypeId: CardTokenType.Local,
    };
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([k, v]) => v !== undefined && k !== 'name')) as Partial<T>;
}
