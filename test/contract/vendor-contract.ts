// The vendor SDK's version 2 contract, as facts extracted from its OpenAPI document (scripts/extract-v2-contract.mjs;
// docs/decisions.md): operations, schemas and example values. Validates answers against the document's schemas.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { dictionary } from '../../src/platform/dictionary.js';

export interface ContractMedia {
  contentType: string;
  schema: Record<string, unknown> | null;
  examples: unknown[];
}

export interface ContractOperation {
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; required: boolean; schema: Record<string, unknown> }>;
  requestBody: ContractMedia | null;
  responses: Record<string, ContractMedia | null>;
}

interface Facts {
  source: { repository: string; path: string; commit: string | null; openapi: string };
  operations: ContractOperation[];
  schemas: Record<string, Record<string, unknown>>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const FACTS: Facts = JSON.parse(readFileSync(path.join(here, 'isv-api-v2.facts.json'), 'utf8'));

export const operationName = (op: { method: string; path: string }) => `${op.method} ${op.path}`;

/**
 * OpenAPI 3.0 to JSON Schema: `nullable` becomes a null alternative. A property that is a `$ref` may also be null: the
 * document's generator cannot mark a referenced object or enum nullable (3.0 ignores siblings of `$ref`), and its
 * own examples send null there (`"ach": null`, `"cardTokenType": null`). `open` drops `additionalProperties: false`,
 * for answers that also carry our specification's names (docs/api-v2.md lists where).
 */
function toJsonSchema(schema: unknown, open: boolean, asProperty = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, open));
  if (schema === null || typeof schema !== 'object') return schema;
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    const ref = { $ref: `vendor#/definitions/${s.$ref.split('/').pop()}` };
    return asProperty ? { anyOf: [ref, { type: 'null' }] } : ref;
  }
  const out: Record<string, unknown> = dictionary();
  for (const [key, value] of Object.entries(s)) {
    if (key === 'nullable') continue;
    if (key === 'additionalProperties' && open) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toJsonSchema(v, open, true)]),
      );
    } else if (key === 'items') out.items = toJsonSchema(value, open, true);
    else out[key] = typeof value === 'object' ? toJsonSchema(value, open) : value;
  }
  if (s.nullable === true) {
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    return typeof out.type === 'string' ? { ...out, type: [out.type, 'null'] } : { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

function compiler(open: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  // .NET's numeric formats: the type already says what matters.
  for (const format of ['int32', 'int64', 'double', 'float', 'byte']) ajv.addFormat(format, true);
  ajv.addSchema(
    {
      $id: 'vendor',
      definitions: Object.fromEntries(Object.entries(FACTS.schemas).map(([k, v]) => [k, toJsonSchema(v, open)])),
    },
    'vendor',
  );
  return ajv;
}

const compilers = { closed: compiler(false), open: compiler(true) };
const cache = new Map<string, ValidateFunction>();

/** The schema errors of `value` against the document's schema (empty when it conforms). */
export function schemaErrors(schema: Record<string, unknown>, value: unknown, options: { open?: boolean } = {}) {
  const key = `${options.open ? 'open' : 'closed'}:${JSON.stringify(schema)}`;
  let validate = cache.get(key);
  if (!validate) {
    const ajv = options.open ? compilers.open : compilers.closed;
    validate = ajv.compile(toJsonSchema(schema, options.open ?? false) as object);
    cache.set(key, validate);
  }
  return validate(value) ? [] : (validate.errors ?? []).map(describe);
}

function describe(e: ErrorObject): string {
  return `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`;
}

export function operation(method: string, pathTemplate: string): ContractOperation {
  const found = FACTS.operations.find((o) => o.method === method && o.path === pathTemplate);
  if (!found) throw new Error(`no operation ${method} ${pathTemplate} in the contract facts`);
  return found;
}
