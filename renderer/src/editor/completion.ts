import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';
import type { SQLNamespace } from '@codemirror/lang-sql';
import type { TableSummary } from '$contract/index.ts';
import { SAMPLE_TABLES } from '../../../main/common/dune-tables/index.ts';

// What the editor offers while typing: Dune's most used tables as `<schema>.<table>` (the ones the
// embedded service keeps a sample of, which Dune has too) and the account's tables as
// `dune.<namespace>.<table>`, each with its columns (after a table's name and a dot), and the
// columns of the result shown below.

export interface CompletionData {
  tables: TableSummary[];
  /** In a local SQL tab: the cached results' tables by their names, in place of the service's tables. */
  localTables?: { name: string; columns: { name: string; type: string }[] }[];
  /** The columns of the result shown below the editor. */
  resultColumns: { name: string; type: string }[];
}

const columnsOf = (columns: { name: string; type: string }[]): Completion[] =>
  columns.map((column) => ({ label: column.name, type: 'property', detail: column.type }));

/**
 * The tables as nested names, each table's columns with their types: `dune` → namespace → table
 * for the account's, and schema → table for Dune's own.
 */
export function tableSchema(tables: TableSummary[]): SQLNamespace {
  const dune: Record<string, Record<string, Completion[]>> = {};
  for (const table of SAMPLE_TABLES) (dune[table.schema] ??= {})[table.name] = columnsOf(table.columns);
  // the account's catalog (`dune`) is no schema of Dune's tables: the two never meet
  const uploads: Record<string, Record<string, Record<string, Completion[]>>> = {};
  for (const table of tables) {
    const [catalog, namespace, name] = table.fullName.split('.');
    if (!catalog || !namespace || !name) continue;
    ((uploads[catalog] ??= {})[namespace] ??= {})[name] = columnsOf(table.columns);
  }
  return { ...dune, ...uploads };
}

/** Local SQL's tables (the cached results), each name with its columns. */
export function localSchema(tables: { name: string; columns: { name: string; type: string }[] }[]): SQLNamespace {
  return Object.fromEntries(tables.map((table) => [table.name, columnsOf(table.columns)]));
}

/** The result's column names, offered as words while typing outside any dotted name. */
export function resultColumnSource(columns: { name: string; type: string }[]): CompletionSource {
  const options: Completion[] = columns.map((column) => ({
    label: column.name,
    type: 'property',
    detail: `${column.type} · in the result`,
    boost: -1,
  }));
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/\w+$/);
    if (options.length === 0 || (!word && !context.explicit)) return null;
    // a dotted name is the table schema's to complete
    if (word && context.state.sliceDoc(word.from - 1, word.from) === '.') return null;
    return { from: word?.from ?? context.pos, options, validFor: /^\w*$/ };
  };
}
