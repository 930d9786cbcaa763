import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addBusinessDays, isBusinessDay, isFedHoliday } from '../../src/platform/clock/business-days.js';

const d = (year: number, month: number, day: number) => ({ year, month, day });

describe('Federal Reserve business days', () => {
  it('knows the fixed and floating holidays', () => {
    assert.ok(isFedHoliday(d(2026, 1, 1)));
    assert.ok(isFedHoliday(d(2026, 1, 19)), 'MLK day: third Monday of January');
    assert.ok(isFedHoliday(d(2026, 5, 25)), 'Memorial Day: last Monday of May');
    assert.ok(isFedHoliday(d(2026, 6, 19)), 'Juneteenth');
    assert.ok(isFedHoliday(d(2026, 10, 12)), 'Columbus Day: second Monday of October');
    assert.ok(isFedHoliday(d(2026, 11, 26)), 'Thanksgiving: fourth Thursday of November');
    assert.ok(!isFedHoliday(d(2026, 11, 27)), 'the day after Thanksgiving is a business day');
  });

  it('moves a Sunday holiday to Monday, and does not move a Saturday one', () => {
    // July 4, 2027 is a Sunday: observed Monday July 5.
    assert.ok(isFedHoliday(d(2027, 7, 5)));
    // July 4, 2026 is a Saturday: the Fed is open on Friday July 3.
    assert.ok(isBusinessDay(d(2026, 7, 3)));
    assert.ok(!isBusinessDay(d(2026, 7, 4)));
  });

  it('counts business days across weekends and holidays', () => {
    assert.deepEqual(addBusinessDays(d(2026, 11, 24), 2), d(2026, 11, 27), 'Tuesday + 2 skips Thanksgiving');
    assert.deepEqual(addBusinessDays(d(2026, 11, 20), 1), d(2026, 11, 23), 'Friday + 1 is Monday');
    assert.deepEqual(addBusinessDays(d(2026, 12, 24), 1), d(2026, 12, 28), 'Christmas and the weekend skipped');
    assert.deepEqual(addBusinessDays(d(2026, 11, 21), 0), d(2026, 11, 23), 'a Saturday rolls to Monday');
  });
});
