import { connectorDescriptor, supportOf } from '../../connectors/catalog.js';
import { ProcessorStatus } from '../merchants/merchants.model.js';
import { connectorSettings, type ProcessorRecord } from './processors.service.js';

/** A processor as the operator API shows it: settings and what it supports, each credential only as set or unset. */
export function processorAdminView({ processor, credentials }: ProcessorRecord) {
  const descriptor = connectorDescriptor(processor.connector);
  const credentialNames = Object.keys(
    (descriptor?.credentials as { properties?: Record<string, unknown> } | null)?.properties ?? {},
  );
  return {
    id: processor.id,
    merchantId: processor.merchantId,
    name: processor.name,
    typeId: processor.typeId,
    type: processor.typeName,
    connector: processor.connector,
    isDefault: processor.isDefault,
    statusId: processor.statusId,
    status: processor.statusId === ProcessorStatus.Active ? 'Active' : 'Inactive',
    settlementBatchTimeSlots: processor.settlementTimeSlots,
    settings: connectorSettings(processor),
    supports: supportOf(processor.connector),
    credentials:
      credentialNames.length === 0
        ? null
        : Object.fromEntries(
            credentialNames.map((name) => {
              const hint = credentials?.hints[name];
              return [
                name,
                { isSet: hint !== undefined, version: hint?.version ?? null, lastFour: hint?.lastFour ?? null },
              ];
            }),
          ),
    notificationUrlPath: descriptor?.notificationPath?.(processor.id) ?? null,
  };
}
