import { ParameterDefinition, type EnumFromResults, type QueryParameter } from '$contract/index.ts';

// The parameters dialog's rows: a definition as the dialog edits it, and back. Saving sends the
// whole list and the service drops any field left out of it, so what the dialog does not edit
// (a description, an enum's source of options, the service's own fields) goes back as it came.

export const PARAMETER_TYPES = ParameterDefinition.shape.type.options;
export type ParameterType = ParameterDefinition['type'];

export interface ParameterRow {
  key: string;
  type: ParameterType;
  value: string;
  /** The options as typed, one to a line: an option may hold a comma (Dune's are a list). */
  options: string;
  multi: boolean;
  /** The definition the row was opened from (null for a row added in the dialog). */
  source: QueryParameter | null;
}

export function rowOf(parameter: QueryParameter): ParameterRow {
  return {
    key: parameter.key,
    type: (PARAMETER_TYPES as readonly string[]).includes(parameter.type) ? (parameter.type as ParameterType) : 'text',
    value: parameter.value,
    options: optionsText(parameter.enumOptions ?? []),
    multi: parameter.isMultiselect === true,
    source: parameter,
  };
}

export function newRow(key = ''): ParameterRow {
  return { key, type: 'text', value: '', options: '', multi: false, source: null };
}

/** Where an enum row's options come from, when they are another query's results rather than typed. */
export function fedFrom(row: ParameterRow): EnumFromResults | null {
  return row.type === 'enum' ? (row.source?.enumFromResults ?? null) : null;
}

const optionsText = (options: readonly string[]) => options.join('\n');

/**
 * The options of the row's text, one to a line. Options left as they were opened go back exactly
 * as they came, even those the text cannot hold (a line break, spaces around, an empty one).
 */
export function optionsOf(row: ParameterRow): string[] {
  const opened = row.source?.enumOptions;
  if (opened && row.options === optionsText(opened)) return [...opened];
  return row.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
}

/** What keeps the row from being saved, in words; null when nothing does. */
export function rowProblem(rows: readonly ParameterRow[], index: number): string | null {
  const row = rows[index]!;
  const key = row.key.trim();
  if (!key) return 'Give the parameter a name.';
  if (rows.findIndex((other) => other.key.trim() === key) !== index) return `“${key}” is defined twice.`;
  if (row.type === 'number' && !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(row.value.trim())) return 'The default must be a number.';
  if (row.type === 'datetime' && !/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/.test(row.value.trim()))
    return 'The default must be a date-time such as 2024-01-31 12:00:00.';
  // options fed by a query's results are the service's to know, and a free-form enum takes any value
  if (row.type === 'enum' && fedFrom(row) === null) {
    const options = optionsOf(row);
    if (options.length === 0) return 'List the options, one to a line.';
    const chosen = row.multi ? row.value.split(',').map((v) => v.trim()) : [row.value.trim()];
    if (row.source?.isFreeformAllowed !== true && chosen.some((value) => !options.includes(value)))
      return 'The default must be one of the options.';
  }
  return null;
}

/** The definition to save: plain copies, as the contract takes them (the row may be reactive state). */
export function definitionOf(row: ParameterRow): ParameterDefinition {
  const source = row.source;
  return {
    key: row.key.trim(),
    type: row.type,
    value: row.value.trim(),
    ...(source?.description === undefined ? {} : { description: source.description }),
    ...(row.type === 'enum' ? enumFields(row) : {}),
    ...(source?.values === undefined ? {} : { values: [...source.values] }),
  };
}

function enumFields(row: ParameterRow): Partial<ParameterDefinition> {
  const source = row.source;
  const fed = fedFrom(row);
  // a fed enum's options are not typed here: those the service last filled in go back as they came
  const options = fed === null ? optionsOf(row) : source?.enumOptions && [...source.enumOptions];
  return {
    ...(options === undefined ? {} : { enumOptions: options }),
    isMultiselect: row.multi,
    ...(source?.isFreeformAllowed === undefined ? {} : { isFreeformAllowed: source.isFreeformAllowed }),
    ...(fed === null ? {} : { enumFromResults: { queryId: fed.queryId, columnName: fed.columnName } }),
  };
}
