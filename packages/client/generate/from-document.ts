// The client's generated files from an OpenAPI document: the types (openapi-typescript) and the operations that
// honour an idempotency key (those documenting the `idempotency-key` header), which the client sends one to.
import openapiTS, { astToString } from 'openapi-typescript';

const BANNER = '// Generated from the Tessera OpenAPI document by `npm run client:generate`. Do not edit.\n';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Operation {
  parameters?: Array<{ in?: string; name?: string }>;
}

/** Path templates and methods (upper case) whose operation documents the idempotency-key header. */
export function idempotentOperations(doc: { paths?: Record<string, Partial<Record<string, Operation>>> }) {
  const found: Array<[method: string, path: string]> = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const parameters = item[method]?.parameters ?? [];
      if (parameters.some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key')) {
        found.push([method.toUpperCase(), path]);
      }
    }
  }
  return found.sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]));
}

/** The document without example values: they are documentation for people (`/docs`), not types. */
function withoutExamples(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutExamples);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'example' && key !== 'examples')
      .map(([key, inner]) => [key, withoutExamples(inner)]),
  );
}

/** The generated files by name (relative to the client's `src/generated/`), as they are committed. */
export async function generatedFiles(doc: object): Promise<Record<string, string>> {
  const source = withoutExamples(doc) as Parameters<typeof openapiTS>[0];
  const ast = await openapiTS(source, { alphabetize: true });
  const operations = idempotentOperations(doc as Parameters<typeof idempotentOperations>[0]);
  const list = operations.map(([method, path]) => `  [${JSON.stringify(method)}, ${JSON.stringify(path)}],`);
  return {
    'openapi.ts': `${BANNER}${astToString(ast)}`,
    'idempotent-operations.ts':
      `${BANNER}\n/** The operations that honour an \`idempotency-key\` header: [method, path template]. */\n` +
      `export const IDEMPOTENT_OPERATIONS: ReadonlyArray<readonly [string, string]> = [\n${list.join('\n')}\n];\n`,
  };
}
