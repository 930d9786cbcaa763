// What a new (not vaulted) ACH account needs besides its numbers: the payer's billing address and contact info.
export const ACH_PAYER = {
  billingAddress: { line1: '1 Main St', city: 'New York', stateId: 33, countryId: 1, postalCode: '10001' },
  contactInfo: { firstName: 'Ada', lastName: 'Lovelace', mobileNumber: '+12125550100' },
};
