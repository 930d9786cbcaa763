// The docs must tell the truth: tables that mirror code are checked against it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { RESOURCE_TYPES } from '../../src/modules/events/outbox.js';
import { STATES } from '../../src/modules/reference/states.js';

describe('documentation', () => {
  it('publishes the exact state-id table', () => {
    const doc = readFileSync('docs/reference-data.md', 'utf8');
    const section = doc.slice(doc.indexOf('## States'), doc.indexOf('## Merchant'));
    const rows = [...section.matchAll(/^\| (\d+) \| ([A-Z]{2}) \| ([^|]+) \|$/gm)].map((m) => ({
      id: Number(m[1]),
      code: m[2],
      name: m[3]!.trim(),
    }));
    assert.deepEqual(
      rows,
      STATES.map(({ id, code, name }) => ({ id, code, name })),
    );
  });

  it('lists exactly the resource types events carry', () => {
    const doc = readFileSync('docs/webhooks.md', 'utf8');
    const documented = [...doc.matchAll(/^\s*\| `([a-z_]+)` \| /gm)].map((m) => m[1]);
    assert.deepEqual(documented, [...RESOURCE_TYPES]);
  });

  it('documents every environment variable the configuration reads', () => {
    const source = readFileSync('src/config.ts', 'utf8');
    const names = new Set([...source.matchAll(/read\.\w+\('([A-Z0-9_]+)'/g)].map((m) => m[1]!));
    assert.ok(names.size > 15);
    const readme = readFileSync('README.md', 'utf8');
    for (const name of names) assert.match(readme, new RegExp(`\\| \`${name}\` \\|`), `${name} is in the README`);
    assert.ok(loadConfig({}));
  });
});
