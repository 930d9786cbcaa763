import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The repository root: the nearest folder above this module holding package.json. Works the same from `src/` (tests
 * under tsx) and from the `dist/` bundle, so SQL migrations and static assets are found either way.
 */
export function projectRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot locate the project root (no package.json above this module)');
    dir = parent;
  }
  cached = dir;
  return dir;
}
