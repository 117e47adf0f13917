import { SINGLE_UPLOAD_MAX_BYTES, TABLE_NAME_PATTERN, uploadMode } from '$contract/table-rules.ts';
import { columnNameKey, startsWithLetter } from '../../../main/common/column-names.ts';
import { formatBytes, formatCount } from '../lib/format.ts';

// What the service would refuse, found before anything is sent, in words that point at the column
// or row to fix. Pure: the upload form shows these, the unit tests check each of them.

export interface Problem {
  /** What to fix: the file, the table name, a column (by index) or the rows. */
  about: 'file' | 'tableName' | 'column' | 'rows';
  message: string;
  column?: number;
  /** For a column: a name the service would take. */
  fix?: string;
}

export interface RaggedRow {
  /** 1 is the first row after the header. */
  row: number;
  fields: number;
}

const MAX_RAGGED_SHOWN = 3;

/** A refusal for an empty file; for one too large for a single request, the note that it goes in parts. */
export function checkFile(bytes: number, columns: number): { problem: Problem | null; note: string | null } {
  if (bytes === 0 || columns === 0)
    return { problem: { about: 'file', message: 'The file is empty: it needs a header row with the column names.' }, note: null };
  if (uploadMode(bytes) === 'single') return { problem: null, note: null };
  return {
    problem: null,
    note:
      `The file is ${formatBytes(bytes)}; one upload request must be smaller than ${formatBytes(SINGLE_UPLOAD_MAX_BYTES)}, ` +
      'so it will be sent in parts: a table is created from the column types shown, then the rows are inserted.',
  };
}

export function checkTableName(name: string): Problem | null {
  if (name === '') return { about: 'tableName', message: 'Give the table a name.' };
  if (TABLE_NAME_PATTERN.test(name)) return null;
  const suggestion = suggestTableName(name);
  const hint = suggestion === null ? '' : ` For example: “${suggestion}”.`;
  return {
    about: 'tableName',
    message: `“${name}” cannot be a table name: it must start with a lowercase letter and hold only a–z, 0–9 and _.${hint}`,
  };
}

function suggestTableName(name: string): string | null {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '');
  return cleaned === '' ? null : cleaned;
}

/** The index of the first name that is this one, whatever the case of either (as the service compares them). */
function firstOfName(names: readonly string[], name: string): number {
  const key = columnNameKey(name);
  return names.findIndex((other) => columnNameKey(other) === key);
}

/** Empty names, names that do not start with a letter, and repeated names, each with a fixed name. */
export function checkColumns(names: readonly string[]): Problem[] {
  const fixed = suggestColumnNames(names);
  const problems: Problem[] = [];
  names.forEach((name, index) => {
    const label = `Column ${index + 1}`;
    const fix = fixed[index]!;
    const offer = ` Use “${fix}”?`;
    const earlier = firstOfName(names, name);
    if (name.trim() === '') problems.push({ about: 'column', column: index, fix, message: `${label} has no name.${offer}` });
    else if (!startsWithLetter(name)) {
      const start = /^\p{N}/u.test(name) ? 'a digit' : `“${[...name][0]}”`;
      problems.push({
        about: 'column',
        column: index,
        fix,
        message: `${label} “${name}” starts with ${start}; a column name must start with a letter.${offer}`,
      });
    } else if (earlier < index) {
      const first = names[earlier]!;
      const message =
        first === name
          ? `${label} “${name}” has the same name as column ${earlier + 1}.${offer}`
          : `${label} “${name}” differs from column ${earlier + 1} “${first}” only in case, which the service does not tell apart.${offer}`;
      problems.push({ about: 'column', column: index, fix, message });
    }
  });
  return problems;
}

/**
 * Names the service takes, as close to the file's as can be: leading signs stripped, a leading digit
 * prefixed with "col_", spaces and signs inside made "_", a missing name numbered, a repeated one
 * suffixed. Good names stay as they are.
 */
export function suggestColumnNames(names: readonly string[]): string[] {
  // taken by their keys: a name that differs from a taken one only in case is taken too
  const taken = new Set<string>();
  const result: string[] = [];
  const good = (name: string, index: number) => startsWithLetter(name) && firstOfName(names, name) === index;
  names.forEach((name, index) => {
    if (good(name, index)) taken.add(columnNameKey(name));
  });
  names.forEach((name, index) => {
    if (good(name, index)) return result.push(name);
    const stripped = name
      .trim()
      .replace(/^[^\p{L}\p{N}]+/u, '')
      .replace(/[^\p{L}\p{N}_]+/gu, '_');
    let base = stripped === '' ? `column_${index + 1}` : startsWithLetter(stripped) ? stripped : `col_${stripped}`;
    if (taken.has(columnNameKey(base))) {
      let n = 2;
      while (taken.has(columnNameKey(`${base}_${n}`))) n += 1;
      base = `${base}_${n}`;
    }
    taken.add(columnNameKey(base));
    result.push(base);
  });
  return result;
}

/** Rows whose number of fields is not the header's: the first few, and how many more there are. */
export function checkRows(ragged: readonly RaggedRow[], raggedCount: number, headerFields: number): Problem[] {
  const problems: Problem[] = ragged.slice(0, MAX_RAGGED_SHOWN).map(({ row, fields }) => ({
    about: 'rows',
    message: `Row ${formatCount(row)} has ${fields === 1 ? '1 field' : `${formatCount(fields)} fields`}; the header has ${formatCount(headerFields)}.`,
  }));
  const more = raggedCount - problems.length;
  if (more > 0)
    problems.push({
      about: 'rows',
      message: `${formatCount(more)} more ${more === 1 ? 'row has' : 'rows have'} a different number of fields than the header.`,
    });
  return problems;
}
