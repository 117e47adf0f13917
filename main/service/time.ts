/** Now as UTC ISO 8601 with microseconds, as precise as the clock gives (the real service sends up to nanoseconds). */
export function nowIso(): string {
  const epochMs = performance.timeOrigin + performance.now();
  const wholeMs = Math.floor(epochMs);
  const micros = Math.floor((epochMs - wholeMs) * 1000);
  return new Date(wholeMs).toISOString().replace('Z', `${String(micros).padStart(3, '0')}Z`);
}

export function addMillis(iso: string, millis: number): string {
  return new Date(Date.parse(iso) + millis).toISOString();
}

/** Whole milliseconds from one ISO timestamp to another. */
export function millisBetween(fromIso: string, toIso: string): number {
  return Math.max(0, Math.round(Date.parse(toIso) - Date.parse(fromIso)));
}
