/** How POS transaction lists sort (v1 and v2): the sort names and the columns they order by. */
export const POS_LIST = {
  orderBy: { createdOn: 'p.created_at', amount: 'p.amount_cents', status: 'p.status_id' },
  defaultOrderBy: 'createdOn',
  tieBreaker: 'p.id',
};
