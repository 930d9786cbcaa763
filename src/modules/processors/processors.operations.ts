import type { OperatorOperation } from '../manifest.js';
import { processorAdminView } from './processors.mapper.js';
import {
  CreateProcessorBody,
  MerchantParams,
  ProcessorList,
  ProcessorParams,
  ProcessorView,
  UpdateProcessorBody,
} from './processors.schemas.js';

const PATH = '/admin/v1/merchants/:merchantId/processors';

/** The operator's payment processors of a merchant (docs/connectors.md); `tessera admin processors ...` mirrors them. */
export const PROCESSOR_OPERATIONS: OperatorOperation[] = [
  {
    group: 'processors',
    verb: 'create',
    method: 'POST',
    path: PATH,
    summary: 'Add a payment processor to a merchant (its credentials are sealed and never shown again)',
    params: MerchantParams,
    body: CreateProcessorBody,
    response: ProcessorView,
    idempotent: true,
    async run(ctx, { params, body }: { params: { merchantId: string }; body: CreateProcessorBody }) {
      const record = await ctx.services.processors.create({
        merchantId: params.merchantId,
        name: body.name,
        typeId: body.typeId,
        connector: body.connector,
        isDefault: body.isDefault ?? false,
        ...(body.settlementBatchTimeSlots ? { settlementTimeSlots: body.settlementBatchTimeSlots } : {}),
        ...(body.settings ? { settings: body.settings } : {}),
        ...(body.credentials ? { credentials: body.credentials } : {}),
      });
      return processorAdminView(record);
    },
  },
  {
    group: 'processors',
    verb: 'list',
    method: 'GET',
    path: PATH,
    summary: "List a merchant's payment processors (credentials only as set or unset)",
    params: MerchantParams,
    response: ProcessorList,
    async run(ctx, { params }) {
      const records = await ctx.services.processors.list(params.merchantId);
      return { items: records.map(processorAdminView), total: records.length };
    },
  },
  {
    group: 'processors',
    verb: 'get',
    method: 'GET',
    path: `${PATH}/:processorId`,
    summary: 'Get a payment processor (credentials only as set or unset)',
    params: ProcessorParams,
    response: ProcessorView,
    async run(ctx, { params }) {
      return processorAdminView(await ctx.services.processors.get(params.merchantId, params.processorId));
    },
  },
  {
    group: 'processors',
    verb: 'update',
    method: 'PATCH',
    path: `${PATH}/:processorId`,
    summary:
      'Change a payment processor: name, default, status (2 disables it), time slots, settings (merged), credentials (a new version; the replaced notification credentials keep working for credentialOverlapHours)',
    params: ProcessorParams,
    body: UpdateProcessorBody,
    response: ProcessorView,
    async run(
      ctx,
      { params, body }: { params: { merchantId: string; processorId: string }; body: UpdateProcessorBody },
    ) {
      const record = await ctx.services.processors.update(params.merchantId, params.processorId, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.isDefault !== undefined ? { isDefault: body.isDefault } : {}),
        ...(body.statusId !== undefined ? { statusId: body.statusId } : {}),
        ...(body.settlementBatchTimeSlots ? { settlementTimeSlots: body.settlementBatchTimeSlots } : {}),
        ...(body.settings ? { settings: body.settings } : {}),
        ...(body.credentials ? { credentials: body.credentials } : {}),
        ...(body.credentialOverlapHours !== undefined ? { credentialOverlapHours: body.credentialOverlapHours } : {}),
      });
      return processorAdminView(record);
    },
  },
];
