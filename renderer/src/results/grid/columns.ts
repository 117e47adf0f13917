import type { ColDef } from 'ag-grid-community';
import type { CellValue } from '../../../../main/contract/index.ts';
import { localTimeOf } from '../dates.ts';
import { cellFormat, type CellFormat } from './cell-format.ts';
import { numberStyle } from './number-style.svelte.ts';
import { TypedHeader } from './typed-header.ts';
import type { ViewColumn } from './view-language.ts';

/** A row as it arrives: cells in column order. */
export type Row = CellValue[];

const NUMERIC = /^(u?(tiny|small|big|huge)?int(eger)?\d*|u?int\d+|double|real|float\d*|decimal|numeric|number)\b/i;
const TEMPORAL = /^(timestamp|date|time)/i;

/** Column ids are positions: names may repeat or contain anything. */
export function columnId(index: number): string {
  return `c${index}`;
}

export function isNumericType(type: string): boolean {
  return NUMERIC.test(type.trim());
}

/** A column's formatter for the number style of the moment: a change of the setting redraws the cells. */
function formatterFor(type: string): (value: CellValue | undefined) => string {
  const made = new Map<boolean, CellFormat>();
  return (value) => {
    const grouping = numberStyle.grouping;
    let format = made.get(grouping);
    if (!format) made.set(grouping, (format = cellFormat(type, { grouping })));
    return format(value);
  };
}

export function isTemporalType(type: string): boolean {
  return TEMPORAL.test(type.trim());
}

/** Past this many characters a cell is likely cut off: hovering shows all of it. */
const LONG_TEXT = 24;

const TEXT_OPTIONS = { filterOptions: ['contains', 'equals', 'startsWith'], maxNumConditions: 1 };
const SCALAR_OPTIONS = { filterOptions: ['equals', 'lessThan', 'greaterThan', 'inRange'], maxNumConditions: 1 };

/** Filters the language can express for the type; the grid only collects them, main applies them. */
function filterFor(type: string): Pick<ColDef, 'filter' | 'filterParams'> {
  if (isNumericType(type)) return { filter: 'agNumberColumnFilter', filterParams: SCALAR_OPTIONS };
  if (isTemporalType(type)) return { filter: 'agDateColumnFilter', filterParams: SCALAR_OPTIONS };
  return { filter: 'agTextColumnFilter', filterParams: TEXT_OPTIONS };
}

function initialWidth(name: string, type: string): number {
  const header = Math.max(name.length, type.length) * 7.5 + 44;
  const content = isNumericType(type) ? 110 : TEMPORAL.test(type) ? 190 : 170;
  return Math.round(Math.min(360, Math.max(90, header, content)));
}

/** A timestamp's moment on the user's clock (cells show UTC, as the service gives them); else long text whole. */
function tooltipOf(value: CellValue | undefined, temporal: boolean): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (temporal) return localTimeOf(value) ?? undefined;
  return value.length > LONG_TEXT ? value : undefined;
}

/**
 * Rows are arrays in the order of the columns asked for, so each column reads its position;
 * its id stays its place in the whole result, so sorts and filters survive hiding others.
 */
export function columnDefs(columns: ViewColumn[], inBlock?: (row: number | null, colId: string) => boolean): ColDef<Row, CellValue>[] {
  return columns.map(({ name, type, index }, position) => {
    const numeric = isNumericType(type);
    const temporal = isTemporalType(type);
    const format = formatterFor(type);
    return {
      colId: columnId(index),
      headerName: name,
      headerComponentParams: { innerHeaderComponent: TypedHeader, innerHeaderComponentParams: { type } },
      headerTooltip: `${name} (${type})`,
      valueGetter: (params) => (params.data ? params.data[position] : undefined),
      valueFormatter: (params) => format(params.value),
      tooltipValueGetter: (params) => tooltipOf(params.value, temporal),
      initialWidth: initialWidth(name, type),
      type: numeric ? 'rightAligned' : undefined,
      cellClassRules: {
        'qd-null': (params) => params.value === null,
        ...(inBlock ? { 'qd-block': (params) => inBlock(params.node.rowIndex, params.colDef.colId!) } : {}),
      },
      ...filterFor(type),
    } satisfies ColDef<Row, CellValue>;
  });
}
