import type { ColumnProfile } from '../../contract/index.ts';
import type { Query } from './profile-query.ts';

// How many distinct values a column holds, past what the profile counts exactly. DuckDB's
// approx_count_distinct was far off on many distinct ids (and could pass the row count), so
// it only sizes the estimate here: the distinct values whose hash falls below a threshold are
// counted exactly, a share p of all of them, and the count divided by p. That count's relative
// error at 95% is 1.96 * sqrt((1 - p) / counted); it is said with the figure, and where it would
// pass MAX_ERROR the values are counted exactly instead.

/** About this many distinct hashes are counted: an error near 0.5%. */
const COUNTED = 200_000;
const MAX_ERROR = 0.02;
const HASHES = 2n ** 64n;

/** An estimate of the distinct non-null values of `src`'s `v`, from `approx` (DuckDB's), never above `present`. */
export async function estimateDistinct(query: Query, approx: number, present: number): Promise<ColumnProfile['distinct']> {
  const share = Math.min(1, COUNTED / Math.max(approx, 1));
  if (share < 1) {
    const below = (HASHES * BigInt(Math.round(share * 1e9))) / 1_000_000_000n;
    const [row] = await query(`SELECT count(DISTINCT h) FROM (SELECT hash(v) AS h FROM src WHERE v IS NOT NULL) WHERE h < ${below}`);
    const counted = Number(row?.[0] ?? 0);
    const p = Number(below) / Number(HASHES);
    const error = counted > 0 ? 1.96 * Math.sqrt((1 - p) / counted) : Infinity;
    if (error <= MAX_ERROR)
      return { count: Math.min(present, Math.round(counted / p)), exact: false, error: Math.ceil(error * 1000) / 1000 };
  }
  const [row] = await query('SELECT count(DISTINCT v) FROM src');
  return { count: Number(row?.[0] ?? 0), exact: true };
}
