// The monitoring kit in deploy/: Prometheus alert rules (loaded and unit-tested with Debian's promtool) and a Grafana
// dashboard, both built only on metrics a Tessera node really exposes.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createMetrics } from '../../src/platform/observability/metrics.js';
import { projectRoot } from '../../src/platform/paths.js';
import { startNode, type TestNode } from '../harness.js';

const root = projectRoot();
const RULES = path.join(root, 'deploy', 'prometheus', 'tessera-alerts.yml');
const RULE_TESTS = path.join(root, 'deploy', 'prometheus', 'tessera-alerts.test.yml');
const DASHBOARD = path.join(root, 'deploy', 'grafana', 'tessera-dashboard.json');
const run = promisify(execFile);

/** The metric families a text exposition declares. */
function families(text: string): Set<string> {
  return new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
}

/** Every tessera_ metric an expression names, as its family (histogram series lose their suffix). */
function referenced(expr: string): string[] {
  return [...expr.matchAll(/\btessera_[a-z0-9_]+/g)].map((m) => m[0]!.replace(/_(bucket|count|sum)$/, ''));
}

interface Panel {
  type: string;
  title: string;
  targets?: Array<{ expr: string }>;
}

describe('monitoring kit (deploy/)', () => {
  let t: TestNode;
  let exposed: Set<string>;
  before(async () => {
    t = await startNode();
    const res = await t.request('GET', '/metrics');
    const processMetrics = await createMetrics({ processMetrics: true }).registry.metrics();
    exposed = new Set([...families(res.text), ...families(processMetrics)]);
  });
  after(() => t.stop());

  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { uid: string; panels: Panel[] };
  const expressions = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));

  it('names only metrics a node exposes, in the rules and on the dashboard', () => {
    const rules = readFileSync(RULES, 'utf8');
    const unknown = [...new Set([...referenced(rules), ...expressions.flatMap(referenced)])].filter(
      (name) => !exposed.has(name),
    );
    assert.deepEqual(unknown, []);
    // Database-read gauges are families even before they have a sample.
    for (const name of ['tessera_jobs_due', 'tessera_webhook_oldest_due_seconds', 'tessera_ach_files_by_state']) {
      assert.ok(exposed.has(name), name);
    }
  });

  it('loads the alert rules and passes their unit tests (promtool)', async () => {
    const check = await run('promtool', ['check', 'rules', RULES]);
    assert.match(check.stdout, /SUCCESS: \d+ rules found/);
    const tested = await run('promtool', ['test', 'rules', path.basename(RULE_TESTS)], { cwd: path.dirname(RULES) });
    assert.match(tested.stdout, /SUCCESS/);
  });

  it('has a query on every panel, each one valid PromQL (promtool reads them as recording rules)', async () => {
    const panels = dashboard.panels.filter((panel) => panel.type !== 'row');
    assert.ok(panels.length >= 20);
    for (const panel of panels) assert.ok((panel.targets ?? []).length > 0, `${panel.title} has a query`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-dashboard-'));
    const file = path.join(dir, 'dashboard-queries.yml');
    const rules = expressions.map(
      (expr, i) =>
        `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(expr.replaceAll('$job', '.+'))}`,
    );
    writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`);
    const check = await run('promtool', ['check', 'rules', file]);
    assert.match(check.stdout, new RegExp(`SUCCESS: ${expressions.length} rules found`));
  });
});
