// The module boundaries, checked over source text: which module owns each table (its manifest says so), and that
// every statement over a table — a read, a write, a change of its schema — comes from its owner, or reads a view
// another module publishes for it. test/unit/module-boundaries.test.ts runs it over the project and over fixtures.
import path from 'node:path';
import { stringLiterals } from './source-literals.js';

export interface BoundaryModule {
  /** Folder under `src/` ('modules/invoices', 'connectors', 'platform'). */
  folder: string;
  tables: readonly string[];
  /** Views it creates for other modules to read, and `*.reads.ts` files (paths under src/) they may import. */
  publishes?: readonly string[];
  /** Other modules' published views and read files it uses. */
  reads?: readonly string[];
}

export interface SourceFile {
  /** Path from the project root, with `/` ('src/modules/x/x.repo.ts'). */
  path: string;
  text: string;
}

export interface Allowances {
  /**
   * Files whose statements name a table at run time (a hole where the table goes), which this check cannot see,
   * with why that is sound.
   */
  dynamic?: Readonly<Record<string, string>>;
  /**
   * Migrations whose reads of another module's table are history: what they created was replaced by a later
   * migration that reads a published view instead, and an applied migration cannot change. Only reads.
   */
  history?: Readonly<Record<string, string>>;
}

const COMPOSITION = '(composition)';
const HOLE = '\u0000hole\u0000';

/** The statements a migration's SQL or a TypeScript file's literals hold, with holes marked. */
function sqlTexts(file: SourceFile): string[] {
  if (file.path.endsWith('.sql')) return [file.text.replace(/--[^\n]*/g, ' ')];
  return stringLiterals(file.text, () => HOLE);
}

interface Reference {
  kind: 'create' | 'change' | 'write' | 'read' | 'references' | 'dynamic';
  name: string;
}

/** Every table or view a statement names, with what it does to it. */
export function referencesOf(text: string): Reference[] {
  const found: Reference[] = [];
  const name = String.raw`(?:ONLY\s+)?("?[a-z_][a-z0-9_]*"?|\u0000hole\u0000)`;
  const patterns: Array<[RegExp, Reference['kind']]> = [
    [new RegExp(String.raw`\bCREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?${name}`, 'g'), 'create'],
    [new RegExp(String.raw`\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:MATERIALIZED\s+)?VIEW\s+${name}`, 'g'), 'create'],
    [new RegExp(String.raw`\b(?:ALTER|DROP)\s+(?:TABLE|VIEW)\s+(?:IF\s+EXISTS\s+)?${name}`, 'g'), 'change'],
    [new RegExp(String.raw`\bCREATE\s+(?:UNIQUE\s+)?INDEX\b[^;]*?\bON\s+${name}`, 'g'), 'change'],
    [new RegExp(String.raw`\bCREATE\s+(?:OR\s+REPLACE\s+)?TRIGGER\b[^;]*?\bON\s+${name}`, 'g'), 'change'],
    [new RegExp(String.raw`\bCOMMENT\s+ON\s+(?:TABLE|COLUMN)\s+${name}`, 'g'), 'change'],
    [new RegExp(String.raw`\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+${name}`, 'g'), 'write'],
    [new RegExp(String.raw`(?<!DELETE\s+)\b(?:FROM|JOIN)\s+${name}`, 'g'), 'read'],
    [new RegExp(String.raw`\bREFERENCES\s+${name}`, 'g'), 'references'],
  ];
  for (const [pattern, kind] of patterns) {
    for (const match of text.matchAll(pattern)) {
      const table = match[1]!;
      if (table === HOLE) found.push({ kind: 'dynamic', name: '' });
      else found.push({ kind, name: table.replaceAll('"', '').toLowerCase() });
    }
  }
  return found;
}

/** Relative module specifiers of a TypeScript file that load code (type-only imports load none). */
function runtimeImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s+['"](\.[^'"]+)['"]/gm)) {
    if (!match[2]) found.push(match[3]!);
  }
  for (const match of text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  return found;
}

export function boundaryOffenses(
  modules: readonly BoundaryModule[],
  files: readonly SourceFile[],
  allowances: Allowances = {},
): string[] {
  const dynamic = allowances.dynamic ?? {};
  const history = allowances.history ?? {};
  const offenses: string[] = [];
  const folders = [...modules].sort((a, b) => b.folder.length - a.folder.length);
  const moduleOf = (file: string) => folders.find((m) => file.startsWith(`src/${m.folder}/`))?.folder ?? COMPOSITION;
  const byFolder = new Map(modules.map((m) => [m.folder, m]));

  // Who owns what: the manifests' tables, and the views each module's migrations create.
  const owner = new Map<string, string>();
  for (const module of modules) {
    for (const table of module.tables) {
      if (owner.has(table)) offenses.push(`${table} is listed by ${owner.get(table)} and ${module.folder}`);
      owner.set(table, module.folder);
    }
  }
  // A partition is its parent's (`CREATE [UNLOGGED] TABLE x PARTITION OF t`: the month and day partitions,
  // docs/operations.md "Retention").
  for (const file of files.filter((f) => f.path.endsWith('.sql'))) {
    const partition =
      /\bCREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([a-z_][a-z0-9_]*)"?\s+PARTITION\s+OF\s+"?([a-z_][a-z0-9_]*)"?/gi;
    for (const match of file.text.matchAll(partition)) {
      const parent = owner.get(match[2]!.toLowerCase());
      if (parent && !owner.has(match[1]!.toLowerCase())) owner.set(match[1]!.toLowerCase(), parent);
    }
  }
  const created = new Map<string, string>();
  for (const file of files.filter((f) => f.path.endsWith('.sql'))) {
    for (const reference of referencesOf(sqlTexts(file)[0]!)) {
      if (reference.kind !== 'create') continue;
      created.set(reference.name, moduleOf(file.path));
      const isView = isViewName(file.text, reference.name);
      if (isView && !owner.has(reference.name)) owner.set(reference.name, moduleOf(file.path));
    }
  }
  for (const [table, folder] of owner) {
    if (!created.has(table)) offenses.push(`${folder} lists ${table}, which no migration creates`);
  }
  const published = new Map<string, string>();
  for (const module of modules) {
    for (const name of module.publishes ?? []) {
      published.set(name, module.folder);
      const exists = name.endsWith('.ts') ? files.some((f) => f.path === `src/${name}`) : owner.get(name);
      if (!exists) offenses.push(`${module.folder} publishes ${name}, which it does not have`);
      else if (!name.endsWith('.ts') && owner.get(name) !== module.folder) {
        offenses.push(`${module.folder} publishes ${name}, which is ${owner.get(name)}'s`);
      }
    }
  }

  const used = new Map<string, Set<string>>();
  const use = (folder: string, name: string) => {
    const set = used.get(folder) ?? new Set<string>();
    set.add(name);
    used.set(folder, set);
  };

  // Every statement over a table or view.
  for (const file of files) {
    const folder = moduleOf(file.path);
    const module = byFolder.get(folder);
    const isMigration = file.path.endsWith('.sql');
    for (const text of sqlTexts(file)) {
      for (const reference of referencesOf(text)) {
        if (reference.kind === 'dynamic') {
          if (!dynamic[file.path]) offenses.push(`${file.path} names a table at run time (a statement with a hole)`);
          continue;
        }
        const table = reference.name;
        const tableOwner = owner.get(table);
        if (reference.kind === 'references') continue; // a foreign key names another module's table: allowed
        if (tableOwner === undefined) {
          // Not a table or view of any module: a CTE, a function, a transition table, or a table no manifest
          // lists (which the migration's CREATE TABLE already reported).
          if (created.has(table) && created.get(table) === folder && reference.kind !== 'create') {
            offenses.push(`${file.path} uses ${table}, which the manifest of ${folder} does not list`);
          }
          if (reference.kind === 'create' && created.get(table) === folder && !isViewName(file.text, table)) {
            offenses.push(`${file.path} creates ${table}, which the manifest of ${folder} does not list`);
          }
          continue;
        }
        if (tableOwner === folder) continue;
        if (reference.kind === 'read' && history[file.path]) continue;
        if (reference.kind === 'read' && published.get(table) === tableOwner) {
          use(folder, table);
          if (!module?.reads?.includes(table)) {
            offenses.push(`${file.path} reads ${table} (published by ${tableOwner}) without declaring it in reads`);
          }
          continue;
        }
        const verb = {
          create: 'creates',
          change: isMigration ? 'changes' : 'changes the schema of',
          write: 'writes',
          read: 'reads',
        }[reference.kind];
        offenses.push(`${file.path} ${verb} ${table}, owned by ${tableOwner}`);
      }
    }
  }

  // A module's repositories (`*.repo.ts`) are its own: another module calls its services, or a read file it
  // publishes. The platform knows nothing of the modules.
  for (const file of files.filter((f) => f.path.endsWith('.ts'))) {
    const folder = moduleOf(file.path);
    for (const specifier of runtimeImports(file.text)) {
      const target = path.posix.join(path.posix.dirname(file.path), specifier).replace(/\.js$/, '.ts');
      const targetFolder = moduleOf(target);
      if (targetFolder === folder || targetFolder === COMPOSITION) continue;
      if (folder === 'platform') {
        offenses.push(`${file.path} (the platform) imports ${target} of ${targetFolder}`);
        continue;
      }
      const name = target.slice('src/'.length);
      if (published.get(name) === targetFolder) {
        use(folder, name);
        if (!byFolder.get(folder)?.reads?.includes(name)) {
          offenses.push(`${file.path} imports ${name} (published by ${targetFolder}) without declaring it in reads`);
        }
      } else if (target.endsWith('.repo.ts')) {
        offenses.push(`${file.path} imports ${target}, a repository of ${targetFolder}`);
      }
    }
  }

  for (const module of modules) {
    for (const name of module.reads ?? []) {
      if (!published.has(name)) offenses.push(`${module.folder} reads ${name}, which no module publishes`);
      else if (!used.get(module.folder)?.has(name)) offenses.push(`${module.folder} declares reads ${name} unused`);
    }
  }
  return [...new Set(offenses)].sort();
}

function isViewName(text: string, name: string): boolean {
  return new RegExp(String.raw`VIEW\s+${name}\b`).test(text);
}

/**
 * The groups of files that import each other at run time (type-only imports load nothing and do not count): a cycle
 * means one of them runs before what it imports has finished loading.
 */
export function importCycles(files: readonly SourceFile[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const file of files.filter((f) => f.path.endsWith('.ts'))) {
    const targets: string[] = [];
    for (const match of file.text.matchAll(
      /^\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*\bfrom\s+['"](\.[^'"]+)['"]/gm,
    )) {
      const names = /^\{([^}]*)\}$/.exec(match[2]!.trim())?.[1];
      const typesOnly = names?.split(',').every((name) => name.trim() === '' || name.trim().startsWith('type '));
      if (match[1] || typesOnly) continue;
      targets.push(path.posix.join(path.posix.dirname(file.path), match[3]!).replace(/\.js$/, '.ts'));
    }
    graph.set(file.path, targets);
  }
  // Tarjan's strongly connected components: every component of more than one file is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
