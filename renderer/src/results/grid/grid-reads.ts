// What the result grid reads back from ag-grid: its sort and filters to keep with the view, and
// one cell as the context menu and the cell viewer need it.
import type { GridApi } from 'ag-grid-community';
import type { ResultView } from '../result-view.svelte.ts';
import type { GridView } from '../view-store.svelte.ts';
import { cellFormat, columnKind } from './cell-format.ts';
import type { CellTarget } from './cell-links.ts';
import { columnId, type Row } from './columns.ts';

/** The header sorts and column filters, kept with the query's view. */
export function gridViewOf(api: GridApi<Row>, view: ResultView): GridView {
  return {
    columns: view.columns.map((c) => c.name),
    sort: api
      .getColumnState()
      .filter((c) => c.sort)
      .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0))
      .map((c) => ({ colId: c.colId, sort: c.sort! })),
    filter: api.getFilterModel(),
  };
}

/** The cell at a row of the view and a column id, as the menu and the viewer need it. */
export function cellAt(api: GridApi<Row> | null, view: ResultView, rowIndex: number, colId: string): CellTarget | null {
  const row = api?.getDisplayedRowAtIndex(rowIndex)?.data;
  const position = view.visible.findIndex((c) => columnId(c.index) === colId);
  const column = view.visible[position];
  if (!row || !column) return null;
  const value = row[position] ?? null;
  // as shown, but without separators or scale: what an explorer or the viewer reads
  const shown = cellFormat(column.type, { grouping: false })(value);
  return { columnName: column.name, kind: columnKind(column.type), value, shown, rowColumns: view.rowColumns.map((c) => c.name), row };
}

/** Where a context menu opens: at the pointer, or from the keyboard (the Menu key, Shift+F10) at the cell. */
export function menuPoint(event: MouseEvent, element: HTMLElement): { x: number; y: number } {
  const box = element.getBoundingClientRect();
  return event.clientX === 0 && event.clientY === 0 ? { x: box.left, y: box.bottom } : { x: event.clientX, y: event.clientY };
}
