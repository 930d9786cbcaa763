// Adyen's published contract, as facts extracted from its pinned OpenAPI documents (scripts/extract-adyen-contract.mjs):
// the fake validates every request Tessera sends it and every answer and notification it gives against these schemas,
// so neither Tessera nor the fake can invent a field, send a wrong type or leave out a required one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { dictionary } from '../../../src/platform/dictionary.js';

interface Media {
  schema: Record<string, unknown>;
  examples: unknown[];
}

export interface AdyenOperation {
  pathParameters: string[];
  idempotencyKey: boolean;
  request: Media;
  responses: Record<string, Media | null>;
}

interface Facts {
  source: { repository: string; commit: string; files: Record<string, string> };
  operations: Record<string, AdyenOperation>;
  notifications: Record<string, { security: string[]; request: Media }>;
  checkout: Record<string, unknown>;
  webhooks: Record<string, unknown>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const ADYEN_FACTS: Facts = JSON.parse(readFileSync(path.join(here, 'adyen-contract.facts.json'), 'utf8'));

/** The operations the facts know, as `METHOD /path/{param}`. */
export type OperationName = keyof Facts['operations'] & string;

const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, validateFormats: false });
const BASE = 'https://facts.invalid/adyen';
const defs: Record<string, unknown> = dictionary();
for (const namespace of ['checkout', 'webhooks'] as const) {
  for (const [name, schema] of Object.entries(ADYEN_FACTS[namespace])) defs[`${namespace}.${name}`] = rebase(schema);
}
ajv.addSchema({ $id: BASE, $defs: defs });
const compiled = new Map<string, ValidateFunction>();

function validator(key: string, schema: Record<string, unknown>): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile({ $id: `${BASE}/${compiled.size}`, ...rebase(schema) });
    compiled.set(key, validate);
  }
  return validate;
}

/** The facts' `#/checkout/X` references, as references into the one document of every schema (`$defs`). */
function rebase(schema: unknown): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(schema).replace(/"\$ref":"#\/(checkout|webhooks)\/([^"]+)"/g, `"$ref":"${BASE}#/$defs/$1.$2"`),
  );
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
    return `${e.instancePath || '/'} ${e.message ?? e.keyword}${extra}`;
  });
}

export function operation(name: string): AdyenOperation {
  const op = ADYEN_FACTS.operations[name];
  if (!op) throw new Error(`Adyen's contract has no operation ${name}`);
  return op;
}

/** What is wrong with a request body for `name` (an empty list: nothing). */
export function requestErrors(name: string, body: unknown): string[] {
  const validate = validator(`${name} request`, operation(name).request.schema);
  return validate(body) ? [] : describe(validate.errors);
}

/** What is wrong with an answer of `status` to `name`: a status the document does not list is wrong too. */
export function responseErrors(name: string, status: number, body: unknown): string[] {
  const media = operation(name).responses[String(status)];
  if (media === undefined) return [`status ${status} is not an answer of ${name}`];
  if (media === null) return body === undefined || body === '' ? [] : [`${name} ${status} has no body`];
  const validate = validator(`${name} ${status}`, media.schema);
  return validate(body) ? [] : describe(validate.errors);
}

/** What is wrong with a notification message whose items carry `eventCode`. */
export function notificationErrors(eventCode: string, body: unknown): string[] {
  const facts = ADYEN_FACTS.notifications[eventCode];
  if (!facts) return [`${eventCode} is not a notification the contract covers`];
  const validate = validator(`notification ${eventCode}`, facts.request.schema);
  return validate(body) ? [] : describe(validate.errors);
}
