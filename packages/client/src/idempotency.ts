import { IDEMPOTENT_OPERATIONS } from './generated/idempotent-operations.js';

/** `/v2/customers/{customerId}` as a pattern matching a concrete path. */
function pattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

const PATTERNS = IDEMPOTENT_OPERATIONS.map(([method, path]) => ({ method, re: pattern(path) }));

/** Whether the operation at `method` and concrete `path` honours an idempotency key. */
export function takesIdempotencyKey(method: string, path: string): boolean {
  const upper = method.toUpperCase();
  return PATTERNS.some((p) => p.method === upper && p.re.test(path));
}
