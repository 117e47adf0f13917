const pad = (n: number) => String(n).padStart(2, '0');

/** The local day of an instant, `YYYY-MM-DD`: the usage record's files and pages go by local time. */
export function localDay(at: Date): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
