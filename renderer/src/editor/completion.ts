import type { SQLNamespace } from '@codemirror/lang-sql';
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';
import type { TableSummary } from '../../../main/contract/index.ts';

// What the editor offers while typing: the account's tables as `dune.<namespace>.<table>` with
// their columns (after a table's name and a dot), and the columns of the result shown below.

export interface CompletionData {
  tables: TableSummary[];
  /** The columns of the result shown below the editor. */
  resultColumns: { name: string; type: string }[];
}

/** The tables as nested names: `dune` → namespace → table → its columns, each with its type. */
export function tableSchema(tables: TableSummary[]): SQLNamespace {
  const root: Record<string, Record<string, Record<string, SQLNamespace>>> = {};
  for (const table of tables) {
    const [catalog, namespace, name] = table.fullName.split('.');
    if (!catalog || !namespace || !name) continue;
    const columns: Completion[] = table.columns.map((column) => ({ label: column.name, type: 'property', detail: column.type }));
    ((root[catalog] ??= {})[namespace] ??= {})[name] = columns;
  }
  return root;
}

/** The result's column names, offered as words while typing outside any dotted name. */
export function resultColumnSource(columns: { name: string; type: string }[]): CompletionSource {
  const options: Completion[] = columns.map((column) => ({ label: column.name, type: 'property', detail: `${column.type} · in the result`, boost: -1 }));
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/\w+$/);
    if (options.length === 0 || (!word && !context.explicit)) return null;
    // a dotted name is the table schema's to complete
    if (word && context.state.sliceDoc(word.from - 1, word.from) === '.') return null;
    return { from: word?.from ?? context.pos, options, validFor: /^\w*$/ };
  };
}
