import { exchangesFiles } from '../../../connectors/catalog.js';
import type { AchContext } from './ach-context.js';
import { cutoff } from './cutoff.js';
import { connectionCutoff } from './exchange/connection-cutoff.js';

/**
 * A processor's cutoff window: its Scheduled entries into one NACHA file (the file id, or null for none). A
 * processor of a bank connection (nacha-sftp) cuts with its whole connection: every merchant's file of the window
 * goes out in one file to the bank, whose id this answers.
 */
export async function cutoffWindow(ctx: AchContext, processorId: string, window: Date): Promise<string | null> {
  const processor = await ctx.deps.merchants.processorWithSettings(processorId);
  if (processor?.method !== 'ach') return null;
  if (exchangesFiles(processor.connector)) return connectionCutoff(ctx, processorId, window);
  return cutoff(ctx, processor, window);
}
