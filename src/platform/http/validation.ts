import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { dictionary } from '../dictionary.js';
import type { FieldErrors } from './errors.js';
import { MULTILINE, textProblem } from './text-check.js';

export { hasControlCharacters, MULTILINE } from './text-check.js';

interface SchemaError {
  keyword: string;
  schemaPath?: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/**
 * One compiler for every part of a request. JSON bodies are checked exactly as sent: no coercion, and a field the
 * schema does not declare is an error that names it (Fastify's default would silently drop it). Query strings,
 * path parameters and headers arrive as text, so they are converted to the schema's types first.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const checker = Compile(schema);
  // Conversion walks the whole part (every header, building a pattern per property) on every request: for a part
  // whose every field is text it could change nothing, so it is left out.
  const convert = httpPart !== 'body' && !onlyText(schema);
  const mayBeAbsent = httpPart === 'body' && isOptionalBody(schema);
  return (input: unknown) => {
    // No body where the body is optional (Fastify hands a bodyless request's body over as null; a JSON `null` is
    // taken the same way): the handler sees undefined.
    if (mayBeAbsent && (input === undefined || input === null)) return { value: undefined };
    const value = convert ? Value.Convert(schema, input) : input;
    // biome-ignore lint/suspicious/noExplicitAny: Fastify wants its own error type; the handler reads ours back.
    if (!checker.Check(value)) return { error: [...checker.Errors(value)] as any };
    const unreadable = unreadableText(schema, value);
    // biome-ignore lint/suspicious/noExplicitAny: as above
    return unreadable ? { error: [unreadable] as any } : { value };
  };
};

/**
 * Whether every value the schema admits is a string (or an object of strings): Value.Convert then leaves any input as
 * it is (text stays text, and what is not text cannot be made so). Shapes not recognised here count as not text.
 */
export function onlyText(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.anyOf)) return s.anyOf.every(onlyText);
  if (Array.isArray(s.enum)) return s.enum.every((value) => typeof value === 'string');
  if (s.type === 'string') return true;
  if (s.type !== 'object') return false;
  const extra = s.additionalProperties;
  return (
    Object.values((s.properties ?? {}) as Record<string, unknown>).every(onlyText) &&
    Object.values((s.patternProperties ?? {}) as Record<string, unknown>).every(onlyText) &&
    (extra === undefined || typeof extra === 'boolean' || onlyText(extra))
  );
}

const compiled = new WeakMap<TSchema, ReturnType<typeof Compile>>();

/**
 * A value checked against a request schema as a JSON body is (no coercion), for what builds a body from elsewhere
 * (the dashboard's forms): the same rules as the API, as the error body's field errors, or undefined when it passes.
 */
export function schemaErrors(schema: TSchema, value: unknown): FieldErrors | undefined {
  let checker = compiled.get(schema);
  if (!checker) {
    checker = Compile(schema);
    compiled.set(schema, checker);
  }
  if (checker.Check(value)) {
    const unreadable = unreadableText(schema, value);
    return unreadable ? fieldErrorsFrom([unreadable], 'body') : undefined;
  }
  return fieldErrorsFrom([...checker.Errors(value)] as SchemaError[], 'body');
}

/** Marks a string schema as free text that may span lines (TAB, LF and CR allowed); see unreadableText. */
export function multiline<T extends TSchema>(schema: T): T {
  return { ...schema, [MULTILINE]: true };
}

/**
 * The first string in `value` (a field's text or an object's key) that is not readable text: a NUL or another
 * control character, or a lone surrogate. No field of this API needs one, a NUL cannot even be stored, and a control
 * character in a name or a reference would end up in receipts, logs and bank files. Strings are single-line unless
 * their schema is marked MULTILINE. Under a schema that declares nothing (Type.Unknown, such as session metadata)
 * only broken surrogates are refused here: the service owns that value's rules (metadata strips control characters,
 * NUL included, as documented).
 */
function unreadableText(schema: unknown, value: unknown): SchemaError | undefined {
  const problem = textProblem(schema, value);
  return problem && textError(problem.path, problem.message);
}

function textError(instancePath: string, message: string): SchemaError {
  return { keyword: 'text', instancePath, params: {}, message };
}

/** Turns schema errors into the error body's `errors` object: field path → human messages. */
export function fieldErrorsFrom(errors: SchemaError[], context: string | undefined): FieldErrors {
  const byPath = new Map<string, SchemaError[]>();
  for (const error of errors) {
    const list = byPath.get(error.instancePath) ?? [];
    list.push(error);
    byPath.set(error.instancePath, list);
  }

  const result: FieldErrors = dictionary();
  const add = (field: string, message: string) => {
    const key = field === '' && context && context !== 'body' ? context : field;
    const list = result[key] ?? [];
    if (!list.includes(message)) list.push(message);
    result[key] = list;
  };
  const unmapped = (field: string, name: string) =>
    add(field, `The JSON property '${name}' could not be mapped to any field of this request.`);

  for (const [instancePath, list] of byPath) {
    const field = toFieldName(instancePath);
    const isUnion = list.some((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
    const rest = list.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
    if (isUnion) {
      // A union reports one error per branch; say what the value may be instead of listing every branch's failure.
      const consts = rest.filter((e) => e.keyword === 'const').map((e) => JSON.stringify(e.params.allowedValue));
      const types = rest.filter((e) => e.keyword === 'type').map((e) => String(e.params.type));
      const specific = rest.filter((e) => e.keyword !== 'type' && e.keyword !== 'const');
      if (consts.length > 0) add(field, `'${label(field)}' must be one of ${consts.join(', ')}.`);
      else if (specific.length > 0) for (const e of specific) add(field, describe(field, e));
      else if (types.length > 0) add(field, `'${label(field)}' must be of type ${[...new Set(types)].join(' or ')}.`);
      else add(field, `'${label(field)}' is not valid.`);
      continue;
    }
    for (const error of rest) {
      if (error.keyword === 'boolean' && error.schemaPath?.endsWith('additionalProperties')) {
        // additionalProperties:false reports each extra field as a failed `false` sub-schema at the field itself.
        unmapped(field, instancePath.split('/').at(-1) ?? field);
      } else if (error.keyword === 'required') {
        for (const name of (error.params.requiredProperties as string[] | undefined) ?? []) {
          const child = joinField(field, name);
          add(child, `The ${label(child)} field is required.`);
        }
      } else if (error.keyword === 'additionalProperties') {
        for (const name of (error.params.additionalProperties as string[] | undefined) ?? []) {
          unmapped(joinField(field, name), name);
        }
      } else {
        add(field, describe(field, error));
      }
    }
  }
  return result;
}

function describe(field: string, error: SchemaError): string {
  const name = `'${label(field)}'`;
  const p = error.params;
  switch (error.keyword) {
    case 'type':
      return `${name} must be of type ${String(p.type)}.`;
    case 'minLength':
      return Number(p.limit ?? p.minLength) <= 1
        ? `${name} must not be empty.`
        : `${name} must be at least ${String(p.limit ?? p.minLength)} characters.`;
    case 'maxLength':
      return `${name} must be at most ${String(p.limit ?? p.maxLength)} characters.`;
    case 'minimum':
      return `${name} must be greater than or equal to ${String(p.limit ?? p.minimum)}.`;
    case 'maximum':
      return `${name} must be less than or equal to ${String(p.limit ?? p.maximum)}.`;
    case 'exclusiveMinimum':
      return `${name} must be greater than ${String(p.limit ?? p.exclusiveMinimum)}.`;
    case 'exclusiveMaximum':
      return `${name} must be less than ${String(p.limit ?? p.exclusiveMaximum)}.`;
    case 'format':
      return p.format === 'uuid'
        ? `${name} is not a valid identifier.`
        : `${name} must be a valid ${String(p.format)}.`;
    case 'enum':
      return `${name} must be one of ${(p.allowedValues as unknown[] | undefined)?.map((v) => JSON.stringify(v)).join(', ') ?? 'the allowed values'}.`;
    case 'const':
      return `${name} must be ${JSON.stringify(p.allowedValue)}.`;
    case 'pattern':
      return `${name} is not in the correct format.`;
    case 'minItems':
      return `${name} must contain at least ${String(p.limit ?? p.minItems)} items.`;
    case 'maxItems':
      return `${name} must contain at most ${String(p.limit ?? p.maxItems)} items.`;
    case 'minProperties':
      return `${name} must not be empty.`;
    case 'maxProperties':
      return `${name} has too many entries.`;
    case '~refine':
      return error.message.startsWith("'") ? error.message : `${name} ${error.message}`;
    default:
      return `${name} ${error.message}.`;
  }
}

function toFieldName(instancePath: string): string {
  if (instancePath === '') return '';
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function joinField(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}

function label(field: string): string {
  return field === '' ? 'body' : field;
}

/**
 * Whether a route's body schema is optional (`Type.Optional(...)`): the request may then come without a body (what
 * clients send when every field is optional), and the OpenAPI document says `requestBody.required: false`.
 */
export function isOptionalBody(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as { '~optional'?: unknown })['~optional'] === true;
}
