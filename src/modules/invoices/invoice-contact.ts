import type { Sql } from '../../platform/db/pool.js';
import type { CustomersService } from '../customers/customers.service.js';
import type { Invoice } from './invoices.model.js';

/** Whom an invoice is for and how to reach them: its customer record's details, else its inline customer's. */
export interface InvoiceContact {
  name: string | null;
  companyName: string | null;
  email: string | null;
  mobileNumber: string | null;
  /** The customer agreed to SMS notifications. */
  smsConsent: boolean;
}

export async function invoiceContact(
  customers: CustomersService,
  invoice: Invoice,
  sql?: Sql,
): Promise<InvoiceContact> {
  if (invoice.customerId) {
    const c = await customers.get(invoice.merchantId, invoice.customerId, sql).catch(() => undefined);
    if (c) {
      return {
        name: fullName(c.firstName, c.lastName) ?? c.companyName,
        companyName: c.companyName,
        email: c.email,
        mobileNumber: c.mobilePhoneNumber,
        smsConsent: c.smsNotificationsEnabled === true,
      };
    }
  }
  return inlineContact(invoice.customer);
}

/** The inline customer's details (also those of the customer record publication makes from it). */
export function inlineContact(inline: Invoice['customer']): InvoiceContact {
  return {
    name: inline ? (fullName(inline.firstName, inline.lastName) ?? inline.companyName) : null,
    companyName: inline?.companyName ?? null,
    email: inline?.email ?? null,
    mobileNumber: inline?.mobileNumber ?? null,
    smsConsent: inline?.isMobileNumberSmsNotificationsEnabled === true,
  };
}

function fullName(first: string | null, last: string | null): string | null {
  const name = [first, last].filter(Boolean).join(' ');
  return name || null;
}
