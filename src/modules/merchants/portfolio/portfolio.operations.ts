import Type from 'typebox';
import type { OperatorOperation } from '../../manifest.js';
import { ComplianceInput, ComplianceRecordedView } from './portfolio.schemas.js';

/** The operator's compliance records (`/admin/v1`, and `tessera admin merchants record-compliance`). */
export const PORTFOLIO_OPERATIONS: OperatorOperation[] = [
  {
    group: 'merchants',
    verb: 'record-compliance',
    method: 'POST',
    path: '/admin/v1/merchants/:id/compliance',
    summary:
      'Record a PCI compliance snapshot of a merchant: the newest (by recordedAt) is its current compliance; all form its history',
    params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
    body: ComplianceInput,
    response: ComplianceRecordedView,
    idempotent: true,
    async run(ctx, { params, body }) {
      const { snapshot, current } = await ctx.services.merchants.portfolios.recordCompliance(params.id, body);
      return {
        id: snapshot.id,
        merchantId: snapshot.merchantId,
        status: snapshot.status,
        recordedAt: snapshot.recordedAt.toISOString(),
        current,
      };
    },
  },
];
