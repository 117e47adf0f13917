import type { ColDef, ValueFormatterParams } from 'ag-grid-community';
import type { CellValue, ResultSummary } from '../../../main/contract/index.ts';
import { TypedHeader } from './typed-header.ts';

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

function formatCell(params: ValueFormatterParams<Row, CellValue>): string {
  const value = params.value;
  if (value === null) return 'null';
  if (value === undefined) return '';
  return String(value);
}

function initialWidth(name: string, type: string): number {
  const header = Math.max(name.length, type.length) * 7.5 + 44;
  const content = isNumericType(type) ? 110 : TEMPORAL.test(type) ? 190 : 170;
  return Math.round(Math.min(360, Math.max(90, header, content)));
}

/**
 * Rows are arrays, so each column reads its index: any column name works, even ones
 * with dots or duplicated names, which field paths would misread.
 */
export function columnDefs(result: ResultSummary): ColDef<Row, CellValue>[] {
  return result.columnNames.map((name, index) => {
    const type = result.columnTypes[index] ?? '';
    const numeric = isNumericType(type);
    return {
      colId: columnId(index),
      headerName: name,
      headerComponentParams: { innerHeaderComponent: TypedHeader, innerHeaderComponentParams: { type } },
      headerTooltip: `${name} (${type})`,
      valueGetter: (params) => (params.data ? params.data[index] : undefined),
      valueFormatter: formatCell,
      width: initialWidth(name, type),
      type: numeric ? 'rightAligned' : undefined,
      cellClassRules: { 'qd-null': (params) => params.value === null },
    } satisfies ColDef<Row, CellValue>;
  });
}
