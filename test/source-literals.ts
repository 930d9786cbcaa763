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

/** The text of every string and template literal of a TypeScript file (template holes blanked). */
export function stringLiterals(source: string): string[] {
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
          while (i < source.length && depth > 0) {
            if (source[i] === '{') depth++;
            else if (source[i] === '}') depth--;
            i++;
          }
          text += ' ? ';
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
