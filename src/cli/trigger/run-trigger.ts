// `tessera trigger <event>`: real sandbox objects, made through the public API, whose scripted outcome causes the
// event; the server then records and delivers it as it would any other (webhooks, `tessera listen`).
import type { TesseraClient } from '@tessera/client';
import { EVENT_TYPES, eventTypeNamed } from '../../modules/events/event-catalog.js';
import { commerceRecipes } from './commerce-recipes.js';
import { paymentRecipes } from './payment-recipes.js';
import { terminalRecipes } from './terminal-recipes.js';
import { type Made, TriggerContext, TriggerError, type TriggerOptions } from './trigger-context.js';

type Recipe = (ctx: TriggerContext) => Promise<void>;

export const RECIPES: Readonly<Record<string, Recipe>> = { ...paymentRecipes, ...commerceRecipes, ...terminalRecipes };

/** Catalog events no merchant action causes, and why. */
export const NOT_TRIGGERABLE: Readonly<Record<string, string>> = {
  'merchant.created': "a partner's event: merchants are created by the operator or a partner, not by a merchant",
  'transaction.card.charged_back':
    "a card processor's dispute (Adyen's CHARGEBACK notification): the sandbox's simulated card network has none",
  'ach.file.delivery_failed':
    "a bank connection's file that could not be delivered (nacha-sftp): the sandbox's bank takes every file",
};

/** Recipes that move the sandbox clock or use the operator's controls (they need --admin-token). */
export const NEEDS_OPERATOR: ReadonlySet<string> = new Set([
  'transaction.ach.in_progress',
  'transaction.ach.cleared',
  'transaction.ach.charged_back',
  'transaction.ach.failed',
  'transaction.ach.refunded',
  'terminal.added',
  'terminal.deactivated',
  'terminal.out_of_paper',
]);

export interface TriggerRequest extends TriggerOptions {
  event: string;
  count: number;
  client: TesseraClient;
  admin: { baseUrl: string; token: string } | null;
  progress: (line: string) => void;
}

export interface TriggerReport {
  event: string;
  count: number;
  made: Made[];
}

/** The catalog's name for `name` (either set's), when a recipe causes it. */
export function recipeName(name: string): string {
  const entry = eventTypeNamed(name);
  if (!entry) throw new TriggerError(`unknown event type "${name}" (tessera trigger --list shows them)`);
  const reason = NOT_TRIGGERABLE[entry.eventType];
  if (reason) throw new TriggerError(`${entry.eventType} cannot be triggered: ${reason}`);
  return entry.eventType;
}

/** Every event type of the catalog with how it is triggered. */
export function triggerList(): Array<{
  event: string;
  aliases: readonly string[];
  triggerable: boolean;
  note: string;
}> {
  return EVENT_TYPES.map((entry) => ({
    event: entry.eventType,
    aliases: entry.aliases,
    triggerable: entry.eventType in RECIPES,
    note:
      NOT_TRIGGERABLE[entry.eventType] ??
      (NEEDS_OPERATOR.has(entry.eventType) ? 'needs --admin-token (the sandbox clock or terminals)' : ''),
  }));
}

/** Refuses anything but a sandbox: the server says which it is (an older one that does not say is refused too). */
export async function assertSandbox(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/pay-int-api/ping`, { signal: AbortSignal.timeout(15_000) });
  const body = (await res.json().catch(() => ({}))) as { environment?: string };
  if (body.environment !== 'sandbox') {
    throw new TriggerError(
      `${baseUrl} is ${body.environment ? `a ${body.environment} server` : 'not known to be a sandbox'}: ` +
        'trigger makes real payments and only runs against a sandbox',
    );
  }
}

export async function runTrigger(request: TriggerRequest): Promise<TriggerReport> {
  const event = recipeName(request.event);
  const recipe = RECIPES[event]!;
  await assertSandbox(request.client.baseUrl);
  const made: Made[] = [];
  for (let i = 1; i <= request.count; i++) {
    request.progress(`[${i}/${request.count}] ${event}`);
    const ctx = new TriggerContext(request.client, request, request.admin, request.progress);
    await recipe(ctx);
    made.push(...ctx.made);
  }
  return { event, count: request.count, made };
}
