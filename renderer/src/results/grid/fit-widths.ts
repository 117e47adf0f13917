import type { GridApi } from 'ag-grid-community';
import type { CellValue } from '$contract/index.ts';
import { cellFormat, columnKind } from './cell-format.ts';
import { columnId } from './columns.ts';
import type { ViewColumn } from './view-language.ts';

const CELL_FONT = '12.5px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const HEADER_FONT = '600 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const MONO_FONT = "12px ui-monospace, 'SF Mono', 'Cascadia Mono', 'DejaVu Sans Mono', Menlo, Consolas, monospace";
/** Cell padding plus room for later rows a little wider than the first ones. */
const PADDING_PX = 40;
const MIN_PX = 70;
/** Room in a header for its filter button and the sort arrow with its order number. */
const HEADER_ICONS_PX = 28;
const MAX_PX = 420;

let context: CanvasRenderingContext2D | null = null;

function measure(text: string, font: string): number {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return text.length * 7.5;
  context.font = font;
  return context.measureText(text).width;
}

/**
 * Column widths fitted to the header and the first rows, measured as text rather than in the
 * DOM: the grid has not drawn those rows yet when they arrive.
 */
function fitWidths(columns: ViewColumn[], rows: CellValue[][]): number[] {
  return columns.map(({ name, type }, index) => {
    let widest = Math.max(measure(name, HEADER_FONT), measure(type, HEADER_FONT)) + HEADER_ICONS_PX;
    // as the cells show them: bytes as 0x hex (not DuckDB's four characters a byte), in their face
    const format = cellFormat(type, { grouping: false });
    const font = columnKind(type) === 'binary' ? MONO_FONT : CELL_FONT;
    for (const row of rows) widest = Math.max(widest, measure(format(row[index] ?? null), font));
    return Math.round(Math.min(MAX_PX, Math.max(MIN_PX, widest + PADDING_PX)));
  });
}

/** Sets the columns' widths to fit their headers and these rows (a first page, a sample). */
export function fitColumns<T>(api: GridApi<T>, columns: ViewColumn[], rows: CellValue[][]): void {
  const widths = fitWidths(columns, rows);
  api.setColumnWidths(widths.map((newWidth, index) => ({ key: columnId(columns[index]!.index), newWidth })));
}
