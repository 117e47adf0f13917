/** A moment as the user's clock reads it: "12 Mar 2026, 14:05". */
export function formatMoment(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** How long ago, in words: "2 minutes ago", "yesterday", "3 months ago". */
export function formatAge(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  let value = Math.max(0, (now - at) / 1000);
  for (const [unit, size] of STEPS) {
    if (value < size) return relative.format(-Math.round(value), unit);
    value /= size;
  }
  return iso;
}

const SERVICE_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?)\d* UTC$/;

/**
 * A timestamp as the service writes it (in UTC) next to the same moment on the user's clock, for a
 * cell's tooltip; null for any other text. `where` pins the locale and zone (tests).
 */
export function localTimeOf(text: string, where: { locale?: string; timeZone?: string } = {}): string | null {
  const match = SERVICE_TIMESTAMP.exec(text);
  if (!match) return null;
  const at = new Date(`${match[1]}T${match[2]}Z`);
  if (Number.isNaN(at.getTime())) return null;
  const local = at.toLocaleString(where.locale, {
    dateStyle: 'medium',
    timeStyle: 'medium',
    ...(where.timeZone ? { timeZone: where.timeZone } : {}),
  });
  return `${text} is ${local} your time`;
}
