// Reading the project's own sources for the structure tests (SQL ids, table ownership).
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Every file under `dir` whose name ends with `suffix`. */
export function sourceFiles(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full, suffix);
    return entry.name.endsWith(suffix) ? [full] : [];
  });
}

/**
 * The text of every string and template literal of a TypeScript file. A template hole is blanked (` ? `), or replaced
 * by what `hole` answers for its expression.
 */
export function stringLiterals(
  source: string,
  hole: (expression: string) => string | undefined = () => undefined,
): string[] {
  const found: string[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '/' && source[i + 1] === '/') {
      i = source.indexOf('\n', i);
      if (i < 0) break;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      i = source.indexOf('*/', i + 2) + 2;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      let text = '';
      let depth = 0;
      i++;
      while (i < source.length) {
        const d = source[i]!;
        if (d === '\\') {
          text += source.slice(i, i + 2);
          i += 2;
          continue;
        }
        if (c === '`' && d === '$' && source[i + 1] === '{') {
          depth = 1;
          i += 2;
          const start = i;
          while (i < source.length && depth > 0) {
            if (source[i] === '{') depth++;
            else if (source[i] === '}') depth--;
            i++;
          }
          text += hole(source.slice(start, i - 1)) ?? ' ? ';
          continue;
        }
        if (d === c) break;
        text += d;
        i++;
      }
      found.push(text);
    }
    i++;
  }
  return found;
}

/**
 * The SQL text of a file's string literals with the holes that name a constant of the same file filled in (`${SELECT}
 * WHERE ...` reads as the whole statement), and those that call one of `builders` (a function that writes a
 * condition) filled with what it writes; the constants' own literals, fragments of statements, are left out.
 */
export function sqlStatements(source: string, builders: Readonly<Record<string, string>> = {}): string[] {
  const constants = new Map<string, string>();
  // A hole that calls a known condition builder reads as what that builder writes; `${where.join(' AND ')}` as the
  // conditions the array `where` starts with.
  const fill = (expression: string) =>
    constants.get(expression.trim()) ??
    constants.get(/^\s*(\w+)\.join\(/.exec(expression)?.[1] ?? '') ??
    builders[/^\s*(\w+)\(/.exec(expression)?.[1] ?? ''];
  for (const match of source.matchAll(/\b(?:const|let)\s+(\w+)(?::\s*[\w[\]]+)?\s*=\s*\[/g)) {
    const start = match.index + match[0].length;
    const end = source.indexOf('];', start);
    if (end < 0) continue;
    const items = stringLiterals(source.slice(start, end), fill);
    if (items.length > 0) constants.set(match[1]!, items.join(' AND '));
  }
  for (const match of source.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*(\w+)\.join\(/g)) {
    const conditions = constants.get(match[2]!);
    if (conditions !== undefined) constants.set(match[1]!, conditions);
  }
  const declared = /\b(?:const|let)\s+(\w+)\s*=\s*(?=[`'"])/g;
  for (const match of source.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*(\w+)\(/g)) {
    const written = builders[match[2]!];
    if (written !== undefined) constants.set(match[1]!, written);
  }
  // Twice: a constant may be built from one declared before it.
  for (let pass = 0; pass < 2; pass++) {
    for (const match of source.matchAll(declared)) {
      const text = stringLiterals(source.slice(match.index + match[0].length), fill)[0];
      if (text !== undefined) constants.set(match[1]!, text);
    }
  }
  const fragments = new Set(constants.values());
  return stringLiterals(source, fill).filter((text) => !fragments.has(text));
}
