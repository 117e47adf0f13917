// How old a result is and when the service expires it, in the app's words (issue 36): the result's
// status line, the query list and the Run button all say it so.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A span of time, short: "under a minute", "12 min", "3 h", "5 days". Rounded down: never younger than it is. */
export function shortSpan(ms: number): string {
  const span = Math.max(0, ms);
  if (span < MINUTE_MS) return 'under a minute';
  if (span < HOUR_MS) return `${Math.floor(span / MINUTE_MS)} min`;
  if (span < DAY_MS) return `${Math.floor(span / HOUR_MS)} h`;
  const days = Math.floor(span / DAY_MS);
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

function timeOf(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const at = Date.parse(iso);
  return Number.isNaN(at) ? null : at;
}

/** "ran 3 h ago", "ran under a minute ago"; null when the end is not known. */
export function ranWords(endedAt: string | null | undefined, now: number): string | null {
  const at = timeOf(endedAt);
  return at === null ? null : `ran ${shortSpan(now - at)} ago`;
}

/**
 * "expires in 87 days", "expires in 5 h", "expired"; null when the service gave no expiry. Minutes
 * and hours round up (never sooner than it is), days to the nearest: the clock ticks every 30 s,
 * and a result that just ran has its service's 90 days, not 91.
 */
export function expiryWords(expiresAt: string | null | undefined, now: number): string | null {
  const at = timeOf(expiresAt);
  if (at === null) return null;
  const left = at - now;
  if (left <= 0) return 'expired';
  if (left < HOUR_MS) return `expires in ${Math.ceil(left / MINUTE_MS)} min`;
  if (left < DAY_MS) return `expires in ${Math.ceil(left / HOUR_MS)} h`;
  const days = Math.round(left / DAY_MS);
  return `expires in ${days} ${days === 1 ? 'day' : 'days'}`;
}

/** "ran 3 h ago · expires in 87 days": the parts that are known; null when neither is. */
export function freshnessLine(endedAt: string | null | undefined, expiresAt: string | null | undefined, now: number): string | null {
  const parts = [ranWords(endedAt, now), expiryWords(expiresAt, now)].filter((part) => part !== null);
  return parts.length === 0 ? null : parts.join(' · ');
}

/** Whether the service has expired the result (its rows can no longer be read from it). */
export function isExpired(expiresAt: string | null | undefined, now: number): boolean {
  const at = timeOf(expiresAt);
  return at !== null && at <= now;
}

/** The Run button when the latest result is fresh enough: "Use latest, 12 min old". */
export function reuseLabel(ageMs: number): string {
  return ageMs < MINUTE_MS ? 'Use latest, under a minute old' : `Use latest, ${shortSpan(ageMs)} old`;
}

export const RUN_AGAIN_HINT = 'Shift+Run to run again';

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** "Pinned — kept until 25 Feb 2027"; "Pinned — kept until unpinned" without an expiry. */
export function pinnedWords(keptUntil: string | null): string {
  const at = timeOf(keptUntil);
  return `Pinned — kept until ${at === null ? 'unpinned' : day.format(at)}`;
}

/** The max ages offered, in minutes: none, then a few steps up to the 90 days a result lives. */
export const MAX_AGE_CHOICES: (number | null)[] = [null, 5, 15, 60, 6 * 60, 12 * 60, 24 * 60, 7 * 24 * 60, 30 * 24 * 60];

/** "none", "15 min", "6 h", "1 day", "7 days". */
export function maxAgeWords(minutes: number | null): string {
  return minutes === null ? 'none' : shortSpan(minutes * MINUTE_MS);
}
