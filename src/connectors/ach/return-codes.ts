/**
 * The names NACHA gives its return reason codes (Operating Rules, Appendix Four) and change codes (Appendix Five).
 * A return file carries only the code (its addenda's free text is optional and upper case), so this is what a
 * transaction shows as its return reason.
 */
export const RETURN_REASONS: Readonly<Record<string, string>> = {
  R01: 'Insufficient funds',
  R02: 'Account closed',
  R03: 'No account/unable to locate account',
  R04: 'Invalid account number',
  R05: 'Unauthorized debit to consumer account using corporate SEC code',
  R06: 'Returned per ODFI request',
  R07: 'Authorization revoked by customer',
  R08: 'Payment stopped',
  R09: 'Uncollected funds',
  R10: 'Customer advises not authorized',
  R11: 'Customer advises entry not in accordance with the terms of the authorization',
  R12: 'Branch sold to another DFI',
  R13: 'Invalid ACH routing number',
  R14: 'Representative payee deceased or unable to continue in that capacity',
  R15: 'Beneficiary or account holder deceased',
  R16: 'Account frozen/entry returned per OFAC instruction',
  R17: 'File record edit criteria',
  R20: 'Non-transaction account',
  R21: 'Invalid company identification',
  R22: 'Invalid individual ID number',
  R23: 'Credit entry refused by receiver',
  R24: 'Duplicate entry',
  R29: 'Corporate customer advises not authorized',
  R31: 'Permissible return entry (CCD and CTX only)',
  R33: 'Return of XCK entry',
};

export const CHANGE_REASONS: Readonly<Record<string, string>> = {
  C01: 'Incorrect account number',
  C02: 'Incorrect routing number',
  C03: 'Incorrect routing number and account number',
  C05: 'Incorrect transaction code',
  C06: 'Incorrect account number and transaction code',
  C07: 'Incorrect routing number, account number and transaction code',
};

/** The reason to show for a return: the code's name, else what the addenda said, else the bare code. */
export function returnReason(code: string, information?: string): string {
  return RETURN_REASONS[code] ?? (information?.trim() || code);
}
