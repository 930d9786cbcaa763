// What the manifests say beyond tables (test/unit/module-boundaries.test.ts): the events each module records, and
// the module list in docs/architecture.md, generated from them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EVENT_TYPES } from '../../src/modules/events/event-catalog.js';
import { MODULES } from '../../src/modules/index.js';
import { moduleList } from '../../src/modules/module-list.js';
import { sourceFiles, stringLiterals } from '../source-literals.js';

const CATALOG_NAMES = new Set(EVENT_TYPES.flatMap((entry) => [entry.eventType, ...entry.aliases]));

describe('module manifests', () => {
  it('declares every event a module records, each by one module', () => {
    const declaredBy = new Map<string, string>();
    for (const module of MODULES) {
      for (const event of module.events ?? []) {
        assert.ok(!declaredBy.has(event), `${event}: ${declaredBy.get(event)} and ${module.folder}`);
        declaredBy.set(event, module.folder);
      }
    }
    const undeclared: string[] = [];
    for (const module of MODULES) {
      for (const file of sourceFiles(path.join('src', ...module.folder.split('/')), '.ts')) {
        // The catalog itself, the manifests, and the examples of the OpenAPI document name events without recording.
        if (/(event-catalog|module|\.schemas|\.examples)\.ts$/.test(file)) continue;
        for (const literal of stringLiterals(readFileSync(file, 'utf8'))) {
          if (CATALOG_NAMES.has(literal) && declaredBy.get(literal) !== module.folder) {
            undeclared.push(`${file} records ${literal}, which the manifest of ${module.folder} does not declare`);
          }
        }
      }
    }
    assert.deepEqual(undeclared, []);
  });

  it('lists every module in docs/architecture.md as the manifests describe it', () => {
    const doc = readFileSync('docs/architecture.md', 'utf8');
    const start = doc.indexOf('<!-- module list: generated');
    const end = doc.indexOf('<!-- end of module list -->');
    assert.ok(start >= 0 && end > start, 'docs/architecture.md has the module list markers');
    const current = doc.slice(doc.indexOf('\n', start) + 1, end);
    assert.equal(current, moduleList(MODULES), 'regenerate with `npm run docs:modules`');
  });
});
