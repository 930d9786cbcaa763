// Bundles src/ into dist/main.js (dependencies stay external). Type-checking is a separate step (`npm run typecheck`).
//
// Several `npm start` processes may run this at once from one checkout (every node's `prestart`), so:
// - a bundle that is current is left alone: dist/main.stamp.json records a hash of every input esbuild read, of this
//   script and of esbuild's version, and of the bundle written; when all still match, nothing is built;
// - a build never writes where a reader looks: each output goes to a file of this process's own and is renamed over
//   the old one (atomic on one file system), the source map first and the bundle after it, the stamp last.
// A reader therefore sees the old bundle or the new one, never half of one. `--force` builds regardless.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const outfile = path.join(dist, 'main.js');
const stampFile = path.join(dist, 'main.stamp.json');

const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const hashOf = (file) => (existsSync(file) ? sha256(readFileSync(file)) : null);

/** What the bundle is built from besides its inputs: the bundler and this script. */
function toolchain() {
  return { esbuild: esbuildVersion, script: hashOf(fileURLToPath(import.meta.url)) };
}

function isCurrent() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return false;
  }
  const tools = toolchain();
  if (stamp.esbuild !== tools.esbuild || stamp.script !== tools.script) return false;
  if (hashOf(outfile) !== stamp.bundle) return false;
  if (!stamp.outputs || Object.entries(stamp.outputs).some(([file, hash]) => hashOf(path.join(root, file)) !== hash))
    return false;
  return Object.entries(stamp.inputs).every(([file, hash]) => hashOf(path.join(root, file)) === hash);
}

if (!process.argv.includes('--force') && isCurrent()) process.exit(0);

/**
 * Every dependency's name (and its subpaths) but this repository's own workspaces: npm links those into
 * node_modules (a symbolic link to packages/...), and they are TypeScript sources to bundle, not packages to load.
 */
function externals() {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => {
    const installed = path.join(root, 'node_modules', name);
    return !(existsSync(installed) && lstatSync(installed).isSymbolicLink());
  });
  return names.flatMap((name) => [name, `${name}/*`]);
}

const result = await build({
  absWorkingDir: root,
  // The PDF renderer runs in worker threads (src/modules/invoices/pdf): its own entry, next to main.js.
  entryPoints: { main: 'src/main.ts', 'pdf-worker': 'src/modules/invoices/pdf/pdf-worker.ts' },
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Dependencies stay external, except this repository's own workspaces (TypeScript sources, bundled in); their
  // own dependencies stay external too.
  external: externals(),
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
  write: false,
});

mkdirSync(dist, { recursive: true });
const suffix = `.${process.pid}.tmp`;
function replace(file, contents) {
  const temp = `${file}${suffix}`;
  try {
    writeFileSync(temp, contents);
    renameSync(temp, file);
  } finally {
    rmSync(temp, { force: true });
  }
}

const outputs = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
const bundle = outputs.get(outfile);
if (!bundle) throw new Error(`esbuild produced no ${outfile}`);
for (const [file, contents] of outputs) if (file !== outfile) replace(file, contents);
replace(outfile, bundle);

const inputs = Object.fromEntries(
  Object.keys(result.metafile.inputs).map((file) => [file, hashOf(path.join(root, file))]),
);
const written = Object.fromEntries(
  [...outputs.keys()].map((file) => [path.relative(root, file), sha256(outputs.get(file))]),
);
replace(
  stampFile,
  `${JSON.stringify({ ...toolchain(), bundle: sha256(bundle), outputs: written, inputs }, null, 2)}\n`,
);
