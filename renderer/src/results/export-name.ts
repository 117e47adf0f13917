/**
 * An export's file name: the query's name and when its run ended, as a person would name it
 * (`daily-volume-by-chain_2026-11-23T1130.csv`), in local time, with the format's extension.
 */
export function exportFileName(queryName: string, ranAt: Date, scope: 'all' | 'view', extension = 'csv'): string {
  const stem =
    queryName
      .toLocaleLowerCase()
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '') || 'result';
  const two = (n: number) => String(n).padStart(2, '0');
  const when = `${ranAt.getFullYear()}-${two(ranAt.getMonth() + 1)}-${two(ranAt.getDate())}T${two(ranAt.getHours())}${two(ranAt.getMinutes())}`;
  return `${stem}_${when}${scope === 'view' ? '_view' : ''}.${extension}`;
}
