// What replacing a table with a file does to its columns, so that the user is asked only when
// queries on the table could notice. Columns are matched by name; their order is not compared,
// as queries name the columns they read.

export interface NamedColumn {
  name: string;
  type: string;
}

export interface ColumnChanges {
  added: NamedColumn[];
  removed: NamedColumn[];
  retyped: { name: string; from: string; to: string }[];
}

// A service may spell a type as DuckDB does (`BIGINT`); the upload's are lowercase.
const sameType = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function compareColumns(current: readonly NamedColumn[], next: readonly NamedColumn[]): ColumnChanges {
  const before = new Map(current.map((column) => [column.name, column.type]));
  const after = new Set(next.map((column) => column.name));
  const changes: ColumnChanges = { added: [], removed: [], retyped: [] };
  for (const column of next) {
    const was = before.get(column.name);
    if (was === undefined) changes.added.push(column);
    else if (!sameType(was, column.type)) changes.retyped.push({ name: column.name, from: was, to: column.type });
  }
  changes.removed = current.filter((column) => !after.has(column.name));
  return changes;
}

/** The changes in `actual` that `foreseen` did not name (as the file was read before sending). */
export function unforeseen(foreseen: ColumnChanges | null, actual: ColumnChanges): ColumnChanges {
  const named = (list: { name: string }[] | undefined, name: string) => list?.some((c) => c.name === name) ?? false;
  return {
    added: actual.added.filter((c) => !named(foreseen?.added, c.name)),
    removed: actual.removed.filter((c) => !named(foreseen?.removed, c.name)),
    retyped: actual.retyped.filter((c) => !foreseen?.retyped.some((f) => f.name === c.name && sameType(f.to, c.to))),
  };
}

export function hasChanges(changes: ColumnChanges): boolean {
  return changes.added.length + changes.removed.length + changes.retyped.length > 0;
}
