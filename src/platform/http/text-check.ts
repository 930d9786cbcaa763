/**
 * The check for unreadable text in a request (see `unreadableText` in validation.ts for the rules), planned once per
 * schema instead of on every request: the sale's profile spent 5% of the server's CPU walking the schema's unions
 * for every string and key of every body. A plan is kept per schema object (schemas are built once, at start-up);
 * nothing is kept per value or per key a client sends.
 */

/** Where in the value the problem is (a JSON pointer below the value checked) and what it is. */
export interface TextProblem {
  path: string;
  message: string;
}

type Json = Record<string, unknown>;

/** Marks a string schema as free text that may span lines (TAB, LF and CR allowed). */
export const MULTILINE = 'x-multiline';

// C0 and C1 control characters (Unicode category Cc, DEL included); free text keeps TAB, LF and CR.
const SINGLE_LINE_CONTROLS = /\p{Cc}/u;
const MULTILINE_CONTROLS = /(?![\t\n\r])\p{Cc}/u;
// Half of a UTF-16 surrogate pair: text that cannot be encoded as UTF-8 (PostgreSQL and jsonb refuse it).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const controls = (multiline: boolean | undefined) => (multiline ? MULTILINE_CONTROLS : SINGLE_LINE_CONTROLS);

/** Whether `text` holds a control character (TAB, LF and CR are allowed in multi-line text). */
export function hasControlCharacters(text: string, options: { multiline?: boolean } = {}): boolean {
  return controls(options.multiline).test(text);
}

const branches = (schema: unknown): Json[] => {
  const s = schema as Json | undefined;
  if (!s || typeof s !== 'object') return [];
  const union = (s.anyOf ?? s.oneOf ?? s.allOf) as Json[] | undefined;
  return union ? union.flatMap(branches) : [s];
};

/** A branch's say over an object's keys: its declared properties, else what any other key falls under. */
interface KeyRule {
  properties: Json | undefined;
  other: unknown;
  hasOther: boolean;
}

interface Plan {
  /** Under a schema that declares nothing, only broken surrogates are refused (the service owns the rest). */
  loose: boolean;
  multiline: boolean;
  items: unknown;
  keyRules: KeyRule[];
}

const LOOSE: Plan = { loose: true, multiline: false, items: undefined, keyRules: [] };
// A value no schema describes (an undeclared key's, an array's without `items`) is held to the strict rules.
const UNDESCRIBED: Plan = { loose: false, multiline: false, items: undefined, keyRules: [] };
const plans = new WeakMap<object, Plan>();

function planOf(schema: unknown): Plan {
  if (schema === undefined) return UNDESCRIBED;
  // `true`, `null`: a schema that constrains nothing.
  if (schema === null || typeof schema !== 'object') return LOOSE;
  let plan = plans.get(schema);
  if (!plan) {
    const all = branches(schema);
    const unconstrained = all.every((b) => !b.type && !b.properties && !b.items && !b.const && !b.enum);
    plan = unconstrained
      ? LOOSE
      : {
          loose: false,
          multiline: all.some((b) => b[MULTILINE] === true),
          items: all.find((b) => b.items)?.items,
          keyRules: all.map((b) => {
            const patterns = b.patternProperties as Json | undefined;
            const additional = b.additionalProperties;
            const other = patterns
              ? Object.values(patterns)[0]
              : additional && typeof additional === 'object'
                ? additional
                : undefined;
            return {
              properties: b.properties as Json | undefined,
              other,
              hasOther: Boolean(patterns) || other !== undefined,
            };
          }),
        };
    plans.set(schema, plan);
  }
  return plan;
}

/** The schema a key's value falls under: the first branch that declares the key or takes any other key. */
function keySchema(plan: Plan, key: string): unknown {
  for (const rule of plan.keyRules) {
    // Only the schema's own properties: a body key such as 'constructor' must not find Object's.
    if (rule.properties && Object.hasOwn(rule.properties, key)) return rule.properties[key];
    if (rule.hasOther) return rule.other;
  }
  return undefined;
}

const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function check(plan: Plan, value: unknown): TextProblem | undefined {
  if (typeof value === 'string') {
    if (!plan.loose && controls(plan.multiline).test(value)) {
      return { path: '', message: 'must not contain control characters' };
    }
    return LONE_SURROGATE.test(value) ? { path: '', message: 'must be valid Unicode text' } : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    const items = plan.loose ? LOOSE : planOf(plan.items);
    for (let i = 0; i < value.length; i++) {
      const problem = check(items, value[i]);
      if (problem) return { path: `/${i}${problem.path}`, message: problem.message };
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if ((!plan.loose && controls(false).test(key)) || LONE_SURROGATE.test(key)) {
      return { path: '', message: 'has a field name with control characters or invalid Unicode' };
    }
    const problem = check(plan.loose ? LOOSE : planOf(keySchema(plan, key)), (value as Json)[key]);
    if (problem) return { path: `/${escapeKey(key)}${problem.path}`, message: problem.message };
  }
  return undefined;
}

/** The first string in `value` (a field's text or an object's key) under `schema` that is not readable text. */
export function textProblem(schema: unknown, value: unknown): TextProblem | undefined {
  return check(planOf(schema), value);
}
