#!/usr/bin/env node
// The `tessera` executable: runs the bundle built by `npm run build` (done by `npm install` and `npm start`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('tessera: dist/main.js is missing; run `npm run build` first.\n');
  process.exit(1);
}
await import(bundle);
