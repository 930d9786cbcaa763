/**
 * Business days of the US Federal Reserve (the ACH operators' calendar): Monday to Friday, except the Fed's
 * holidays. A holiday on a Sunday is observed on the Monday after; a holiday on a Saturday is not moved (the Fed
 * stays open on the Friday before), unlike the federal government's own rule.
 * Dates here are calendar dates (year, month 1-12, day), with no time zone: callers name the zone.
 */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const utc = (d: CalendarDate) => new Date(Date.UTC(d.year, d.month - 1, d.day));
const fromUtc = (t: Date): CalendarDate => ({
  year: t.getUTCFullYear(),
  month: t.getUTCMonth() + 1,
  day: t.getUTCDate(),
});

/** The nth (1-based) given weekday (0 Sunday … 6 Saturday) of a month; n = -1 is the last. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return 1 + ((weekday - first + 7) % 7) + (n - 1) * 7;
  }
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = new Date(Date.UTC(year, month - 1, lastDay)).getUTCDay();
  return lastDay - ((last - weekday + 7) % 7);
}

const holidayCache = new Map<number, Set<string>>();

/** The Fed's holidays of a year as "M-D" keys, with Sunday holidays moved to Monday. */
function holidays(year: number): Set<string> {
  let set = holidayCache.get(year);
  if (set) return set;
  const fixed: Array<[number, number]> = [
    [1, 1], // New Year's Day
    [6, 19], // Juneteenth National Independence Day
    [7, 4], // Independence Day
    [11, 11], // Veterans Day
    [12, 25], // Christmas Day
  ];
  const floating: Array<[number, number]> = [
    [1, nthWeekday(year, 1, 1, 3)], // Birthday of Martin Luther King, Jr.
    [2, nthWeekday(year, 2, 1, 3)], // Washington's Birthday
    [5, nthWeekday(year, 5, 1, -1)], // Memorial Day
    [9, nthWeekday(year, 9, 1, 1)], // Labor Day
    [10, nthWeekday(year, 10, 1, 2)], // Columbus Day
    [11, nthWeekday(year, 11, 4, 4)], // Thanksgiving Day
  ];
  set = new Set<string>();
  for (const [month, day] of fixed) {
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCDay() === 0) date.setUTCDate(date.getUTCDate() + 1);
    if (date.getUTCDay() !== 6) set.add(`${date.getUTCMonth() + 1}-${date.getUTCDate()}`);
  }
  for (const [month, day] of floating) set.add(`${month}-${day}`);
  // Juneteenth became a Fed holiday in 2021.
  if (year < 2021) {
    set.delete('6-19');
    set.delete('6-20');
  }
  if (holidayCache.size > 200) holidayCache.clear();
  holidayCache.set(year, set);
  return set;
}

export function isFedHoliday(date: CalendarDate): boolean {
  return holidays(date.year).has(`${date.month}-${date.day}`);
}

export function isBusinessDay(date: CalendarDate): boolean {
  const weekday = utc(date).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !isFedHoliday(date);
}

/** The date `n` business days after `date` (n >= 1); n = 0 is `date` itself if a business day, else the next one. */
export function addBusinessDays(date: CalendarDate, n: number): CalendarDate {
  const t = utc(date);
  if (n === 0) {
    while (!isBusinessDay(fromUtc(t))) t.setUTCDate(t.getUTCDate() + 1);
    return fromUtc(t);
  }
  let left = n;
  while (left > 0) {
    t.setUTCDate(t.getUTCDate() + 1);
    if (isBusinessDay(fromUtc(t))) left--;
  }
  return fromUtc(t);
}

export function nextCalendarDay(date: CalendarDate, days = 1): CalendarDate {
  const t = utc(date);
  t.setUTCDate(t.getUTCDate() + days);
  return fromUtc(t);
}

/** "2026-11-26" */
export function isoDate(date: CalendarDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}
