import type { DateWindow } from './types.js';

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isIsoDay(value: string): boolean {
  if (!ISO_DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The 7 UTC days ending on `date`, inclusive. */
export function editionWindow(date: string): DateWindow {
  return { start: addDays(date, -6), end: date };
}

export function daysOf(window: DateWindow): string[] {
  const days: string[] = [];
  for (let day = window.start; day <= window.end; day = addDays(day, 1)) days.push(day);
  return days;
}

export function inWindow(isoDateTime: string, window: DateWindow): boolean {
  const day = isoDateTime.slice(0, 10);
  return day >= window.start && day <= window.end;
}

/** The most recent Monday on or before `now` (UTC). */
export function latestMonday(now: Date): string {
  const day = now.toISOString().slice(0, 10);
  const weekday = now.getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "May 4, 2026". By hand, not Intl: its first date format loads the ICU data (~25 ms of every page rendered). */
export function formatLongDate(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return `${MONTHS[(month ?? 0) - 1]} ${date}, ${year}`;
}
