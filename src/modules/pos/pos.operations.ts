import Type from 'typebox';
import type { OperatorOperation } from '../manifest.js';
import { TerminalIdParams } from '../terminals/terminals.schemas.js';
import { SandboxActionBody } from './sandbox-actions.js';

/** The sandbox operator's hand on a terminal (`tessera admin terminals act`). */
export const POS_OPERATIONS: OperatorOperation[] = [
  {
    group: 'terminals',
    verb: 'act',
    method: 'POST',
    path: '/admin/v1/sandbox/terminals/:terminalId/actions',
    summary:
      'Sandbox: act on a terminal as its user would (present-card, decline, paper, connection, battery); a ' +
      'simulator process connected for it does it, otherwise the virtual terminal',
    params: TerminalIdParams,
    body: SandboxActionBody,
    response: Type.Object({ ok: Type.Boolean() }, { examples: [{ ok: true }] }),
    sandboxOnly: true,
    async run(ctx, { params, body }) {
      await ctx.services.pos.sandboxAction(params.terminalId, body);
      return { ok: true };
    },
  },
];
