import type { Static } from 'typebox';
import type { OperatorOperation } from '../manifest.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { terminalView } from './terminals.mapper.js';
import type { Terminal } from './terminals.model.js';
import { Manufacturer, Model } from './terminals.model.js';
import {
  MerchantIdParams,
  RegisteredTerminalView,
  RegisterTerminalBody,
  TerminalIdParams,
  TerminalView,
  UpdateTerminalBody,
} from './terminals.schemas.js';
import type { TerminalsService } from './terminals.service.js';

async function operatorView(
  services: { terminals: TerminalsService; merchants: MerchantsService },
  terminal: Terminal,
) {
  const { merchant } = await services.merchants.getMerchant(terminal.merchantId);
  const presence = await services.terminals.presence(terminal);
  return terminalView(terminal, merchant.companyName, presence.online);
}

/** The operator's terminal routes (`/admin/v1`, and `tessera admin terminals …`). */
export const TERMINAL_OPERATIONS: OperatorOperation[] = [
  {
    group: 'terminals',
    verb: 'register',
    method: 'POST',
    path: '/admin/v1/merchants/:merchantId/terminals',
    summary: "Register a terminal for a merchant (answers its channel secret, once); records 'terminal.added'",
    params: MerchantIdParams,
    body: RegisterTerminalBody,
    response: RegisteredTerminalView,
    async run(ctx, { params, body }: { params: { merchantId: string }; body: Static<typeof RegisterTerminalBody> }) {
      const { terminal, secret } = await ctx.services.terminals.register(params.merchantId, {
        serialNumber: body.serialNumber,
        manufacturerId: Manufacturer[body.terminalManufacturer],
        modelId: Model[body.terminalModel],
        modeId: body.terminalModeId,
        deliveryStatusId: body.deliveryStatusId,
      });
      return { ...(await operatorView(ctx.services, terminal)), terminalSecret: secret };
    },
  },
  {
    group: 'terminals',
    verb: 'update',
    method: 'PATCH',
    path: '/admin/v1/terminals/:terminalId',
    summary: 'Change a terminal (mode, delivery status)',
    params: TerminalIdParams,
    body: UpdateTerminalBody,
    response: TerminalView,
    async run(ctx, { params, body }: { params: { terminalId: string }; body: Static<typeof UpdateTerminalBody> }) {
      const terminal = await ctx.services.terminals.update(params.terminalId, {
        modeId: body.terminalModeId,
        deliveryStatusId: body.deliveryStatusId,
      });
      return operatorView(ctx.services, terminal);
    },
  },
  {
    group: 'terminals',
    verb: 'deactivate',
    method: 'POST',
    path: '/admin/v1/terminals/:terminalId/deactivate',
    summary: "Deactivate a terminal (Inactive; its channel is closed and refused); records 'terminal.deactivated'",
    params: TerminalIdParams,
    response: TerminalView,
    async run(ctx, { params }) {
      const terminal = await ctx.services.terminals.deactivate(params.terminalId);
      // Whichever node holds its socket closes it (the login is refused from now on anyway).
      await ctx.services.terminalChannel.disconnect(terminal.id);
      return operatorView(ctx.services, terminal);
    },
  },
];
