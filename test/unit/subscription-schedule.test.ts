// Subscription schedules read in the merchant's time zone: month ends, leap days, daylight saving and the calendar
// forms fall as a person reading a calendar expects.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Cadence, dueAt, occurrences } from '../../src/modules/subscriptions/schedule.js';
import { localParts, zonedInstant } from '../../src/platform/clock/zoned.js';

const NY = 'America/New_York';

/** The first `n` due instants, as local "YYYY-MM-DD HH:MM" in `zone`. */
function local(start: Date, cadence: Cadence, n: number, zone = NY): string[] {
  const out: string[] = [];
  for (const instant of occurrences(start, zone, cadence)) {
    const p = localParts(instant, zone);
    const pad = (v: number) => String(v).padStart(2, '0');
    out.push(`${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}`);
    if (out.length === n) break;
  }
  return out;
}

const monthly: Cadence = { kind: 'interval', unit: 'month', every: 1 };

describe('subscription schedules', () => {
  it('monthly on the 31st: each month, clamped to its last day, and back to the 31st', () => {
    const start = zonedInstant(2027, 1, 31, 9, 0, NY);
    assert.deepEqual(local(start, monthly, 13), [
      '2027-01-31 09:00',
      '2027-02-28 09:00',
      '2027-03-31 09:00',
      '2027-04-30 09:00',
      '2027-05-31 09:00',
      '2027-06-30 09:00',
      '2027-07-31 09:00',
      '2027-08-31 09:00',
      '2027-09-30 09:00',
      '2027-10-31 09:00',
      '2027-11-30 09:00',
      '2027-12-31 09:00',
      '2028-01-31 09:00',
    ]);
  });

  it('monthly on the 29th: 28 February in a common year, 29 February in 2028', () => {
    assert.deepEqual(local(zonedInstant(2027, 1, 29, 10, 30, NY), monthly, 3), [
      '2027-01-29 10:30',
      '2027-02-28 10:30',
      '2027-03-29 10:30',
    ]);
    assert.deepEqual(local(zonedInstant(2027, 12, 29, 10, 30, NY), monthly, 4), [
      '2027-12-29 10:30',
      '2028-01-29 10:30',
      '2028-02-29 10:30',
      '2028-03-29 10:30',
    ]);
    // Every 12 months from a leap day: 28 February until the next leap year.
    assert.deepEqual(local(zonedInstant(2028, 2, 29, 8, 0, NY), { kind: 'interval', unit: 'month', every: 12 }, 5), [
      '2028-02-29 08:00',
      '2029-02-28 08:00',
      '2030-02-28 08:00',
      '2031-02-28 08:00',
      '2032-02-29 08:00',
    ]);
  });

  it('keeps the local time across daylight saving changes (the UTC hour moves instead)', () => {
    const start = zonedInstant(2027, 3, 1, 9, 0, NY);
    const weekly = [...take(occurrences(start, NY, { kind: 'interval', unit: 'week', every: 1 }), 3)];
    // 1 and 8 March are EST (14:00 UTC); 15 March is after the change to EDT (13:00 UTC).
    assert.deepEqual(
      weekly.map((d) => d.toISOString()),
      ['2027-03-01T14:00:00.000Z', '2027-03-08T14:00:00.000Z', '2027-03-15T13:00:00.000Z'],
    );
    const autumn = [...take(occurrences(zonedInstant(2027, 10, 31, 9, 0, NY), NY, monthly), 2)];
    assert.deepEqual(
      autumn.map((d) => d.toISOString()),
      ['2027-10-31T13:00:00.000Z', '2027-11-30T14:00:00.000Z'],
    );
    // A time that does not exist on the change day (02:30 on 14 March 2027) moves forward by the gap: 03:30.
    const gap = dueAt(zonedInstant(2027, 3, 13, 2, 30, NY), NY, { kind: 'interval', unit: 'day', every: 1 }, 2)!;
    assert.deepEqual([localParts(gap, NY).hour, localParts(gap, NY).minute], [3, 30]);
    // The next day is 02:30 again.
    const next = dueAt(zonedInstant(2027, 3, 13, 2, 30, NY), NY, { kind: 'interval', unit: 'day', every: 1 }, 3)!;
    assert.equal(localParts(next, NY).hour, 2);
  });

  it('weekly on the start weekday and every 15 days', () => {
    assert.deepEqual(local(zonedInstant(2027, 12, 24, 12, 0, NY), { kind: 'interval', unit: 'week', every: 1 }, 3), [
      '2027-12-24 12:00',
      '2027-12-31 12:00',
      '2028-01-07 12:00',
    ]);
    assert.deepEqual(local(zonedInstant(2028, 2, 10, 7, 15, NY), { kind: 'interval', unit: 'day', every: 15 }, 4), [
      '2028-02-10 07:15',
      '2028-02-25 07:15',
      '2028-03-11 07:15',
      '2028-03-26 07:15',
    ]);
  });

  it('calendar forms: days of the month, a week of the month on a weekday, chosen months', () => {
    const start = zonedInstant(2027, 1, 10, 9, 0, NY);
    assert.deepEqual(local(start, { kind: 'days-of-month', days: [1, 15] }, 4), [
      '2027-01-15 09:00',
      '2027-02-01 09:00',
      '2027-02-15 09:00',
      '2027-03-01 09:00',
    ]);
    // 31 is every month's last day; a 30th in February is its last day too, never twice.
    assert.deepEqual(local(start, { kind: 'days-of-month', days: [30, 31] }, 5), [
      '2027-01-30 09:00',
      '2027-01-31 09:00',
      '2027-02-28 09:00',
      '2027-03-30 09:00',
      '2027-03-31 09:00',
    ]);
    // The last Friday of each month; the second Monday of each quarter's first month.
    assert.deepEqual(local(start, { kind: 'weeks-of-month', weeks: [-1], dayOfWeek: 5 }, 3), [
      '2027-01-29 09:00',
      '2027-02-26 09:00',
      '2027-03-26 09:00',
    ]);
    assert.deepEqual(local(start, { kind: 'weeks-of-month', weeks: [2], dayOfWeek: 1, months: [1, 4, 7, 10] }, 4), [
      '2027-01-11 09:00',
      '2027-04-12 09:00',
      '2027-07-12 09:00',
      '2027-10-11 09:00',
    ]);
    // A fifth week exists only in some months.
    assert.deepEqual(local(start, { kind: 'weeks-of-month', weeks: [5], dayOfWeek: 0 }, 2), [
      '2027-01-31 09:00',
      '2027-05-30 09:00',
    ]);
  });

  it('a calendar schedule starting on one of its days pays that day', () => {
    const start = zonedInstant(2027, 2, 15, 9, 0, NY);
    assert.equal(local(start, { kind: 'days-of-month', days: [15] }, 1)[0], '2027-02-15 09:00');
    const dayAfter = zonedInstant(2027, 2, 16, 9, 0, NY);
    assert.equal(local(dayAfter, { kind: 'days-of-month', days: [15] }, 1)[0], '2027-03-15 09:00');
  });

  it('follows the merchant time zone given', () => {
    const chicago = 'America/Chicago';
    const start = zonedInstant(2027, 1, 31, 23, 30, chicago);
    assert.deepEqual(local(start, monthly, 2, chicago), ['2027-01-31 23:30', '2027-02-28 23:30']);
    // In New York the same instant falls on the next local day, 00:30.
    assert.equal(localParts(dueAt(start, chicago, monthly, 2)!, NY).day, 1);
  });
});

function* take<T>(source: Iterable<T>, n: number): Generator<T> {
  if (n <= 0) return;
  let i = 0;
  for (const value of source) {
    yield value;
    if (++i >= n) return;
  }
}
