import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import type { CellValue } from '$contract/index.ts';
import { isNumeric, type TypeKind } from '../../../../main/common/dune-types/index.ts';
import { localTimeOf } from '../dates.ts';
import { cellFormat, columnKind, isScalable, type CellFormat } from './cell-format.ts';
import { LONG_TEXT } from './cell-links.ts';
import { cellComparator } from './cell-order.ts';
import { numberStyle } from './number-style.svelte.ts';
import { LOADING, NOT_LOADED, placeholderText, type FailedRows } from './row-placeholder.ts';
import { TypedHeader } from './typed-header.ts';
import { filterFor, type ViewColumn } from './view-language.ts';

/** A row as it arrives: cells in column order. */
export type Row = CellValue[];

/** Column ids are positions: names may repeat or contain anything. */
export function columnId(index: number): string {
  return `c${index}`;
}

export function isNumericType(type: string): boolean {
  return isNumeric(columnKind(type));
}

export function isTemporalType(type: string): boolean {
  const kind = columnKind(type);
  return kind === 'date' || kind === 'timestamp';
}

/** What a grid's own copy (the sample's) writes for a non-null cell: as shown, without separators. */
export interface ColumnContext {
  copyText: (value: CellValue) => string;
}

/** What the grid shows of a column besides its type: an integer column scaled by its decimals. */
export interface ColumnDisplay {
  /** The decimals a column's values are divided by (10^n), 0 when not scaled. */
  decimalsOf(name: string): number;
}

const UNSCALED: ColumnDisplay = { decimalsOf: () => 0 };

/** A column's formatter for the number style and scale of the moment: a change of either redraws the cells. */
function formatterFor(type: string, decimals: () => number): (value: CellValue | undefined) => string {
  const made = new Map<string, CellFormat>();
  return (value) => {
    const grouping = numberStyle.grouping;
    const scale = decimals();
    const key = `${grouping}/${scale}`;
    let format = made.get(key);
    if (!format) made.set(key, (format = cellFormat(type, { grouping }, scale)));
    return format(value);
  };
}

/** The end of a binary value kept in sight when the column is too narrow for all of it. */
const KEPT_TAIL = 4;

function initialWidth(name: string, type: string, kind: TypeKind): number {
  // the name in bold, the type beneath in small type; beside them the cell's padding, its filter
  // button and the sort arrow, which must not take the name's room
  const header = Math.max(name.length * 8.5, type.length * 7) + 80;
  const content = kind === 'binary' ? 200 : isNumeric(kind) ? 110 : kind === 'date' || kind === 'timestamp' ? 190 : 170;
  return Math.round(Math.min(360, Math.max(90, header, content)));
}

/**
 * What hovering shows: a timestamp's moment on the user's clock (cells show UTC, as the service
 * gives them), the whole of a binary value or of long text, and the raw value under a scaled one.
 */
function tooltipOf(value: CellValue | undefined, shown: string, kind: TypeKind, scaled: boolean): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (scaled) return `${shown} (raw ${value})`;
  if (typeof value !== 'string') return undefined;
  if (kind === 'date' || kind === 'timestamp') return localTimeOf(value) ?? undefined;
  if (kind === 'binary') return shown;
  return value.length > LONG_TEXT ? value : undefined;
}

/** Bytes in two parts, so a narrow column cuts the middle and keeps both ends in sight (`0x1f98…f984`). */
function middleCut(params: ICellRendererParams<Row, CellValue>): HTMLElement | string {
  const text = params.valueFormatted ?? '';
  if (params.value === null || text.length <= KEPT_TAIL * 3) return text;
  const root = document.createElement('span');
  root.className = 'qd-middle';
  const head = document.createElement('span');
  head.className = 'qd-middle-head';
  head.textContent = text.slice(0, -KEPT_TAIL);
  const tail = document.createElement('span');
  tail.textContent = text.slice(-KEPT_TAIL);
  root.append(head, tail);
  return root;
}

/**
 * Rows are arrays in the order of the columns asked for, so each column reads its position;
 * its id stays its place in the whole result, so sorts and filters survive hiding others.
 */
export function columnDefs(
  columns: ViewColumn[],
  inBlock?: (row: number | null, colId: string) => boolean,
  display: ColumnDisplay = UNSCALED,
  failedRows?: FailedRows,
): ColDef<Row, CellValue>[] {
  const placeholder = (row: number | null) => placeholderText(failedRows, row);
  return columns.map(({ name, type, index }, position) => {
    const kind = columnKind(type);
    const decimals = () => (isScalable(kind) ? display.decimalsOf(name) : 0);
    const format = formatterFor(type, decimals);
    return {
      colId: columnId(index),
      headerName: name,
      headerComponentParams: { innerHeaderComponent: TypedHeader, innerHeaderComponentParams: { type, decimals } },
      headerTooltip: `${name} (${type})`,
      valueGetter: (params) => (params.data ? params.data[position] : undefined),
      valueFormatter: (params) => (params.data === undefined ? placeholder(params.node?.rowIndex ?? null) : format(params.value)),
      context: { copyText: (value) => cellFormat(type, { grouping: false }, decimals())(value) } satisfies ColumnContext,
      tooltipValueGetter: (params) => tooltipOf(params.value, format(params.value), kind, decimals() > 0),
      initialWidth: initialWidth(name, type, kind),
      type: isNumeric(kind) ? 'rightAligned' : undefined,
      ...(kind === 'binary' ? { cellRenderer: middleCut, cellClass: 'qd-mono' } : {}),
      cellClassRules: {
        'qd-null': (params) => params.value === null,
        'qd-row-loading': (params) => params.data === undefined && placeholder(params.node.rowIndex) === LOADING,
        'qd-row-unavailable': (params) => params.data === undefined && placeholder(params.node.rowIndex) === NOT_LOADED,
        ...(inBlock ? { 'qd-block': (params) => inBlock(params.node.rowIndex, params.colDef.colId!) } : {}),
      },
      comparator: cellComparator(kind),
      ...filterFor(kind),
    } satisfies ColDef<Row, CellValue>;
  });
}
