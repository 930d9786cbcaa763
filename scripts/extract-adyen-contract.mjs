#!/usr/bin/env node
// Reads Adyen's pinned OpenAPI documents (../shared/specs/adyen: CheckoutService-v71.json and Webhooks-v1.json, MIT
// licence, SHA-256 pinned below) and writes the facts the Adyen connector is tested against: the operations Tessera
// calls (method, path, request and answer schemas, whether they take an Idempotency-Key), the notifications it takes
// (each event code's request schema), every schema they reach, and the documents' own example payloads. Prose
// (descriptions, titles, vendor extensions) is left out. Two choices make the facts strict (docs/connectors.md):
//   - an object schema that does not say otherwise is closed (`additionalProperties: false`), so a field Tessera or
//     the fake invents fails validation;
//   - `PaymentRequest.paymentMethod` keeps only `CardDetails`, the one payment method Tessera sends.
//
//   node scripts/extract-adyen-contract.mjs [<dir>] > test/fakes/adyen/adyen-contract.facts.json
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const SOURCE = {
  repository: 'Adyen/adyen-openapi',
  commit: 'aa014f0cbdb58ff5c44a2ff9d5fe734642210aff',
  files: {
    'CheckoutService-v71.json': '9e426ae2bf007b148c393c5f163bbb0abe54959172b4d85676aedbd178b2b0b0',
    'Webhooks-v1.json': 'fee070579d18fcb2c4d69c71d13f744a5c121d669d8e15e0e5884bfd4974d9ab',
  },
};

/** The Checkout API calls the connector makes. */
const OPERATIONS = [
  'POST /payments',
  'POST /payments/{paymentPspReference}/captures',
  'POST /payments/{paymentPspReference}/cancels',
  'POST /payments/{paymentPspReference}/refunds',
  'POST /payments/{paymentPspReference}/reversals',
  'POST /payments/{paymentPspReference}/amountUpdates',
  'POST /cancels',
];

/** The notifications the connector handles (the event codes of docs/connectors.md). */
const WEBHOOKS = [
  'AUTHORISATION',
  'AUTHORISATION_ADJUSTMENT',
  'CAPTURE',
  'CAPTURE_FAILED',
  'CANCELLATION',
  'REFUND',
  'REFUND_FAILED',
  'TECHNICAL_CANCEL',
  'CANCEL_OR_REFUND',
  'CHARGEBACK',
];

const KEEP = new Set([
  'type',
  'format',
  '$ref',
  'additionalProperties',
  'properties',
  'enum',
  'items',
  'required',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'pattern',
  'allOf',
  'oneOf',
  'anyOf',
]);

const dir = process.argv[2] ?? path.resolve(import.meta.dirname, '../../shared/specs/adyen');

function load(file) {
  const bytes = readFileSync(path.join(dir, file));
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== SOURCE.files[file]) {
    console.error(`${file}: SHA-256 ${digest} is not the pinned ${SOURCE.files[file]}`);
    process.exit(1);
  }
  return JSON.parse(bytes.toString('utf8'));
}

/** A schema's structure and constraints, with `$ref`s into `#/<namespace>/<name>` and objects closed. */
function strip(schema, namespace) {
  if (Array.isArray(schema)) return schema.map((s) => strip(s, namespace));
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!KEEP.has(key)) continue;
    if (key === '$ref') out.$ref = `#/${namespace}/${value.split('/').pop()}`;
    else if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v, namespace)]));
    } else out[key] = typeof value === 'object' ? strip(value, namespace) : value;
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** The names of every schema `root` reaches. */
function reach(schemas, root, seen = new Set()) {
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.split('/').pop();
        if (!seen.has(name)) {
          seen.add(name);
          walk(schemas[name]);
        }
      } else if (!key.startsWith('x-')) walk(value);
    }
  };
  walk(root);
  return seen;
}

function examplesOf(media, doc) {
  const out = [];
  if (media?.example !== undefined) out.push(media.example);
  for (const named of Object.values(media?.examples ?? {})) {
    const example = named.$ref ? doc.components.examples[named.$ref.split('/').pop()] : named;
    if (example?.value !== undefined) out.push(example.value);
  }
  return out;
}

const checkout = load('CheckoutService-v71.json');
const webhooks = load('Webhooks-v1.json');

// The one narrowing: Tessera sends card details, so the payment method is CardDetails only.
const checkoutSchemas = structuredClone(checkout.components.schemas);
checkoutSchemas.PaymentRequest.properties.paymentMethod = { $ref: '#/components/schemas/CardDetails' };

const operations = {};
const checkoutNames = new Set();
for (const name of OPERATIONS) {
  const [method, route] = name.split(' ');
  const op = checkout.paths[route]?.[method.toLowerCase()];
  if (!op) throw new Error(`${name} is not in the Checkout API document`);
  const params = (op.parameters ?? []).map((p) =>
    p.$ref ? checkout.components.parameters[p.$ref.split('/').pop()] : p,
  );
  const request = op.requestBody.content['application/json'];
  reach(checkoutSchemas, request.schema, checkoutNames);
  const responses = {};
  for (const [code, answer] of Object.entries(op.responses)) {
    const media = answer.content?.['application/json'];
    if (media?.schema) reach(checkoutSchemas, media.schema, checkoutNames);
    responses[code] = media?.schema
      ? { schema: strip(media.schema, 'checkout'), examples: code.startsWith('2') ? examplesOf(media, checkout) : [] }
      : null;
  }
  operations[name] = {
    pathParameters: params.filter((p) => p.in === 'path').map((p) => p.name),
    idempotencyKey: params.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
    request: { schema: strip(request.schema, 'checkout'), examples: examplesOf(request, checkout) },
    responses,
  };
}

const notifications = {};
const webhookNames = new Set();
for (const code of WEBHOOKS) {
  const op = webhooks.webhooks[`/${code}`]?.post;
  if (!op) throw new Error(`${code} is not in the Webhooks document`);
  const media = op.requestBody.content['application/json'];
  reach(webhooks.components.schemas, media.schema, webhookNames);
  notifications[code] = {
    security: (op.security ?? []).flatMap((s) => Object.keys(s)),
    request: { schema: strip(media.schema, 'webhooks'), examples: examplesOf(media, webhooks) },
  };
}

const pick = (all, names) =>
  Object.fromEntries(
    [...names].sort().map((n) => {
      if (!all[n]) throw new Error(`schema ${n} is referenced but not defined`);
      return [n, strip(all[n], all === checkoutSchemas ? 'checkout' : 'webhooks')];
    }),
  );

process.stdout.write(
  `${JSON.stringify(
    {
      source: {
        ...SOURCE,
        checkout: { openapi: checkout.openapi, version: checkout.info.version, server: checkout.servers?.[0]?.url },
        webhooks: { openapi: webhooks.openapi, version: webhooks.info.version },
        narrowed: { 'PaymentRequest.paymentMethod': 'CardDetails' },
      },
      operations,
      notifications,
      checkout: pick(checkoutSchemas, checkoutNames),
      webhooks: pick(webhooks.components.schemas, webhookNames),
    },
    null,
    1,
  )}\n`,
);
