import Type, { type TSchema } from 'typebox';

// Its own module: the transactions schemas use it, and the ACH schemas use theirs (no import cycle).
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Uuid = () => Type.String({ format: 'uuid' });

/** What the status check shows of an ACH transaction's bank side. */
export const AchProcessingDetails = Type.Object({
  secCodeId: Type.Integer(),
  secCode: Type.String(),
  accountNumber: Type.String({ description: 'Masked: only the last 4 digits.' }),
  routingNumber: Type.String(),
  accountTypeId: Type.Integer(),
  accountType: Type.String(),
  accountHolderTypeId: Type.Integer(),
  accountHolderType: Type.String(),
  isFasterProcessing: Type.Boolean(),
  scheduledWindow: Type.String({ format: 'date-time', description: 'The cutoff window it waits for, or went out in.' }),
  fileId: Nullable(Uuid()),
  traceNumber: Nullable(Type.String()),
  effectiveDate: Nullable(Type.String({ description: 'Settlement (effective entry) date, YYYY-MM-DD.' })),
  returnCode: Nullable(Type.String()),
  returnReason: Nullable(Type.String()),
  returnedAt: Nullable(Type.String({ format: 'date-time' })),
  notificationOfChange: Nullable(Type.Object({ changeCode: Type.String(), correctedData: Type.String() })),
  failureReason: Nullable(Type.String()),
});
