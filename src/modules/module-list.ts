import type { AnyModule } from './manifest.js';

const code = (names: readonly string[] | undefined) =>
  names && names.length > 0 ? names.map((name) => `\`${name}\``).join(', ') : '—';

/**
 * The module list of docs/architecture.md, from the manifests (`npm run docs:modules` writes it; a test keeps it
 * current): each module in build order with what it owns, provides, needs, publishes and reads.
 */
export function moduleList(modules: readonly AnyModule[]): string {
  const rows = modules.map((m) =>
    [
      `\`${m.folder}\``,
      m.summary,
      code(m.tables),
      code(m.provides),
      code(m.needs),
      code([...(m.publishes ?? []), ...(m.reads ?? []).map((name) => `← ${name}`)]),
    ].join(' | '),
  );
  return [
    '| Module | What it is | Tables | Provides | Needs | Publishes, ← reads |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
    '',
  ].join('\n');
}
