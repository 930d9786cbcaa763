// The dashboard's role table is the one place access is decided: every route but the public ones checks a signed-in
// user against an action of the table, every action names its roles, and the table keeps its promises (the owner
// can do everything, an analyst only reads, staff only charge and read their own).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ACTIONS, type Action, can, ROLES } from '../../src/modules/dashboard/accounts/roles.js';

const DIR = 'src/modules/dashboard';
/** The routes anyone may open: the stylesheet, signing in, and the pages an e-mailed token opens. */
const PUBLIC = new Set(
  ['assets/:file', 'sign-in', 'forgot', 'reset', 'accept'].flatMap((p) => [
    `GET /dashboard/${p}`,
    `POST /dashboard/${p}`,
  ]),
);

function routes(): Array<{ route: string; body: string }> {
  const found: Array<{ route: string; body: string }> = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.routes.ts'))) {
    const text = readFileSync(path.join(DIR, file), 'utf8');
    const starts = [...text.matchAll(/scope\.(get|post)\(\s*[`'"]([^`'"]+)[`'"]/g)];
    // A route built in a loop (`/dashboard/transactions/:id/${action}`) counts once per template.
    starts.forEach((match, i) => {
      const end = starts[i + 1]?.index ?? text.length;
      found.push({ route: `${match[1]!.toUpperCase()} ${match[2]}`, body: text.slice(match.index, end) });
    });
  }
  return found;
}

describe('dashboard roles', () => {
  it('guards every route but the public ones with an action of the table', () => {
    const all = routes();
    assert.ok(all.length >= 8, `found ${all.length} routes`);
    for (const { route, body } of all) {
      if (PUBLIC.has(route)) continue;
      const checks = [...body.matchAll(/(?:guard|checkedPost)\(request, reply, '([\w.]+)'\)/g)].map((m) => m[1]!);
      assert.ok(checks.length > 0, `${route} checks a signed-in user's role`);
      for (const action of checks) assert.ok(action in ACTIONS, `${route}: '${action}' is in the table`);
    }
  });

  it('lets the owner do everything, an analyst only read, staff only charge and see', () => {
    const writes = (Object.keys(ACTIONS) as Action[]).filter(
      (a) => /\.(manage|charge|receipt)$/.test(a) && a !== 'account.manage',
    );
    for (const action of Object.keys(ACTIONS) as Action[]) {
      assert.ok(can('owner', action), `the owner may ${action}`);
      assert.ok((ACTIONS[action] as readonly string[]).every((role) => (ROLES as readonly string[]).includes(role)));
    }
    for (const action of writes) assert.equal(can('analyst', action), false, `an analyst may not ${action}`);
    assert.deepEqual((Object.keys(ACTIONS) as Action[]).filter((a) => can('staff', a)).sort(), [
      'account.manage',
      'home.view',
      'terminal.charge',
      'transactions.receipt',
      'transactions.view',
    ]);
  });
});
