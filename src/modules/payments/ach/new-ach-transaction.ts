import { type NewTransaction, newTransaction } from '../new-transaction.js';
import type { Transaction } from '../transactions.model.js';
import { AchStatus } from './ach.model.js';

/** A new ACH transaction: Scheduled for its cutoff window, accepted ("Approve", 00) when created. */
export function newAchTransaction(t: Omit<NewTransaction, 'method' | 'statusId'>): Transaction {
  return newTransaction({
    ...t,
    method: 'ach',
    statusId: AchStatus.Scheduled,
    resultCode: 'Approve',
    responseCode: '00',
  });
}
