// Debian's chromium for the browser tests (playwright-core never downloads a browser), launched with the flags this
// machine needs, and pages that leave a screenshot under test-results/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { projectRoot } from '../src/platform/paths.js';

export const CHROMIUM = '/usr/bin/chromium';
export const RESULTS = path.join(projectRoot(), 'test-results');
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchChromium(): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: run scripts/ensure-test-tools.sh (npm test does when root)`);
  mkdirSync(RESULTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 30_000 });
}

/** A page in a context of its own; `done(name)` saves a full-page screenshot and closes the context. */
export async function openPage(
  browser: Browser,
  viewport = { width: 480, height: 900 },
): Promise<{ page: Page; done(name: string): Promise<void> }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return {
    page,
    async done(name) {
      await page.screenshot({ path: path.join(RESULTS, `${name}.png`), fullPage: true });
      await context.close();
    },
  };
}
