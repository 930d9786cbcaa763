import { localParts, zonedInstant } from '../../platform/clock/zoned.js';

/**
 * When a subscription's installments fall due. Either an interval counted from the start (every N days, weeks or
 * months), or a calendar form: given days of the month, or given weeks of the month on one weekday, optionally only
 * in given months. Every installment keeps the start's local time of day in the merchant's time zone, so a
 * daylight-saving change moves nothing a person would notice, and month ends and leap days fall as on a calendar.
 */
export type Cadence =
  | { kind: 'interval'; unit: 'day' | 'week' | 'month'; every: number }
  | { kind: 'days-of-month'; days: readonly number[]; months?: readonly number[] }
  | { kind: 'weeks-of-month'; weeks: readonly number[]; dayOfWeek: number; months?: readonly number[] };

const MAX_MONTHS_SCANNED = 12 * 50;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Year and month `offset` months after (year, month), months 1–12. */
function addMonths(year: number, month: number, offset: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + offset;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** The days of a month a calendar form names, ascending, without repeats. */
function calendarDays(cadence: Exclude<Cadence, { kind: 'interval' }>, year: number, month: number): number[] {
  const last = daysInMonth(year, month);
  if (cadence.kind === 'days-of-month') {
    // 31 (and 29 or 30 in a shorter month) means the month's last day.
    return [...new Set(cadence.days.map((day) => Math.min(day, last)))].sort((a, b) => a - b);
  }
  const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const firstMatch = 1 + ((cadence.dayOfWeek - firstWeekday + 7) % 7);
  const matches: number[] = [];
  for (let day = firstMatch; day <= last; day += 7) matches.push(day);
  const days = cadence.weeks
    .map((week) => (week === -1 ? matches.at(-1) : matches[week - 1]))
    .filter((day): day is number => day !== undefined);
  return [...new Set(days)].sort((a, b) => a - b);
}

/**
 * The due instants of a schedule, in order, from the start (the start itself is the first for an interval; a
 * calendar form's first is its first day at or after the start). Lazy: a schedule without end is read as far as
 * needed.
 */
export function* occurrences(start: Date, timeZone: string, cadence: Cadence): Generator<Date> {
  const s = localParts(start, timeZone);
  const at = (year: number, month: number, day: number) => zonedInstant(year, month, day, s.hour, s.minute, timeZone);
  if (cadence.kind === 'interval') {
    for (let n = 0; ; n++) {
      if (cadence.unit === 'month') {
        const { year, month } = addMonths(s.year, s.month, n * cadence.every);
        yield at(year, month, Math.min(s.day, daysInMonth(year, month)));
      } else {
        const days = n * cadence.every * (cadence.unit === 'week' ? 7 : 1);
        const date = new Date(Date.UTC(s.year, s.month - 1, s.day + days));
        yield at(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
      }
    }
  }
  for (let offset = 0, empty = 0; empty < MAX_MONTHS_SCANNED; offset++) {
    const { year, month } = addMonths(s.year, s.month, offset);
    if (cadence.months && !cadence.months.includes(month)) {
      empty++;
      continue;
    }
    let found = false;
    for (const day of calendarDays(cadence, year, month)) {
      const instant = at(year, month, day);
      // The start's own minute counts: a schedule starting on one of its days pays that day.
      if (instant.getTime() + 60_000 <= start.getTime()) continue;
      found = true;
      yield instant;
    }
    empty = found ? 0 : empty + 1;
  }
}

/** The due instant of installment `paymentOrder` (1 for the first), or undefined when the schedule never gets there. */
export function dueAt(start: Date, timeZone: string, cadence: Cadence, paymentOrder: number): Date | undefined {
  let n = 0;
  for (const instant of occurrences(start, timeZone, cadence)) {
    if (++n === paymentOrder) return instant;
  }
  return undefined;
}
