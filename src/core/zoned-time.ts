// A wall-clock time in a named zone, to the instant it names and back: "Send at 2026-05-11 08:00" in the editor's
// zone is stored as UTC and shown in both. Intl knows the zones' rules; no library is needed for one conversion.

/** `2026-05-11T08:00` (seconds optional), optionally with `Z` or `+02:00`: with an offset it is taken as is. */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Whether `zone` is an IANA time zone Intl knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** The instant `text` names, a wall time read in `zone` unless it carries its own offset; null when unreadable. */
export function parseZonedTime(text: string, zone: string): Date | null {
  const match = ISO_TIME.exec(text.trim());
  if (!match || !isTimeZone(zone)) return null;
  const [, year, month, day, hour, minute, second = '0', offset] = match;
  if (offset) {
    const instant = new Date(text.trim().replace(' ', 'T'));
    return Number.isNaN(instant.getTime()) ? null : instant;
  }
  const wall = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
  );
  const check = new Date(wall);
  if (check.getUTCDate() !== Number(day) || check.getUTCHours() !== Number(hour)) return null;
  // The zone's offset at the guess, then at the result: right on both sides of a daylight-saving change.
  const first = wall - offsetOf(wall, zone);
  return new Date(wall - offsetOf(first, zone));
}

/** `2026-05-11 08:00` as the wall clock in `zone` shows the instant. */
export function formatInZone(instant: Date, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/** How far `zone`'s wall clock is ahead of UTC at `instant`, in ms. */
function offsetOf(instant: number, zone: string): number {
  const shown = formatInZone(new Date(instant), zone);
  const asUtc = Date.parse(`${shown.replace(' ', 'T')}:00Z`);
  return asUtc - Math.floor(instant / 60_000) * 60_000;
}
