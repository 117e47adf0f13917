import type { Column, GridApi } from 'ag-grid-community';
import type { CellValue } from '$contract/index.ts';
import { writeClipboard } from '../../lib/clipboard.ts';
import type { ColumnContext } from './columns.ts';
import { toTsv } from './tsv.ts';

// AG Grid Community has no range selection nor clipboard: the selected rows (or else the focused
// cell) are copied here, as TSV with the column headers, each cell as its column writes it
// without separators (bytes as 0x hex).

function copyText(column: Column, value: CellValue | undefined): CellValue | undefined {
  const context = column.getColDef().context as ColumnContext | undefined;
  return value === null || value === undefined || !context ? value : context.copyText(value);
}

/** The TSV of what the user picked: the selected rows in their order, else the focused cell; null when nothing. */
export function selectionTsv<T>(api: GridApi<T>): string | null {
  const columns = api.getAllDisplayedColumns();
  const headers = columns.map((c) => c.getColDef().headerName ?? c.getColId());
  const nodes = api.getSelectedNodes().filter((n) => n.data !== undefined);
  if (nodes.length > 0) {
    nodes.sort((a, b) => (a.rowIndex ?? 0) - (b.rowIndex ?? 0));
    return toTsv(
      headers,
      nodes.map((node) => columns.map((column) => copyText(column, api.getCellValue<CellValue>({ rowNode: node, colKey: column })))),
    );
  }
  const focused = api.getFocusedCell();
  const node = focused ? api.getDisplayedRowAtIndex(focused.rowIndex) : undefined;
  if (!focused || !node?.data) return null;
  const header = focused.column.getColDef().headerName ?? focused.column.getColId();
  return toTsv([header], [[copyText(focused.column, api.getCellValue<CellValue>({ rowNode: node, colKey: focused.column }))]]);
}

/**
 * Ctrl/Cmd+C over a grid: copies its selection. Answers null when the key was no copy or nothing
 * was picked, else why the clipboard refused the text (null when it took it).
 */
export async function copyOnShortcut<T>(event: KeyboardEvent, api: GridApi<T> | null): Promise<{ problem: string | null } | null> {
  if (!api || !(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'c' || event.shiftKey || event.altKey) return null;
  const text = selectionTsv(api);
  if (text === null) return null;
  event.preventDefault();
  return { problem: await writeClipboard(text) };
}
