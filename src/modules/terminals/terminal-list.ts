/** How terminal lists sort (v1 and v2): the sort names and the columns they order by. */
export const TERMINAL_LIST = {
  orderBy: {
    createdOn: 't.created_at',
    modifiedOn: 't.modified_at',
    serialNumber: 't.serial_number',
    lastSeenTimestamp: 't.last_seen_at',
    deliveryStatusId: 't.delivery_status_id',
  },
  defaultOrderBy: 'createdOn',
  tieBreaker: 't.id',
};
