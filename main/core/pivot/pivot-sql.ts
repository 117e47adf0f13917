import type { PivotSettings } from '../../contract/pivot-models.ts';
import { cellExpression } from '../cache/storage-types.ts';
import type { Grouping, PivotPlan } from './pivot-plan.ts';

// A pivot as plain SQL over the cached table, read first before any speed-up: the rows the view's
// filter keeps, each given its groups (and its split value's rank among the most frequent, 0 for
// "Other"), aggregated by ROLLUP so that every level's subtotal and the grand total come in one
// statement; each measure once for all rows and once for each split value (FILTER). Siblings are
// ranked in SQL by the sort's measure, or their own values, so the order is DuckDB's, exact.

/** Names of the statement's own columns; the prefix keeps them apart from the result's. */
const group = (i: number) => `"__querydesk_g${i}"`;
const value = (m: number, bucket: number | 'all') => `"__querydesk_m${m}_${bucket}"`;
const DEPTH = '"__querydesk_depth"';
const ROWS = '"__querydesk_rows"';
const SPLIT = '"__querydesk_s"';

export interface PivotSource {
  /** The cached table, quoted. */
  table: string;
  /** The view's filter, compiled: a condition with `?` placeholders. */
  where: string | null;
}

function base({ table, where }: PivotSource): string {
  return `base AS (SELECT * FROM ${table}${where ? ` WHERE ${where}` : ''})`;
}

/** The split's most frequent values (`top`, most frequent first, ties by value), and how many values it has in all. */
export function splitValuesSql(source: PivotSource, split: Grouping & { top: number }): string {
  const frequent = `SELECT ${split.expression} AS v, count(*) AS n FROM base GROUP BY 1`;
  const cell = cellExpression({ name: 'v', type: split.type, duneType: split.wireType });
  return `WITH ${base(source)}, counted AS (${frequent})
    SELECT ${cell}, (SELECT count(*) FROM counted) FROM counted ORDER BY n DESC, v ASC NULLS LAST LIMIT ${split.top}`;
}

const depthOf = (groups: string[]) => groups.map((g) => `(GROUPING(${g}) = 0)::INTEGER`).join(' + ');

/** `grouped`: each group's rows and measures, every level (ROLLUP) aggregated over the rows. */
function fromRows({ rows, measures }: PivotPlan, buckets: number[]): string[] {
  const groups = rows.map((_, i) => group(i));
  const aggregates = measures.flatMap((m, i) => [
    `${m.aggregate(null)} AS ${value(i, 'all')}`,
    ...buckets.map((b) => `${m.aggregate(`${SPLIT} = ${b}`)} AS ${value(i, b)}`),
  ]);
  const rollup = groups.join(', ');
  return [
    `grouped AS (SELECT ${rollup}, ${depthOf(groups)} AS ${DEPTH}, count(*) AS ${ROWS}, ${aggregates.join(', ')} FROM keyed GROUP BY ROLLUP (${rollup}))`,
  ];
}

/**
 * `grouped` from the leaf groups: the rows are aggregated once, by every row column (and the split
 * value), into partial aggregates, and every level (ROLLUP) combines the leaves' partials, which
 * are few. A ROLLUP over the rows aggregated them once per level.
 */
function fromLeaves({ rows, measures }: PivotPlan, buckets: number[]): string[] {
  const groups = rows.map((_, i) => group(i));
  // each partial aggregate once, however many measures take it: a count is the rows' own
  const partials = [...new Set(measures.flatMap((m) => m.decomposed!.partials).filter((sql) => sql !== 'count(*)'))];
  const partialName = (sql: string) => (sql === 'count(*)' ? ROWS : `"__querydesk_p${partials.indexOf(sql)}"`);
  const leafKeys = [...groups, ...(buckets.length > 0 ? [SPLIT] : [])].join(', ');
  const combined = measures.flatMap((m, i) => {
    const over = (rows: string | null) => (fn: string, p: number) =>
      `${fn}(${partialName(m.decomposed!.partials[p]!)})${rows ? ` FILTER (WHERE ${rows})` : ''}`;
    return [
      `${m.decomposed!.combine(over(null))} AS ${value(i, 'all')}`,
      ...buckets.map((b) => `${m.decomposed!.combine(over(`${SPLIT} = ${b}`))} AS ${value(i, b)}`),
    ];
  });
  const rollup = groups.join(', ');
  return [
    `leaves AS (SELECT ${leafKeys}, ${['count(*)', ...partials].map((sql) => `${sql} AS ${partialName(sql)}`).join(', ')} FROM keyed GROUP BY ${leafKeys})`,
    `grouped AS (SELECT ${rollup}, ${depthOf(groups)} AS ${DEPTH}, CAST(sum(${ROWS}) AS BIGINT) AS ${ROWS}, ${combined.join(', ')} FROM leaves GROUP BY ROLLUP (${rollup}))`,
  ];
}

/** The split's buckets: each of its most frequent values by rank, then 0 for "Other"; none without a split. */
const bucketsOf = ({ split }: PivotPlan, splitCount: number) => (split ? [...Array.from({ length: splitCount }, (_, i) => i + 1), 0] : []);

/** The statement's common table expressions, down to `grouped`: every group with its measures. */
function groupedCtes(source: PivotSource, plan: PivotPlan, splitCount: number): string {
  const { rows, split, measures } = plan;
  const buckets = bucketsOf(plan, splitCount);
  const ctes = [base(source)];
  let keyed = `SELECT *, ${rows.map((r, i) => `${r.expression} AS ${group(i)}`).join(', ')} FROM base`;
  if (split) {
    ctes.push(
      `top_split AS (SELECT v AS "__querydesk_v", row_number() OVER (ORDER BY n DESC, v ASC NULLS LAST) AS "__querydesk_rank" ` +
        `FROM (SELECT ${split.expression} AS v, count(*) AS n FROM base GROUP BY 1 ORDER BY n DESC, v ASC NULLS LAST LIMIT ${split.top}))`,
    );
    keyed =
      `SELECT base.*, ${rows.map((r, i) => `${r.expression} AS ${group(i)}`).join(', ')}, coalesce(t."__querydesk_rank", 0) AS ${SPLIT} ` +
      `FROM base LEFT JOIN top_split t ON t."__querydesk_v" IS NOT DISTINCT FROM (${split.expression})`;
  }
  ctes.push(`keyed AS (${keyed})`);
  ctes.push(...(measures.every((m) => m.decomposed) ? fromLeaves(plan, buckets) : fromRows(plan, buckets)));
  return `WITH ${ctes.join(',\n')}`;
}

/** What both forms of the pivot's statement share: the cells read out, and the order of siblings. */
function readOut(plan: PivotPlan, splitCount: number, sort: PivotSettings['sort']) {
  const buckets = bucketsOf(plan, splitCount);
  const groups = plan.rows.map((_, i) => group(i));
  const byOwnKey = groups.map((g, i) => `CASE WHEN ${DEPTH} = ${i + 1} THEN ${g} END ASC NULLS LAST`);
  const cells = [
    ...plan.rows.map((r, i) => cellExpression({ name: `__querydesk_g${i}`, type: r.type, duneType: r.wireType })),
    ROWS,
    ...plan.measures.flatMap((m, i) =>
      ['all' as const, ...buckets].map((b) => cellExpression({ name: `__querydesk_m${i}_${b}`, type: m.type, duneType: m.shownType })),
    ),
  ];
  return {
    select: `SELECT ${DEPTH}, ${cells.join(', ')}`,
    // a group's parent is the group of its first depth - 1 keys
    parent: groups.slice(0, -1).map((g, i) => `CASE WHEN ${DEPTH} > ${i + 1} THEN ${g} END`),
    siblingOrder: [...(sort ? [`${value(sort.measure, 'all')} ${sort.direction.toUpperCase()} NULLS LAST`] : []), ...byOwnKey],
  };
}

/**
 * The pivot's groups, shallow first, each parent's children together in their order, `limit` of
 * them and one more when there are more (which tells that the pivot is cut, see pivotCutSql):
 * [depth, ...row keys, rows, ...for each measure: its total then one per split value then Other].
 */
export function pivotSql(source: PivotSource, plan: PivotPlan, splitCount: number, sort: PivotSettings['sort'], limit: number): string {
  const { select, parent, siblingOrder } = readOut(plan, splitCount, sort);
  const order = [DEPTH, ...parent.map((p) => `${p} ASC NULLS LAST`), ...siblingOrder];
  return `${groupedCtes(source, plan, splitCount)}
    ${select} FROM grouped ORDER BY ${order.join(', ')} LIMIT ${limit + 1}`;
}

/**
 * A pivot with more groups than `limit`, cut so that each level keeps every parent's best children
 * first: the siblings' ranks need a window, which costs about as much again as the plain order, and
 * so only a pivot that is cut pays for it. Its rows are pivotSql's, then each group's rank among
 * its siblings and how many groups there are in all.
 */
export function pivotCutSql(source: PivotSource, plan: PivotPlan, splitCount: number, sort: PivotSettings['sort'], limit: number): string {
  const { select, parent, siblingOrder } = readOut(plan, splitCount, sort);
  const sibling = `row_number() OVER (PARTITION BY ${[DEPTH, ...parent].join(', ')} ORDER BY ${siblingOrder.join(', ')})`;
  return `${groupedCtes(source, plan, splitCount)}
    ${select}, ${sibling} AS "__querydesk_sibling", count(*) OVER () AS "__querydesk_total"
    FROM grouped ORDER BY ${DEPTH}, "__querydesk_sibling" LIMIT ${limit}`;
}
