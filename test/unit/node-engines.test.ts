// Tessera runs on Node 20 (package.json `engines`). A dependency, direct or not, whose own `engines` asks for a later
// Node may still load today and break in any patch release; npm only warns (EBADENGINE). The lockfile records each
// package's declared engines, so every one of them is held against the oldest Node we support.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import semver from 'semver';
import { projectRoot } from '../../src/platform/paths.js';

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
}

const root = projectRoot();
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** Packages whose declared Node range leaves out `node` (a version). */
function unsupportedOn(node: string, packages: Record<string, LockEntry>): string[] {
  const offenders: string[] = [];
  for (const [where, entry] of Object.entries(packages)) {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (where === '' || !range) continue;
    if (!semver.satisfies(node, range)) offenders.push(`${where}@${entry.version} (node ${range})`);
  }
  return offenders;
}

describe('dependencies and the Node version we support', () => {
  const oldest = semver.minVersion(manifest.engines.node)?.version;

  it('names an oldest supported Node', () => {
    assert.equal(oldest, '20.19.0');
  });

  it('has no package in the lockfile that declares a later Node than the oldest we support', () => {
    assert.deepEqual(unsupportedOn(oldest!, lock.packages), []);
  });

  it('would name a package that asks for Node 22', () => {
    const packages = {
      '': { version: '0.1.0' },
      'node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } },
      'node_modules/pg': { version: '8.23.1', engines: { node: '>= 16.0.0' } },
    };
    assert.deepEqual(unsupportedOn('20.19.0', packages), ['node_modules/cookie@2.0.2 (node >=22)']);
  });
});
