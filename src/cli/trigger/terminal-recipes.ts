// Recipes for terminal events. Terminals are registered and controlled by the operator (the merchant only uses
// them), so these take the operator's token: a sandbox terminal registered to the merchant, deactivated, or told
// its paper ran out (the virtual terminal's control).
import { randomBytes } from 'node:crypto';
import type { TriggerContext } from './trigger-context.js';

async function terminal(ctx: TriggerContext): Promise<string> {
  const merchantId = await ctx.merchantId();
  const made = await ctx.operator<{ id: string; serialNumber: string }>(
    'registering a terminal',
    'POST',
    `/admin/v1/merchants/${merchantId}/terminals`,
    {
      serialNumber: `TRIGGER-${randomBytes(4).toString('hex')}`,
      terminalManufacturer: 'Sunmi',
      terminalModel: 'SunmiP2',
      terminalModeId: 2,
    },
  );
  ctx.record({ kind: 'terminal', id: made.id, detail: made.serialNumber });
  return made.id;
}

export const terminalRecipes = {
  'terminal.added': async (ctx: TriggerContext) => void (await terminal(ctx)),
  'terminal.deactivated': async (ctx: TriggerContext) => {
    const id = await terminal(ctx);
    await ctx.operator('deactivating the terminal', 'POST', `/admin/v1/terminals/${id}/deactivate`, {});
    ctx.step('deactivated');
  },
  'terminal.out_of_paper': async (ctx: TriggerContext) => {
    const id = await terminal(ctx);
    await ctx.operator('the paper running out', 'POST', `/admin/v1/sandbox/terminals/${id}/actions`, {
      action: 'paper',
      paperOut: true,
    });
    ctx.step('its paper ran out');
  },
};
