const DAY_MS = 86_400_000;

/** "12 Mar 2026 (in 3 days)", "(today)", "(expired)". */
export function formatExpiry(iso: string, now: number): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const date = at.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  const days = Math.ceil((at.getTime() - now) / DAY_MS);
  const when = at.getTime() <= now ? 'expired' : days <= 1 ? 'within a day' : `in ${days} days`;
  return `${date} (${when})`;
}

/** A moment as the user's clock reads it: "12 Mar 2026, 14:05". */
export function formatMoment(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
