import { ValidationError } from '../../../platform/http/errors.js';
import type { AchContext } from './ach-context.js';
import { type AchProcessorSettings, settingsProblems } from './ach-schedule.js';

export async function updateProcessorSettings(
  ctx: AchContext,
  processorId: string,
  changes: Partial<AchProcessorSettings>,
) {
  const current = await ctx.processorSettings(processorId);
  const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  const problems = settingsProblems(next);
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  // The cutoffs are what the payments configuration shows as the processor's time slots.
  const slots = [...next.sameDayCutoffs, ...next.standardCutoffs].sort().map((time) => ({
    hours: Number(time.slice(0, 2)),
    minutes: Number(time.slice(3, 5)),
    timezoneName: next.timeZone,
  }));
  await ctx.deps.merchants.updateProcessorSettings(processorId, 'ach', next, slots);
  return next;
}
