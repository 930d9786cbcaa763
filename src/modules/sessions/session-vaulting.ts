import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import type { CustomersService } from '../customers/customers.service.js';
import type { Address } from '../reference/address.js';
import type { VaultService } from '../vault/vault.service.js';
import { checkBankAccount } from '../vault/vault.service.js';
import { splitName } from './session-charge.js';
import type { PayerPayment } from './session-payments.js';
import { CustomerHandling, type PaymentSession } from './sessions.model.js';
import { updateAttempt } from './sessions.repo.js';

export interface VaultingDeps {
  pool: Pool;
  clock: Clock;
  customers: CustomersService;
  vault: VaultService;
}

/**
 * Vaults the payer's method per the session: to its customer, to a customer created now (CreateCustomer without
 * one; kept on the session so a retry reuses it), or as a merchant-owned method (TokenOnly, or no handling).
 */
export async function saveMethod(
  deps: VaultingDeps,
  session: PaymentSession,
  token: string,
  payment: PayerPayment,
  billing: Address | null,
): Promise<{ customerId: string | null; paymentMethodId: string }> {
  let customerId = session.customerId;
  if (!customerId && session.customerHandling === CustomerHandling.CreateCustomer) {
    const [firstName, lastName] =
      payment.method === 'card' ? splitName(payment.card!.name) : [payment.ach!.firstName, payment.ach!.lastName];
    const created = await deps.customers.create(session.merchantId, {
      firstName,
      lastName,
      email: payment.email,
      mobilePhoneNumber: payment.ach?.phone ?? null,
      billingAddress: billing,
    });
    customerId = created.id;
    await updateAttempt(deps.pool, session, token, { customer_id: customerId }, deps.clock.now(), false);
  }
  let method: { id: string };
  if (payment.method === 'card') {
    const card = payment.card!;
    const input = {
      name: card.name,
      pan: card.number,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
    };
    method = customerId
      ? await deps.customers.addCard(session.merchantId, customerId, input)
      : await deps.vault.addCard(session.merchantId, null, input);
  } else {
    const ach = payment.ach!;
    checkBankAccount({ accountNumber: ach.accountNumber, routingNumber: ach.routingNumber });
    const input = {
      name: `${ach.firstName} ${ach.lastName}`.trim(),
      accountNumber: ach.accountNumber,
      routingNumber: ach.routingNumber,
      accountType: ach.accountType,
      accountHolderType: ach.accountHolderType,
    };
    method = customerId
      ? await deps.customers.addBankAccount(session.merchantId, customerId, input)
      : await deps.vault.addBankAccount(session.merchantId, null, input);
  }
  return { customerId, paymentMethodId: method.id };
}

/** A declined payment must not leave the method it was saved with. */
export async function unsaveMethod(
  deps: VaultingDeps,
  session: PaymentSession,
  saved: { customerId: string | null; paymentMethodId: string },
) {
  if (saved.customerId) {
    await deps.customers.removeMethod(session.merchantId, saved.customerId, saved.paymentMethodId);
  } else await deps.vault.remove(session.merchantId, saved.paymentMethodId);
}
