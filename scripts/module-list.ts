// `npm run docs:modules`: writes the module list of docs/architecture.md from the module manifests
// (test/unit/module-manifests.test.ts fails when it is stale).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MODULES } from '../src/modules/index.js';
import { moduleList } from '../src/modules/module-list.js';
import { projectRoot } from '../src/platform/paths.js';

const file = path.join(projectRoot(), 'docs', 'architecture.md');
const doc = readFileSync(file, 'utf8');
const start = doc.indexOf('<!-- module list: generated');
const end = doc.indexOf('<!-- end of module list -->');
if (start < 0 || end < start) throw new Error('docs/architecture.md lacks the module list markers');
const head = doc.slice(0, doc.indexOf('\n', start) + 1);
writeFileSync(file, `${head}${moduleList(MODULES)}${doc.slice(end)}`);
console.log('docs/architecture.md: module list written');
