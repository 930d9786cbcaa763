// The dashboard's amounts and dates in the reader's locale: the browser's first language the runtime formats
// (weights honoured, malformed tags ignored, en-US otherwise), and amounts formatted from exact decimal text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dateTime, money } from '../../src/modules/dashboard/pages/html.js';
import { currentLocale, localeOf, withLocale } from '../../src/modules/dashboard/pages/locale.js';

describe('dashboard locale', () => {
  it('takes the browser’s preferred language the runtime formats', () => {
    assert.equal(localeOf('de-DE,de;q=0.9,en;q=0.8'), 'de-DE');
    assert.equal(localeOf('en;q=0.2, fr-CA;q=0.9'), 'fr-CA');
    assert.equal(localeOf('*'), 'en-US');
    assert.equal(localeOf('not a tag, <script>'), 'en-US');
    assert.equal(localeOf(undefined), 'en-US');
    assert.equal(localeOf('de;q=0'), 'en-US', 'q=0 means not wanted');
  });

  it('formats amounts exactly, in the request’s locale', () => {
    assert.equal(money(900_719_925_474_099, 'en-US'), '$9,007,199,254,740.99');
    assert.equal(money(-7, 'en-US'), '-$0.07');
    withLocale('de-DE', () => {
      assert.equal(currentLocale(), 'de-DE');
      assert.match(money(3950), /^39,50\s\$$/);
      assert.match(dateTime(new Date('2026-11-27T15:04:00Z'), 'Europe/Berlin'), /27\.11\.2026, 16:04/);
    });
    assert.equal(currentLocale(), 'en-US');
  });
});
