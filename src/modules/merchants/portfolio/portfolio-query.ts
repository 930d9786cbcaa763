/** Whose portfolio records a caller sees: a partner's merchants, or (the operator) every merchant. */
export interface PortfolioScope {
  partnerId: string | undefined;
}

/** The partner API's merchant list sorts, by the column each orders by. */
export const PORTFOLIO_SORTS = {
  dba_name: 'dba_sort',
  legal_name: 'legal_sort',
  onboarding_date: 'onboarding_date',
  status: 'status',
  last_data_refresh: 'last_data_refresh',
} as const;
export type PortfolioSort = keyof typeof PORTFOLIO_SORTS;
