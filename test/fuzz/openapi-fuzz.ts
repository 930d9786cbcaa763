// Malformed requests generated from the OpenAPI document, so a new route is fuzzed without being listed: every
// operation gets its documented example (or a value built from its schema) and, one change at a time, wrong types,
// missing and unknown fields, huge and negative numbers, NUL and other control characters, long strings, deep
// nesting, invalid JSON, a wrong content type and bad path ids. Deterministic for a seed.

import { dictionary } from '../../src/platform/dictionary.js';

export interface FuzzRequest {
  operation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What was changed, for the failure message. */
  change: string;
  /** The body was left out of an operation whose body is optional: a 400 about the body is a failure too. */
  bodyMayBeAbsent?: boolean;
  /** The required fields of the error bodies the operation documents, by status. */
  errorFields?: Record<string, string[]>;
}

export interface Operation {
  method: string;
  path: string;
  op: any;
}

export function operations(doc: any): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) found.push({ method: method.toUpperCase(), path, op });
  }
  return found;
}

const NUL = '\u0000';
const HUGE_NUMBERS = [1e20, -1e20, Number('99999999999999999999'), -1, 2 ** 31, 2 ** 63, 1.5e300, 0.000001];
const BAD_STRINGS = [
  NUL,
  `a${NUL}b`,
  'a\u0001b\u001b[31m',
  '\u007f\u0085',
  '\ud800',
  'x'.repeat(300),
  'x'.repeat(100_000),
  '',
  ' ',
];
const QUERY_VALUES = [
  '1e20',
  '99999999999999999999',
  '-99999999999999999999',
  '-1',
  '1.5',
  'NaN',
  'Infinity',
  '0x10',
  '',
  '%00',
  'a%00b',
  '%01%1b',
  '%7f',
  '%ff%fe',
  'true',
  '[]',
  '{}',
  `${'z'.repeat(2000)}`,
];
/**
 * Names that a plain object already answers through its prototype: as a body field or a query parameter they must be
 * refused (or ignored) like any unknown name, never reach a lookup that finds Object's method instead of nothing.
 */
export const PROTOTYPE_NAMES = [
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  '__proto__',
];
const PATH_IDS = [
  '%00',
  'a%00b',
  '%01',
  'not-an-id',
  '00000000-0000-0000-0000-000000000000',
  '%2e%2e',
  'x'.repeat(300),
  '1e20',
  '-1',
  '%ff',
];

/** A value the schema accepts, as far as a sketch can tell (the operation's example is preferred where there is one). */
export function sketch(schema: any, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return sketch(variants.find((v: any) => v.type !== 'null') ?? variants[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = dictionary();
      for (const name of schema.required ?? []) value[name] = sketch(schema.properties?.[name], depth + 1);
      return value;
    }
    case 'array':
      return schema.minItems ? [sketch(schema.items, depth + 1)] : [];
    case 'integer':
      return schema.minimum ?? 1;
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      return schema.format === 'uuid' ? '00000000-0000-4000-8000-000000000000' : 'a'.repeat(schema.minLength ?? 1);
    default:
      return null;
  }
}

/** Port 9 (discard) on loopback: nothing listens, so a webhook ping fails at once without leaving the machine. */
export const LOOPBACK_URL = 'http://127.0.0.1:9/fuzz';

function bodyExample(op: any): unknown {
  const media = op.requestBody?.content?.['application/json'];
  if (!media) return undefined;
  const example =
    media.example !== undefined
      ? media.example
      : media.examples
        ? Object.values<any>(media.examples)[0]?.value
        : sketch(media.schema);
  return localUrls(example);
}

/** The examples' URLs (webhook endpoints, return URLs) point at loopback instead: no name lookups, no traffic out. */
function localUrls(value: unknown): unknown {
  if (typeof value === 'string') return /^https?:\/\//i.test(value) ? LOOPBACK_URL : value;
  if (Array.isArray(value)) return value.map(localUrls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, localUrls(v)]));
  }
  return value;
}

/** Every leaf path of a JSON value: ['a'], ['b', 0, 'c'], ... */
function leaves(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.length ? value.flatMap((v, i) => leaves(v, [...at, i])) : [at];
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length ? entries.flatMap(([k, v]) => leaves(v, [...at, k])) : [at];
  }
  return [at];
}

function withValue(value: unknown, path: Array<string | number>, replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  const [head, ...rest] = path;
  if (rest.length === 0) {
    if (remove) {
      if (Array.isArray(copy)) copy.splice(head as number, 1);
      else delete copy[head!];
    } else copy[head!] = replacement;
    return copy;
  }
  copy[head!] = withValue(copy[head!], rest, replacement, remove);
  return copy;
}

function deepNesting(levels: number): string {
  return `{"nested":${'['.repeat(levels)}1${']'.repeat(levels)}}`;
}

/** A JSON value nested `levels` deep, alternating objects and arrays. */
function deepValue(levels: number): string {
  return `${'{"a":['.repeat(levels)}1${']}'.repeat(levels)}`;
}

const DEEP = '\u0000deep\u0000';

/** The JSON text of `value`, with `{"<name>": 1}` added (as text: `__proto__` cannot be set as an own key). */
function withExtraKey(value: unknown, path: Array<string | number>, name: string): string {
  const marker = '\u0000extra\u0000';
  const text = JSON.stringify(withValue(value, [...path, marker], 1));
  return text.replace(JSON.stringify(marker), JSON.stringify(name));
}

/** Every path of an object (not an array) inside a JSON value, the value itself first. */
function objectPaths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...at, i]));
  if (value && typeof value === 'object') {
    return [at, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...at, k]))];
  }
  return [];
}

/**
 * The requests for one operation. `ids` holds real ids by path parameter name (a customer, a transaction, ...), so
 * that body and query changes reach past the 404 of an unknown id.
 */
export function requestsFor(
  operation: Operation,
  rand: () => number,
  ids: Record<string, string>,
  token: string | undefined,
): FuzzRequest[] {
  const { method, path, op } = operation;
  const name = `${method} ${path}`;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const params: any[] = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const fill = (overrides: Record<string, string> = {}) =>
    path.replace(
      /\{(\w+)\}/g,
      (_, param: string) => overrides[param] ?? ids[param] ?? '00000000-0000-4000-8000-000000000000',
    );
  const validQuery = () => {
    const query = new URLSearchParams();
    for (const p of queryParams.filter((q) => q.required)) query.set(p.name, String(sketch(p.schema)));
    return query;
  };
  const url = (pathPart: string, query = validQuery()) => {
    const text = query.toString();
    return text ? `${pathPart}?${text}` : pathPart;
  };
  const out: FuzzRequest[] = [];
  const errorFields = Object.fromEntries(
    Object.entries<any>(op.responses ?? {}).map(([status, response]) => [
      status,
      response.content?.['application/json']?.schema?.required ?? [],
    ]),
  );
  const body = bodyExample(op);
  const json = (payload: unknown, change: string, contentType = 'application/json') =>
    out.push({
      operation: name,
      method,
      url: url(fill()),
      headers: { ...auth, 'content-type': contentType },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      change,
    });

  // Path ids.
  for (const param of pathParams) {
    for (const bad of PATH_IDS) {
      out.push({
        operation: name,
        method,
        url: url(fill({ [param.name]: bad })),
        headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
        change: `path ${param.name}=${bad.slice(0, 20)}`,
      });
    }
  }

  // Query parameters: every one gets a few hostile values (numbers, NUL, control bytes, long text).
  for (const param of queryParams) {
    const values = [...QUERY_VALUES].sort(() => rand() - 0.5).slice(0, 6);
    for (const value of values) {
      const query = validQuery();
      query.delete(param.name);
      const text = `${query.toString() ? `${query.toString()}&` : ''}${encodeURIComponent(param.name)}=${value}`;
      out.push({
        operation: name,
        method,
        url: `${fill()}?${text}`,
        headers: auth,
        change: `query ${param.name}=${value.slice(0, 20)}`,
      });
    }
  }
  // Unknown and repeated query parameters, and names a plain object's prototype answers.
  out.push({
    operation: name,
    method,
    url: `${fill()}?unknownParam=1&page=1&page=2`,
    headers: auth,
    change: 'query extra',
  });
  const protoQuery = validQuery();
  for (const key of [pick(PROTOTYPE_NAMES), pick(PROTOTYPE_NAMES), '__proto__']) protoQuery.append(key, '1');
  out.push({ operation: name, method, url: url(fill(), protoQuery), headers: auth, change: 'query prototype names' });

  if (body === undefined) {
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      json('{"unexpected": true}', 'body where none is expected');
      json(`{"${pick(PROTOTYPE_NAMES)}": 1}`, 'prototype name where no body is expected');
    }
    for (const request of out) request.errorFields = errorFields;
    return out;
  }

  // An optional body left out, as clients send it when they have nothing to say: no content type, no bytes.
  if (op.requestBody?.required === false) {
    out.push({
      operation: name,
      method,
      url: url(fill()),
      headers: auth,
      change: 'no body (optional)',
      bodyMayBeAbsent: true,
    });
  }

  // Whole-body changes.
  json('{"amount": 1,', 'invalid JSON');
  json('', 'empty body');
  json('null', 'null body');
  json('[]', 'array body');
  json('"text"', 'string body');
  json('12', 'number body');
  json(JSON.stringify(body), 'wrong content type', 'text/plain');
  json(JSON.stringify(body), 'xml content type', 'application/xml');
  json(deepNesting(5000), 'deep nesting');
  json(`{"a":"${'x'.repeat(1024 * 1024)}"}`, 'over 1 MB');
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    json({ ...body, unknownField: 1 }, 'unknown field');
    json({ ...body, [`k${NUL}`]: 1 }, 'NUL in a field name');
    for (const required of op.requestBody.content['application/json'].schema?.required ?? []) {
      json(withValue(body, [required], undefined, true), `missing ${required}`);
    }
    // Each object of the example (the body and every nested one) gets a name its prototype answers.
    for (const at of objectPaths(body)) {
      const key = pick(PROTOTYPE_NAMES);
      json(withExtraKey(body, at, key), `prototype name ${key} at ${at.join('.') || 'body'}`);
    }
  }

  // Leaf changes: each field of the example, one hostile value each (and a few more for strings and numbers).
  for (const leaf of leaves(body)) {
    if (leaf.length === 0) continue;
    const field = leaf.join('.');
    const candidates: unknown[] = [
      pick(HUGE_NUMBERS),
      pick(BAD_STRINGS),
      pick([true, null, [], {}, [1, 2], { a: 1 }]),
      pick(BAD_STRINGS),
      pick(HUGE_NUMBERS),
    ];
    for (const value of candidates)
      json(withValue(body, leaf, value), `${field}=${JSON.stringify(value).slice(0, 30)}`);
    // A value nested thousands of levels deep where the example has a leaf (free-form fields such as metadata).
    json(JSON.stringify(withValue(body, leaf, DEEP)).replace(JSON.stringify(DEEP), deepValue(3000)), `${field} deep`);
  }
  for (const request of out) request.errorFields = errorFields;
  return out;
}
