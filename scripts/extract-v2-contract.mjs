#!/usr/bin/env node
// Reads the vendor SDK's OpenAPI document (openapi/isv-api-v2.json of getflute/flute-sdk-typescript, brought here with
// the workplace's fetch tool) and writes the facts the contract tests check against: every operation's method, path,
// parameters, request and response schemas, and the example values, with all prose (descriptions, summaries, example
// names) left out. The document itself is not part of this repository (docs/decisions.md, "The v2 contract facts").
//
//   node scripts/extract-v2-contract.mjs <isv-api-v2.json> [<commit>] > test/contract/isv-api-v2.facts.json
import { readFileSync } from 'node:fs';

const [input, commit = null] = process.argv.slice(2);
if (!input) {
  console.error('usage: extract-v2-contract.mjs <isv-api-v2.json> [<commit>]');
  process.exit(2);
}
const doc = JSON.parse(readFileSync(input, 'utf8'));

// What a schema may keep: its structure and constraints. Anything else (description, title, example) is prose.
const KEEP = new Set([
  'type',
  'format',
  'nullable',
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
  'allOf',
  'oneOf',
  'anyOf',
  'default',
]);

/** Short, stable schema names: the document names generic pages after .NET types (`Contracts.Page`1[[...]]`). */
function shortName(name) {
  const generic = /^Contracts\.Page`1\[\[Arise\.[\w.]+\.(\w+), /.exec(name);
  return generic ? `PageOf${generic[1]}` : name;
}

function strip(schema) {
  if (Array.isArray(schema)) return schema.map(strip);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!KEEP.has(key)) continue;
    if (key === '$ref') out.$ref = `#/schemas/${shortName(value.split('/').pop())}`;
    else if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v)]));
    } else out[key] = typeof value === 'object' ? strip(value) : value;
  }
  return out;
}

function content(body) {
  if (!body?.content) return null;
  const [contentType, media] = Object.entries(body.content)[0];
  const examples = [];
  if (media.example !== undefined) examples.push(media.example);
  for (const named of Object.values(media.examples ?? {})) if (named.value !== undefined) examples.push(named.value);
  return { contentType, schema: media.schema ? strip(media.schema) : null, examples };
}

const operations = [];
for (const [path, item] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (!op || typeof op !== 'object' || !op.responses) continue;
    operations.push({
      method: method.toUpperCase(),
      path,
      parameters: (op.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required === true,
        schema: strip(p.schema),
      })),
      requestBody: content(op.requestBody),
      // Error answers keep their schema; their example texts are left out with the rest of the prose.
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([code, r]) => {
          const c = content(r);
          return [code, c && !code.startsWith('2') ? { ...c, examples: [] } : c];
        }),
      ),
    });
  }
}

const schemas = Object.fromEntries(
  Object.entries(doc.components?.schemas ?? {}).map(([name, s]) => [shortName(name), strip(s)]),
);

process.stdout.write(
  `${JSON.stringify(
    {
      source: {
        repository: 'getflute/flute-sdk-typescript',
        path: 'openapi/isv-api-v2.json',
        commit,
        openapi: doc.openapi,
        version: doc.info?.version ?? null,
      },
      operations,
      schemas,
    },
    null,
    1,
  )}\n`,
);
