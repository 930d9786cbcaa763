/** Wall-clock times in a named time zone (IANA), for schedules such as "22:00 America/New_York". */
const formatters = new Map<string, Intl.DateTimeFormat>();

import { dictionary } from '../dictionary.js';

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function localParts(instant: Date, timeZone: string): LocalDateTime {
  const parts: Record<string, number> = dictionary();
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

function offsetMs(instant: Date, timeZone: string): number {
  const p = localParts(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant a local wall-clock time names (in a DST gap, moved forward by the gap; in an overlap, the earlier). */
export function zonedInstant(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  timeZone: string,
): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const first = wall - offsetMs(new Date(wall), timeZone);
  const second = wall - offsetMs(new Date(first), timeZone);
  const local = localParts(new Date(second), timeZone);
  if (local.hour === hour && local.minute === minute) return new Date(second);
  // The wall time does not exist (the clocks jumped over it): read with the offset from before the jump, it lands
  // as far after the jump as it was into the gap (02:30 on a spring-forward night is 03:30).
  return new Date(Math.max(first, second));
}

/** The first of the daily slots strictly after `after`. */
export function nextDailySlot(
  after: Date,
  slots: ReadonlyArray<{ hours: number; minutes: number; timezoneName: string }>,
): Date | undefined {
  let best: Date | undefined;
  for (const slot of slots) {
    const today = localParts(after, slot.timezoneName);
    for (let offset = 0; offset <= 2; offset++) {
      const day = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
      const candidate = zonedInstant(
        day.getUTCFullYear(),
        day.getUTCMonth() + 1,
        day.getUTCDate(),
        slot.hours,
        slot.minutes,
        slot.timezoneName,
      );
      if (candidate > after) {
        if (!best || candidate < best) best = candidate;
        break;
      }
    }
  }
  return best;
}
