import {
  addBusinessDays,
  type CalendarDate,
  isBusinessDay,
  nextCalendarDay,
} from '../../../platform/clock/business-days.js';
import { localParts, zonedInstant } from '../../../platform/clock/zoned.js';
import { dictionary } from '../../../platform/dictionary.js';

/**
 * An ACH processor's clock: its cutoff windows, when entries settle and when returns arrive. Stored per processor
 * (`payment_processors.settings.ach`); anything not set takes the default below.
 */
export interface AchProcessorSettings {
  timeZone: string;
  /** Same-day windows ("HH:MM", local): entries sent with isFasterProcessing. */
  sameDayCutoffs: string[];
  /** Standard windows: every other entry. */
  standardCutoffs: string[];
  /** Standard entries settle at this time on the next business day after their window. */
  standardSettlementTime: string;
  /** Same-day entries settle at this time on their window's day. */
  sameDaySettlementTime: string;
  /** A balanced file carries, per batch, an offsetting entry to the originator's settlement account. */
  balancedFile: boolean;
  offsetRoutingNumber: string;
  offsetAccountNumber: string;
  /** The ODFI: the bank that sends our files into the network. */
  odfiRoutingNumber: string;
  odfiName: string;
}

export const DEFAULT_ACH_SETTINGS: AchProcessorSettings = {
  timeZone: 'America/New_York',
  sameDayCutoffs: ['10:30', '14:45'],
  standardCutoffs: ['17:00'],
  standardSettlementTime: '09:00',
  sameDaySettlementTime: '17:30',
  balancedFile: false,
  offsetRoutingNumber: '091000019',
  offsetAccountNumber: '9900000001',
  odfiRoutingNumber: '091000019',
  odfiName: 'TESSERA SANDBOX BANK',
};

export function achSettingsOf(raw: unknown): AchProcessorSettings {
  const given = raw && typeof raw === 'object' ? (raw as Partial<AchProcessorSettings>) : {};
  return { ...DEFAULT_ACH_SETTINGS, ...given };
}

const hm = (text: string) => {
  const [h, m] = text.split(':').map(Number);
  return { hour: h!, minute: m! };
};

export function localDate(instant: Date, timeZone: string): CalendarDate {
  const p = localParts(instant, timeZone);
  return { year: p.year, month: p.month, day: p.day };
}

export function at(date: CalendarDate, time: string, timeZone: string): Date {
  const { hour, minute } = hm(time);
  return zonedInstant(date.year, date.month, date.day, hour, minute, timeZone);
}

/** The first cutoff strictly after `after` on a business day: same-day windows for faster entries, else standard. */
export function nextCutoff(after: Date, settings: AchProcessorSettings, faster: boolean): Date {
  const cutoffs = [...(faster ? settings.sameDayCutoffs : settings.standardCutoffs)].sort();
  let day = localDate(after, settings.timeZone);
  for (let n = 0; n < 30; n++, day = nextCalendarDay(day)) {
    if (!isBusinessDay(day)) continue;
    for (const cutoff of cutoffs) {
      const instant = at(day, cutoff, settings.timeZone);
      if (instant > after) return instant;
    }
  }
  throw new Error('No ACH cutoff window in the next 30 days: check the processor settings');
}

/** Whether a window is one of the processor's same-day windows. */
export function isSameDayWindow(window: Date, settings: AchProcessorSettings): boolean {
  const p = localParts(window, settings.timeZone);
  const text = `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
  return settings.sameDayCutoffs.includes(text);
}

/** When the entries of a window's file settle (their effective entry date and the instant they clear). */
export function settlementOf(window: Date, settings: AchProcessorSettings) {
  const windowDay = localDate(window, settings.timeZone);
  if (isSameDayWindow(window, settings)) {
    return { effectiveDate: windowDay, settlesAt: at(windowDay, settings.sameDaySettlementTime, settings.timeZone) };
  }
  const effectiveDate = addBusinessDays(windowDay, 1);
  return { effectiveDate, settlesAt: at(effectiveDate, settings.standardSettlementTime, settings.timeZone) };
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Checks settings given by an operator: a list of problems by field, empty when they are usable. */
export function settingsProblems(s: AchProcessorSettings): Record<string, string[]> {
  const problems: Record<string, string[]> = dictionary();
  const add = (field: string, message: string) => {
    problems[field] = [...(problems[field] ?? []), message];
  };
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: s.timeZone });
  } catch {
    add('timeZone', `'${s.timeZone}' is not an IANA time zone.`);
  }
  for (const key of ['sameDayCutoffs', 'standardCutoffs'] as const) {
    if (!Array.isArray(s[key]) || s[key].some((t) => !TIME.test(t))) add(key, 'Times are "HH:MM", 24-hour.');
  }
  if (s.standardCutoffs.length === 0) add('standardCutoffs', 'At least one standard window is needed.');
  if (s.sameDayCutoffs.some((t) => s.standardCutoffs.includes(t))) {
    add('sameDayCutoffs', 'A same-day window cannot share its time with a standard window.');
  }
  for (const key of ['standardSettlementTime', 'sameDaySettlementTime'] as const) {
    if (!TIME.test(s[key])) add(key, 'Times are "HH:MM", 24-hour.');
  }
  if (s.sameDayCutoffs.some((t) => t >= s.sameDaySettlementTime)) {
    add('sameDaySettlementTime', 'Same-day entries must settle after the last same-day window.');
  }
  if (!/^\d{9}$/.test(s.odfiRoutingNumber)) add('odfiRoutingNumber', 'A 9-digit routing number.');
  if (!/^\d{9}$/.test(s.offsetRoutingNumber)) add('offsetRoutingNumber', 'A 9-digit routing number.');
  if (!/^\d{4,17}$/.test(s.offsetAccountNumber)) add('offsetAccountNumber', '4 to 17 digits.');
  return problems;
}
