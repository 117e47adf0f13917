import { quoteIdentifier } from '../../common/sql-quote.ts';
import { valuesOf } from '../../common/statement-values.ts';
import { fail, ok, type CellValue, type Result } from '../../contract/index.ts';
import { PIVOT_MAX_GROUPS, type PivotSettings, type PivotTable } from '../../contract/pivot-models.ts';
import { compileResultRequest, FilterLanguageError } from '../../filter-language/index.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import { valueErrors } from '../cache/cached-reads.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import { toCacheCell } from '../cache/storage-types.ts';
import { languageFailure } from '../results/view.ts';
import { PivotRefused, planPivot, type PivotPlan } from './pivot-plan.ts';
import { pivotCutSql, pivotSql, splitValuesSql, type PivotSource } from './pivot-sql.ts';

// A pivot of a cached result, computed by DuckDB in the cache (pivot-sql.ts) and put in tree order
// here: each group after its parent, siblings in the order DuckDB ranked them.

type Group = PivotTable['groups'][number];

export async function pivotFromCache(
  db: CacheDb,
  entry: CacheEntry,
  settings: PivotSettings,
  filters: string | undefined,
  limit = PIVOT_MAX_GROUPS,
): Promise<Result<PivotTable>> {
  let plan: PivotPlan;
  let where: { sql: string; params: string[] } | null;
  try {
    where = compileResultRequest({ filters }, entry.columns).where;
    plan = planPivot(entry, settings);
  } catch (error) {
    if (error instanceof FilterLanguageError) return languageFailure(error);
    if (error instanceof PivotRefused) return fail('bad_request', `Cannot pivot: ${error.message}.`);
    throw error;
  }
  const source: PivotSource = { table: quoteIdentifier(entry.tableName), where: where?.sql ?? null };
  const params = where?.params ?? [];
  return db.withConnection((connection) =>
    valueErrors(async () => {
      const read = async (sql: string) => (await connection.runAndReadAll(sql, valuesOf(params))).getRows();
      const splitRows = plan.split ? await read(splitValuesSql(source, plan.split)) : [];
      const values = splitRows.map((row) => toCacheCell(row[0]));
      const distinct = Number(splitRows[0]?.[1] ?? 0);
      let rows = await read(pivotSql(source, plan, values.length, settings.sort, limit));
      const cut = rows.length > limit;
      if (cut) rows = await read(pivotCutSql(source, plan, values.length, settings.sort, limit));
      const total = cut ? Number(rows[0]!.at(-1)) : rows.length;
      const groups = treeOrder(rows.map((row) => groupOf(row, plan, values.length)));
      return ok({
        rows: plan.rows.map((r) => ({ name: r.column.name, type: r.wireType, grain: r.grain })),
        split: plan.split && {
          name: plan.split.column.name,
          type: plan.split.wireType,
          grain: plan.split.grain,
          values,
          other: Math.max(0, distinct - values.length),
        },
        measures: plan.measures.map((m) => ({ label: m.label, fn: m.fn, column: m.column?.name ?? null, type: m.shownType })),
        groups,
        truncated: total > rows.length ? { shown: rows.length, total } : null,
        inexact: plan.measures
          .filter((m, i) => m.estimated && groups.some((g) => g.cells.some((cells) => beyondDouble(cells[i]))))
          .map((m) => m.label),
        fromCache: { fetchedAt: entry.fetchedAt },
      });
    }),
  );
}

/** A row of pivotSql as a group: its key (as deep as the group), rows, and cells by bucket then measure. */
function groupOf(row: unknown[], plan: PivotPlan, splitCount: number): Group {
  const depth = Number(row[0]);
  const keys = plan.rows.length;
  const perMeasure = plan.split ? splitCount + 2 : 1;
  const values = row.slice(keys + 2, keys + 2 + plan.measures.length * perMeasure).map(toCacheCell);
  const cells = Array.from({ length: perMeasure }, (_, bucket) => plan.measures.map((_, m) => values[m * perMeasure + bucket]!));
  return { key: row.slice(1, 1 + depth).map(toCacheCell), rows: Number(row[keys + 1]), cells };
}

/** Groups (shallow first, each level's siblings in rank order) as a tree walked depth first. */
function treeOrder(groups: Group[]): Group[] {
  const children = new Map<string, Group[]>();
  for (const group of groups) {
    if (group.key.length === 0) continue;
    const parent = JSON.stringify(group.key.slice(0, -1));
    const siblings = children.get(parent);
    if (siblings) siblings.push(group);
    else children.set(parent, [group]);
  }
  const ordered: Group[] = [];
  const visit = (group: Group) => {
    ordered.push(group);
    for (const child of children.get(JSON.stringify(group.key)) ?? []) visit(child);
  };
  const root = groups.find((group) => group.key.length === 0);
  if (root) visit(root);
  return ordered;
}

function beyondDouble(value: CellValue | undefined): boolean {
  return typeof value === 'number' && Math.abs(value) > Number.MAX_SAFE_INTEGER;
}
