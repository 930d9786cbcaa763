#!/usr/bin/env node
// The `tessera` executable: runs the bundle built by `npm run build` (done by `npm install` and `npm start`).
// The bundle only defines `main`; this file calls it. A bundle that is missing, unreadable or cut short (no `main`)
// therefore stops here with a message and a non-zero exit instead of doing nothing and exiting 0.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/main.js', import.meta.url));

function fail(message) {
  process.stderr.write(`tessera: ${message}\n`);
  process.exit(1);
}

if (!existsSync(bundle)) fail(`${bundle} is missing; run \`npm run build\` first.`);

let entry;
try {
  entry = await import(pathToFileURL(bundle).href);
} catch (error) {
  fail(
    `cannot load ${bundle} (${error instanceof Error ? error.message : String(error)}); rebuild it with \`npm run build -- --force\`.`,
  );
}
if (typeof entry.main !== 'function') {
  fail(`${bundle} is incomplete (it defines no main); rebuild it with \`npm run build -- --force\`.`);
}
await entry.main(process.argv);
